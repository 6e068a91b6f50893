package dev.loomscope.analyzer.reduce;

import dev.loomscope.events.EventSchema;
import dev.loomscope.events.WorkEvent;
import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.load.stats.LatencyHistograms;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JfrEvent;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * An application's units of work (a request, a job) as the agent's {@code work=} option records them: the agent's
 * windows ({@code loomscope.WorkWindow}: a count and a histogram of durations a method and second), or an event a call
 * in recordings of other writers and of earlier agents (jdk.MethodTrace, loomscope.Work). What a recording without
 * WorkloadRun events (any service) is compared by: calls a second and their latency. Memory is bounded by the
 * recording's seconds, not by its calls: durations go into HdrHistograms of {@link WorkWindowEvent#SIGNIFICANT_DIGITS}
 * significant digits (a quantile within 1% of the recorded value, or within a microsecond).
 */
public final class WorkReducer implements Reducer {
    private static final String CALLS = EventSchema.fieldName(WorkWindowEvent.class, "calls");
    private static final String WINDOW_NANOS = EventSchema.fieldName(WorkWindowEvent.class, "window");
    private static final String DURATIONS = EventSchema.fieldName(WorkWindowEvent.class, "durations");
    private static final String TIMED = EventSchema.fieldName(WorkWindowEvent.class, "timed");

    private final Histogram all = histogram();
    /** The timed calls by the epoch second they ended in (a window's: the second of its middle). */
    private final TreeMap<Long, Histogram> bySecond = new TreeMap<>();
    /** Every call by the epoch second it ended in, timed or not (a window's spread over its seconds). */
    private final TreeMap<Long, Long> callsBySecond = new TreeMap<>();

    private long calls;
    private long undecodable;

    private static Histogram histogram() {
        return new Histogram(
                WorkWindowEvent.LOWEST_NANOS, WorkWindowEvent.HIGHEST_NANOS, WorkWindowEvent.SIGNIFICANT_DIGITS);
    }

    @Override
    public Set<String> eventTypes() {
        return Set.of(JdkEvents.METHOD_TRACE, WorkEvent.NAME, WorkWindowEvent.NAME);
    }

    @Override
    public void add(JfrEvent e) {
        long end = Timeline.epochNanos(e.endTime());
        if (e.type().equals(WorkWindowEvent.NAME)) {
            Histogram h = decode(e.string(DURATIONS));
            long n = e.longValue(CALLS);
            if (h == null || h.getTotalCount() != e.longValue(TIMED)) {
                undecodable += n;
                return;
            }
            long window = Math.max(0, e.longValue(WINDOW_NANOS));
            all.add(h);
            second(end - window / 2).add(h);
            spread(end - window, end, n);
            return;
        }
        long nanos = Math.min(Math.max(e.duration().toNanos(), 0), WorkWindowEvent.HIGHEST_NANOS);
        all.recordValue(nanos);
        second(end).recordValue(nanos);
        count(end, 1);
    }

    /** Takes {@code o}'s calls in too. */
    public void merge(WorkReducer o) {
        all.add(o.all);
        o.bySecond.forEach((sec, h) -> second(sec * 1_000_000_000L).add(h));
        o.callsBySecond.forEach((sec, n) -> callsBySecond.merge(sec, n, Long::sum));
        calls += o.calls;
        undecodable += o.undecodable;
    }

    private void count(long epochNanos, long n) {
        calls += n;
        callsBySecond.merge(Math.floorDiv(epochNanos, 1_000_000_000L), n, Long::sum);
    }

    /**
     * {@code n} calls spread over the seconds from {@code from} to {@code to} (epoch ns) by their share of the window.
     */
    private void spread(long from, long to, long n) {
        long first = Math.floorDiv(from, 1_000_000_000L);
        long last = Math.floorDiv(Math.max(from, to - 1), 1_000_000_000L);
        long left = n;
        for (long sec = first; sec < last; sec++) {
            long overlap = Math.min(to, (sec + 1) * 1_000_000_000L) - Math.max(from, sec * 1_000_000_000L);
            long part = Math.round((double) n * overlap / (to - from));
            count(sec * 1_000_000_000L, Math.min(part, left));
            left -= Math.min(part, left);
        }
        count(last * 1_000_000_000L, left);
    }

    private Histogram second(long epochNanos) {
        return bySecond.computeIfAbsent(
                Math.floorDiv(epochNanos, 1_000_000_000L),
                s -> new PackedHistogram(
                        WorkWindowEvent.LOWEST_NANOS,
                        WorkWindowEvent.HIGHEST_NANOS,
                        WorkWindowEvent.SIGNIFICANT_DIGITS));
    }

    /** A window's histogram, or null when its text is not one. */
    static Histogram decode(String base64) {
        return LatencyHistograms.decode(base64, WorkWindowEvent.HIGHEST_NANOS);
    }

    /** Calls recorded. */
    public long count() {
        return calls;
    }

    /** Calls a window said it had whose histogram could not be read (damage): left out of every figure. */
    public long undecodable() {
        return undecodable;
    }

    /** The calls' duration at quantile {@code q} (0-1), ms; NaN without calls. */
    public double quantileMillis(double q) {
        return quantileMillis(all, q);
    }

    static double quantileMillis(Histogram h, double q) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(q * 100) / 1e6;
    }

    /**
     * The calls that ended in the epoch seconds that begin from {@code fromNanos} (epoch) up to {@code toNanos}:
     * consecutive ranges take each second once.
     */
    public Calls between(long fromNanos, long toNanos) {
        long from = Math.floorDiv(fromNanos + 999_999_999L, 1_000_000_000L);
        long to = Math.floorDiv(toNanos + 999_999_999L, 1_000_000_000L) - 1;
        Histogram h = histogram();
        if (from > to) { // a range inside one second takes none: the second is the range's that ends in it
            return new Calls(0, h);
        }
        for (Histogram s : bySecond.subMap(from, true, to, true).values()) {
            h.add(s);
        }
        long n = callsBySecond.subMap(from, true, to, true).values().stream()
                .mapToLong(Long::longValue)
                .sum();
        return new Calls(n, h);
    }

    /** Some calls: their count and the quantiles of the durations of those timed. */
    public record Calls(long count, Histogram durations) {

        /** The duration at quantile {@code q} (0-1), ms; NaN without calls. */
        public double quantileMillis(double q) {
            return WorkReducer.quantileMillis(durations, q);
        }
    }
}
