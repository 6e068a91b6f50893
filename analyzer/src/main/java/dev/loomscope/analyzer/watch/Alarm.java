package dev.loomscope.analyzer.watch;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A condition {@code watch} raises once when it begins: which ({@code kind}), since when, what was
 * seen and where (the frame that causes it), with the stack that shows it.
 */
record Alarm(String kind, Instant since, String what, String where, List<String> stack) {
    /** Carriers all busy while the scheduler's queue grows. */
    static final String QUEUE = "queue-growth";
    /** Pins above the rate or the share of carrier time asked for. */
    static final String PINS = "pinning";
    /** Carriers' CPU in Thread.yield or Thread.onSpinWait. */
    static final String SPIN = "yield-spin";
    /** Many virtual threads parked at one place: a pool or lock smaller than the threads that want it. */
    static final String POOL = "pool-ceiling";

    String line() {
        return "ALARM " + kind + " since " + Tick.CLOCK.format(LocalTime.ofInstant(since, ZoneId.systemDefault())) + ": " + what
                + (where == null ? "" : "; where: " + where);
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "alarm");
        m.put("alarm", kind);
        m.put("since", since.toString());
        m.put("what", what);
        m.put("where", where);
        m.put("stack", stack);
        return m;
    }
}
