package dev.loomscope.agent;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;

/**
 * The owners of the {@code java.util.concurrent} locks threads are parked on, which the JDK's thread dumps do not
 * record before JDK 26 (what {@code loomscope attach PID threads} and {@code watch} add to their dumps, so deadlocks
 * over such locks can be told). Reached through {@link LockOwnersAccess}, in a class loader of its own: the application
 * gains no access.
 */
final class LockOwners {
    private LockOwners() {}

    /**
     * {@link LockOwnersAccess#lines}, its class defined and the JDK's packages opened to it once (every look of watch's
     * asks).
     */
    private static Method lines;

    /** The lines of {@link LockOwnersAccess#lines}; a failure (a JDK whose internals differ) says why. */
    static String lines(Instrumentation inst) throws Exception {
        return (String) access(inst).invoke(null);
    }

    private static synchronized Method access(Instrumentation inst) throws Exception {
        if (lines == null) {
            if (inst == null) {
                throw new IllegalStateException(
                        "the agent has no instrumentation to reach the JDK's thread containers");
            }
            Class<?> access = new IsolatedLoader("loomscope-lock-owners").define(LockOwnersAccess.class.getName());
            inst.redefineModule(
                    Object.class.getModule(),
                    Set.of(),
                    Map.of("jdk.internal.vm", Set.of(access.getModule())),
                    Map.of("java.util.concurrent.locks", Set.of(access.getModule())),
                    Set.of(),
                    Map.of());
            lines = access.getMethod("lines");
        }
        return lines;
    }
}
