package dev.loomscope.analyzer.reduce;

import dev.loomscope.events.ContextSwitchesEvent;
import dev.loomscope.events.EventSchema;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Context switches: the process's own (loomscope.ContextSwitches, deltas) and the machine's
 * (jdk.ThreadContextSwitchRate, a rate for the whole machine).
 */
public final class ContextSwitchReducer implements Reducer {
    /** ContextSwitches' fields, by their declared names: a name the event does not declare fails as the class loads. */
    private static final String VOLUNTARY = EventSchema.fieldName(ContextSwitchesEvent.class, "voluntary");

    private static final String INVOLUNTARY = EventSchema.fieldName(ContextSwitchesEvent.class, "involuntary");
    private static final String SOURCE = EventSchema.fieldName(ContextSwitchesEvent.class, "source");
    private static final String ALLOCATED = EventSchema.fieldName(ContextSwitchesEvent.class, "allocatedBytes");
    private static final String THREADS_STARTED =
            EventSchema.fieldName(ContextSwitchesEvent.class, "platformThreadsStarted");
    public final Samples times = new Samples();
    public final Samples voluntary = new Samples();
    public final Samples involuntary = new Samples();
    public final Samples machineRate = new Samples();
    private long voluntaryTotal;
    private long involuntaryTotal;
    private long platformThreadsStarted = -1;
    private long allocatedBytes = -1;
    // {epoch ns, platform threads started since the sample before}
    private final List<long[]> started = new ArrayList<>();
    private long firstMillis = Long.MAX_VALUE;
    private long lastMillis = Long.MIN_VALUE;
    private String source;

    @Override
    public Set<String> eventTypes() {
        return Set.of(ContextSwitchesEvent.NAME, JdkEvents.THREAD_CONTEXT_SWITCH_RATE);
    }

    @Override
    public void add(JfrEvent e) {
        long t = e.startTime().toEpochMilli();
        if (e.type().equals(JdkEvents.THREAD_CONTEXT_SWITCH_RATE)) {
            machineRate.add(e.doubleValue(JdkFields.SWITCH_RATE));
            return;
        }
        long v = e.longValue(VOLUNTARY);
        long i = e.longValue(INVOLUNTARY);
        times.add(t);
        voluntary.add(v);
        involuntary.add(i);
        voluntaryTotal += v;
        involuntaryTotal += i;
        firstMillis = Math.min(firstMillis, t);
        lastMillis = Math.max(lastMillis, t);
        source = e.hasField(SOURCE) ? e.string(SOURCE) : source;
        if (e.hasField(ALLOCATED) && e.longValue(ALLOCATED) >= 0) {
            allocatedBytes = Math.max(0, allocatedBytes) + e.longValue(ALLOCATED);
        }
        if (e.hasField(THREADS_STARTED)) {
            platformThreadsStarted = Math.max(0, platformThreadsStarted) + e.longValue(THREADS_STARTED);
            started.add(new long[] {Timeline.epochNanos(e.startTime()), e.longValue(THREADS_STARTED)});
        }
    }

    /** Takes {@code o}'s events in too, as if this reducer had seen them after its own. */
    public void merge(ContextSwitchReducer o) {
        times.addAll(o.times);
        voluntary.addAll(o.voluntary);
        involuntary.addAll(o.involuntary);
        machineRate.addAll(o.machineRate);
        voluntaryTotal += o.voluntaryTotal;
        involuntaryTotal += o.involuntaryTotal;
        if (o.platformThreadsStarted >= 0) {
            platformThreadsStarted = Math.max(0, platformThreadsStarted) + o.platformThreadsStarted;
        }
        if (o.allocatedBytes >= 0) {
            allocatedBytes = Math.max(0, allocatedBytes) + o.allocatedBytes;
        }
        started.addAll(o.started);
        firstMillis = Math.min(firstMillis, o.firstMillis);
        lastMillis = Math.max(lastMillis, o.lastMillis);
        source = o.source != null ? o.source : source;
    }

    /** Bytes the process allocated over the recording, every thread's (the agent's count); -1 when not recorded. */
    public long allocatedBytes() {
        return allocatedBytes;
    }

    /**
     * Platform threads started a second in the busiest of the agent's sampling periods from {@code start} (the
     * recording's first event) on; null when the agent did not count them.
     */
    public Double peakPlatformThreadStartRate(Instant start) {
        if (started.isEmpty() || start == null) {
            return null;
        }
        return peakRate(Timeline.epochNanos(start), started);
    }

    /**
     * The rate of the busiest period among {@code samples} ({end of the period in epoch ns, count in it}, any order;
     * the first period begins at {@code startNanos}). A sample within 0.5 s of the one before counts with it: the
     * agent's last sample, at exit, can follow its last periodic one closely, and a few threads in a few milliseconds
     * are no rate.
     */
    public static double peakRate(long startNanos, List<long[]> samples) {
        List<long[]> sorted = new ArrayList<>(samples);
        sorted.sort(Comparator.comparingLong(x -> x[0]));
        List<double[]> periods = new ArrayList<>(); // {count, seconds}
        long from = startNanos;
        for (long[] sample : sorted) {
            double seconds = (sample[0] - from) / 1e9;
            from = sample[0];
            if (seconds < 0.5 && !periods.isEmpty()) {
                periods.get(periods.size() - 1)[0] += sample[1];
                periods.get(periods.size() - 1)[1] += seconds;
            } else {
                periods.add(new double[] {sample[1], seconds});
            }
        }
        return periods.stream()
                .filter(p -> p[1] > 0)
                .mapToDouble(p -> p[0] / p[1])
                .max()
                .orElse(0);
    }

    /**
     * Seconds from {@code start} to the last of the agent's counts of platform thread starts, NaN when it did not count
     * them.
     */
    public double platformThreadStartSeconds(Instant start) {
        if (started.isEmpty() || start == null) {
            return Double.NaN;
        }
        long last = started.stream().mapToLong(x -> x[0]).max().getAsLong();
        return (last - Timeline.epochNanos(start)) / 1e9;
    }

    /**
     * Platform threads the agent counted started from {@code fromNanos} to {@code toNanos} (epoch ns): its counts up to
     * then and the one that covers {@code toNanos}, so the window is rounded out to the agent's periods (a second by
     * default); -1 when it did not count them.
     */
    public long platformThreadsStartedBetween(long fromNanos, long toNanos) {
        if (started.isEmpty()) {
            return -1;
        }
        long n = 0;
        long after = Long.MAX_VALUE; // the count that covers the window's end
        long afterCount = 0;
        for (long[] sample : started) {
            if (sample[0] > fromNanos && sample[0] <= toNanos) {
                n += sample[1];
            } else if (sample[0] > toNanos && sample[0] < after) {
                after = sample[0];
                afterCount = sample[1];
            }
        }
        return n + afterCount;
    }

    /** Platform threads the process started, from the agent's events; null when they do not say (older agents). */
    public Long platformThreadsStarted() {
        return platformThreadsStarted < 0 ? null : platformThreadsStarted;
    }

    public boolean processRecorded() {
        return times.count() > 0;
    }

    public long voluntaryTotal() {
        return voluntaryTotal;
    }

    public long involuntaryTotal() {
        return involuntaryTotal;
    }

    public String source() {
        return source;
    }
}
