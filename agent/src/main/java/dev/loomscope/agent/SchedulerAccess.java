package dev.loomscope.agent;

import java.lang.reflect.Field;

/**
 * Defined by {@link StallWatch} in a class loader of its own ({@link IsolatedLoader}), the only code {@code java.lang}
 * is opened to: hands back the virtual thread scheduler, a ForkJoinPool whose steal count tells whether virtual threads
 * move between carriers. Not used from the agent's own loader.
 */
public final class SchedulerAccess {
    private SchedulerAccess() {}

    public static Object scheduler() throws ReflectiveOperationException {
        Field f = Class.forName("java.lang.VirtualThread").getDeclaredField("DEFAULT_SCHEDULER");
        f.setAccessible(true);
        return f.get(null);
    }
}
