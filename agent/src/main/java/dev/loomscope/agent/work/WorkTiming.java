package dev.loomscope.agent.work;

import dev.loomscope.agent.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's {@code work=} option on JDK 21-24 (on 25+ JFR's method tracing times the calls, set in
 * the recording's settings): a transformer that times the named methods as their classes load, and
 * for a JVM attached to later, the classes already loaded retransformed.
 */
public final class WorkTiming {
    private static String installed;

    private WorkTiming() {}

    /** Whether this JDK times the calls with JFR's own method tracing (JEP 520). */
    public static boolean jfrTraces() {
        return Runtime.version().feature() >= 25;
    }

    /** Times the methods {@code work} names from now on; once a JVM (a second, other filter is refused in one line). */
    public static synchronized void install(String work, Instrumentation inst) {
        if (work.isEmpty() || jfrTraces()) {
            return;
        }
        if (inst == null) {
            AgentLog.warn("work=" + work + ": not recorded (the agent was given no instrumentation)");
            return;
        }
        if (installed != null) {
            if (!installed.equals(work)) {
                AgentLog.warn("work=" + work + ": this JVM already times work=" + installed + " (one filter a JVM on JDK 21-24); that one goes on");
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
                if (c.getClassLoader() != null && inst.isModifiableClass(c) && filter.mayMatch(c.getName().replace('.', '/'))) {
                    loaded.add(c);
                }
            }
            for (Class<?> c : loaded) {
                try {
                    inst.retransformClasses(c);
                } catch (Throwable t) {
                    AgentLog.warn("work=: " + c.getName() + " could not be retransformed (" + t + "); its calls are not timed");
                }
            }
        }
    }
}
