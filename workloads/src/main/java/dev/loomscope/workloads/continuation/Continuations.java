package dev.loomscope.workloads.continuation;

import dev.loomscope.workloads.core.BadArgumentException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The JDK's internal one-shot delimited continuation, {@code jdk.internal.vm.Continuation}, through method handles (it
 * is not exported: the JVM needs {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}).
 */
final class Continuations {
    static final String ADD_EXPORTS = "--add-exports java.base/jdk.internal.vm=ALL-UNNAMED";
    /** The same as one JVM argument, for the benchmarks' forks. */
    static final String ADD_EXPORTS_ARG = "--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED";

    private static MethodHandle NEW;
    private static MethodHandle RUN;
    private static MethodHandle YIELD;
    private static MethodHandle IS_DONE;
    final Object scope;

    /** Looks the continuation API up; a one-line {@link BadArgumentException} when it is not exported. */
    private static synchronized void bind() {
        if (NEW != null) {
            return;
        }
        try {
            Class<?> cont = Class.forName("jdk.internal.vm.Continuation");
            Class<?> scopeType = Class.forName("jdk.internal.vm.ContinuationScope");
            MethodHandles.Lookup l = MethodHandles.lookup();
            NEW = l.findConstructor(cont, MethodType.methodType(void.class, scopeType, Runnable.class))
                    .asType(MethodType.methodType(Object.class, Object.class, Runnable.class));
            RUN = l.findVirtual(cont, "run", MethodType.methodType(void.class))
                    .asType(MethodType.methodType(void.class, Object.class));
            YIELD = l.findStatic(cont, "yield", MethodType.methodType(boolean.class, scopeType))
                    .asType(MethodType.methodType(boolean.class, Object.class));
            IS_DONE = l.findVirtual(cont, "isDone", MethodType.methodType(boolean.class))
                    .asType(MethodType.methodType(boolean.class, Object.class));
        } catch (ReflectiveOperationException | IllegalAccessError e) {
            throw new BadArgumentException(
                    "continuation: jdk.internal.vm is not accessible (run the JVM with " + ADD_EXPORTS + ")");
        }
    }

    Continuations(String name) {
        bind();
        try {
            scope = Class.forName("jdk.internal.vm.ContinuationScope")
                    .getConstructor(String.class)
                    .newInstance(name);
        } catch (ReflectiveOperationException e) {
            throw new BadArgumentException("continuation: cannot create a scope: " + e);
        }
    }

    Object create(Runnable body) throws Throwable {
        return NEW.invokeExact(scope, body);
    }

    static void run(Object continuation) throws Throwable {
        RUN.invokeExact(continuation);
    }

    void yieldNow() {
        try {
            boolean ignored = (boolean) YIELD.invokeExact(scope);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static boolean isDone(Object continuation) throws Throwable {
        return (boolean) IS_DONE.invokeExact(continuation);
    }
}
