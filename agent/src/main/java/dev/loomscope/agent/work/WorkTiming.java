package dev.loomscope.agent.work;

import dev.loomscope.agent.log.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The agent's {@code work=} option, the same on every JDK: a transformer that times the named methods as their classes
 * load, and the classes already loaded retransformed (a background start, an attach). The filter is in place before the
 * classes it names run again. (JDK 25's own method tracing is not used: an event a call made a hot method 200 times
 * slower and its recording gigabytes long; the windows of {@link WorkWindows} cost a bounded amount a call.)
 */
public final class WorkTiming {
    private static String installed;

    private WorkTiming() {}

    /** Times the methods {@code work} names from now on; once a JVM (a second, other filter is refused in one line). */
    public static synchronized void install(String work, Instrumentation inst) {
        if (work.isEmpty()) {
            return;
        }
        if (inst == null) {
            AgentLog.warn("work=" + work + ": not recorded (the agent was given no instrumentation)");
            return;
        }
        if (installed != null) {
            if (!installed.equals(work)) {
                AgentLog.warn("work=" + work + ": this JVM already times work=" + installed
                        + " (one filter a JVM); that one goes on");
            }
            return;
        }
        List<String> problems = new ArrayList<>();
        WorkFilter filter = WorkFilter.parse(work, problems);
        problems.forEach(p -> AgentLog.warn("work=: " + p + "; left out"));
        if (filter.isEmpty()) {
            return;
        }
        installed = work;
        inst.addTransformer(new WorkTransformer(filter), inst.isRetransformClassesSupported());
        if (inst.isRetransformClassesSupported()) {
            List<Class<?>> loaded = new ArrayList<>();
            for (Class<?> c : inst.getAllLoadedClasses()) {
                if (c.getClassLoader() != null
                        && inst.isModifiableClass(c)
                        && filter.mayMatch(c.getName().replace('.', '/'), interfaces(c))) {
                    loaded.add(c);
                }
            }
            for (Class<?> c : loaded) {
                try {
                    inst.retransformClasses(c);
                } catch (Throwable t) {
                    AgentLog.warn("work=: " + c.getName() + " could not be retransformed (" + t
                            + "); its calls are not timed");
                }
            }
        }
    }

    /** The internal names of the interfaces {@code c} implements directly; none when they cannot be read. */
    private static List<String> interfaces(Class<?> c) {
        try {
            return Arrays.stream(c.getInterfaces())
                    .map(i -> i.getName().replace('.', '/'))
                    .toList();
        } catch (Throwable linkage) {
            return List.of();
        }
    }

    /** Calls a second above which a work= method is a hot method rather than a unit of work: said once. */
    static final double HOT_CALLS_PER_SECOND = 1_000_000;

    /**
     * The periodic hook that commits the windows of {@code work} (null without work=); it says once when a method is
     * called so often that timing it is a cost of its own.
     */
    public static Runnable windows(String work) {
        if (work.isEmpty()) {
            return null;
        }
        boolean[] warned = new boolean[1];
        return () -> {
            double rate = WorkWindows.commit();
            if (rate > HOT_CALLS_PER_SECOND && !warned[0]) {
                warned[0] = true;
                AgentLog.warn(String.format(
                        Locale.ROOT,
                        "work=%s: a method it names ran %,.0f times a second: a hot method rather than a unit of work,"
                                + " and timing each call costs tens of nanoseconds; name the method that handles a"
                                + " request or a job",
                        work,
                        rate));
            }
        };
    }

    /**
     * At the end of a recording: one line when {@code work} timed nothing, and why; nothing when it is the default
     * {@link WorkFilter#REQUESTS} alone (a program that serves no HTTP is no mistake).
     */
    public static void reportMissing(String work) {
        if (work.isEmpty() || WorkFilter.parse(work, new ArrayList<>()).requestsOnly()) {
            return;
        }
        if (WorkWindows.methods() == 0) {
            AgentLog.warn("work=" + work
                    + ": no method of the classes this JVM loaded matches it, so no call was recorded: check the class"
                    + " and method names (compare and report judge no calls of this run)");
        } else if (WorkWindows.calls() == 0) {
            AgentLog.warn("work=" + work + ": none of the " + WorkWindows.methods()
                    + " methods it matched was called while the recording ran, so no call was recorded (compare and"
                    + " report judge no calls of this run)");
        }
    }
}
