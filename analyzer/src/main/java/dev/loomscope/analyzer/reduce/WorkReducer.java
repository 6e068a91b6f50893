package dev.loomscope.analyzer.reduce;

import dev.loomscope.events.EventSchema;
import dev.loomscope.events.WorkEvent;
import dev.loomscope.recording.JfrEvent;
import java.util.Set;

/**
 * An application's units of work (a request, a job) as the agent's {@code work=} option records
 * them: each call of the named methods, with its duration. JDK 25+: JFR's method tracing
 * (jdk.MethodTrace, JEP 520); JDK 21-24: the agent's own (loomscope.Work). What a recording without WorkloadRun events (any service) is
 * compared by: calls a second and their latency.
 */
public final class WorkReducer implements Reducer {
    public static final String METHOD_TRACE = "jdk.MethodTrace";
    /** The agent's own timing of the same calls on JDK 21-24. */
    public static final String OWN = EventSchema.name(WorkEvent.class);

    /** Each call's duration in ms, at the time it started. */
    private final Timeline calls = new Timeline();
    private final Samples millis = new Samples();

    @Override
    public Set<String> eventTypes() {
        return Set.of(METHOD_TRACE, OWN);
    }

    @Override
    public void add(JfrEvent e) {
        double ms = e.duration().toNanos() / 1e6;
        millis.add(ms);
        calls.add(e.startTime(), ms);
    }

    /** Calls recorded. */
    public long count() {
        return millis.count();
    }

    /** Every call's duration (ms). */
    public Samples millis() {
        return millis;
    }

    /** Every call's duration (ms) at the time it started. */
    public Timeline calls() {
        return calls;
    }
}
