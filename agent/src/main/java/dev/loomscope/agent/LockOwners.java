package dev.loomscope.agent;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * The owners of the {@code java.util.concurrent} locks threads are parked on, which the JDK's thread
 * dumps do not record before JDK 26 (what {@code loomscope attach PID threads} and {@code watch}
 * add to their dumps, so deadlocks over such locks can be told). Reached through
 * {@link LockOwnersAccess}, in a class loader of its own: the application gains no access.
 */
final class LockOwners {
    private LockOwners() {}

    /** The lines of {@link LockOwnersAccess#lines}; a failure (a JDK whose internals differ) says why. */
    static String lines(Instrumentation inst) throws Exception {
        if (inst == null) {
            throw new IllegalStateException("the agent has no instrumentation to reach the JDK's thread containers");
        }
        Class<?> access = new IsolatedLoader("loomscope-lock-owners").define(LockOwnersAccess.class.getName());
        inst.redefineModule(Object.class.getModule(), Set.of(), Map.of("jdk.internal.vm", Set.of(access.getModule())),
                Map.of("java.util.concurrent.locks", Set.of(access.getModule())), Set.of(), Map.of());
        return (String) access.getMethod("lines").invoke(null);
    }
}
