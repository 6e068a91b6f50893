package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The heap as the JVM's collections saw it: jdk.GCHeapSummary before and after each collection (jdk.GarbageCollection),
 * what was allocated between collections, committed; and allocation samples (jdk.ObjectAllocationSample), which only
 * the allocation flame graph uses: threads that end before the sampler sees them (a thread per request) are missing
 * from them.
 *
 * <p>A heap summary is a collection's only when a jdk.GarbageCollection of its gcId was recorded and the summary lies
 * within that collection's time (or, in a recording without jdk.GarbageCollection, when its gcId has both a before and
 * an after summary): async-profiler writes a summary a second marked "After GC" that follows no collection, and those
 * are kept apart as {@link #sampledUsed}, a level over time, never an after-GC level.
 */
public final class HeapReducer implements Reducer {
    /** A collection's window may start or end this far beyond its summaries' times (clock granularity). */
    private static final long SLACK_NANOS = 1_000_000;

    private record Summary(long gcId, boolean after, long nanos, double used, double committed)
            implements Serializable {}

    /**
     * One stretch between two collections: from the first's after summary to the next one's before summary, and the
     * bytes allocated.
     */
    public record Between(long fromNanos, long toNanos, double bytes) implements Serializable {}

    private final List<Summary> summaries = new ArrayList<>();
    private final Map<Long, long[]> collections = new HashMap<>();
    private double sampledBytes;
    private long allocationSamples;
    private boolean resolved;

    // what the pass comes to, filled on the first question (resolve)
    private final Samples beforeUsed = new Samples();
    private final Samples afterUsed = new Samples();
    private final Samples afterTimes = new Samples();
    private final Samples committed = new Samples();
    private final Timeline afterUsedInTime = new Timeline();
    private final Samples sampledUsed = new Samples();
    private final Samples sampledTimes = new Samples();
    private final List<Between> between = new ArrayList<>();

    @Override
    public Set<String> eventTypes() {
        return Set.of(JdkEvents.GC_HEAP_SUMMARY, JdkEvents.GARBAGE_COLLECTION, JdkEvents.OBJECT_ALLOCATION_SAMPLE);
    }

    @Override
    public void add(JfrEvent e) {
        switch (e.type()) {
            case JdkEvents.OBJECT_ALLOCATION_SAMPLE -> {
                sampledBytes += e.longValue(JdkFields.WEIGHT);
                allocationSamples++;
            }
            case JdkEvents.GARBAGE_COLLECTION -> {
                if (e.hasField(
                        JdkFields.GC_ID)) { // without it (a table of another tool's), summaries pair by their own gcIds
                    long start = Timeline.epochNanos(e.startTime());
                    collections.put(
                            e.longValue(JdkFields.GC_ID),
                            new long[] {start, start + e.duration().toNanos()});
                }
            }
            default -> {
                Long committedSize = e.nestedLong("heapSpace", "committedSize");
                summaries.add(new Summary(
                        e.hasField(JdkFields.GC_ID) ? e.longValue(JdkFields.GC_ID) : -1,
                        "After GC".equals(e.string(JdkFields.WHEN)),
                        Timeline.epochNanos(e.startTime()),
                        e.longValue(JdkFields.HEAP_USED),
                        committedSize == null ? Double.NaN : committedSize));
            }
        }
        resolved = false;
    }

    /** Sorts the summaries into collections' and the rest, and the collections' into the stretches between them. */
    private void resolve() {
        if (resolved) {
            return;
        }
        for (Samples s : List.of(beforeUsed, afterUsed, afterTimes, committed, sampledUsed, sampledTimes)) {
            s.clear();
        }
        afterUsedInTime.clear();
        between.clear();
        // walked in time order: each map holds a collection's first summary of its side, in time order
        Map<Long, Summary> before = new LinkedHashMap<>();
        Map<Long, Summary> after = new LinkedHashMap<>();
        Map<Long, Integer> sides = new HashMap<>();
        summaries.forEach(s -> sides.merge(s.gcId(), s.after() ? 1 : 2, (a, b) -> a | b));
        List<Summary> byTime = new ArrayList<>(summaries);
        byTime.sort(Comparator.comparingLong(Summary::nanos));
        for (Summary s : byTime) {
            long[] gc = collections.get(s.gcId());
            boolean collection = collections.isEmpty()
                    ? sides.get(s.gcId()) == 3
                    : gc != null && s.nanos() >= gc[0] - SLACK_NANOS && s.nanos() <= gc[1] + SLACK_NANOS;
            if (!collection) {
                if (s.after()) {
                    sampledUsed.add(s.used());
                    sampledTimes.add(s.nanos() / 1e6);
                }
                continue;
            }
            (s.after() ? after : before).putIfAbsent(s.gcId(), s);
            if (!Double.isNaN(s.committed())) {
                committed.add(s.committed());
            }
        }
        before.values().forEach(s -> beforeUsed.add(s.used()));
        for (Summary s : after.values()) {
            afterUsed.add(s.used());
            afterTimes.add(s.nanos() / 1e6);
            afterUsedInTime.add(Instant.ofEpochSecond(0, s.nanos()), s.used());
        }
        between(List.copyOf(before.values()), after.values());
        resolved = true;
    }

    /** What the heap took between one collection's end and the next one's start: both sides in time order, one pass. */
    private void between(List<Summary> befores, Collection<Summary> afters) {
        int next = 0;
        for (Summary from : afters) {
            while (next < befores.size() && befores.get(next).nanos() <= from.nanos()) {
                next++;
            }
            if (next < befores.size() && befores.get(next).used() >= from.used()) {
                Summary to = befores.get(next);
                between.add(new Between(from.nanos(), to.nanos(), to.used() - from.used()));
            }
        }
    }

    /** Heap used before each collection, in time order. */
    public Samples beforeUsed() {
        resolve();
        return beforeUsed;
    }

    /** Heap used after each collection, in time order; {@link #afterTimes} their times (epoch ms). */
    public Samples afterUsed() {
        resolve();
        return afterUsed;
    }

    public Samples afterTimes() {
        resolve();
        return afterTimes;
    }

    /** Heap used after each collection, at its time: a run's. */
    public Timeline afterUsedInTime() {
        resolve();
        return afterUsedInTime;
    }

    /** Committed heap at the collections. */
    public Samples committed() {
        resolve();
        return committed;
    }

    /**
     * Heap used from summaries that follow no collection (async-profiler's, once a second), in time order;
     * {@link #sampledTimes} (epoch ms).
     */
    public Samples sampledUsed() {
        resolve();
        return sampledUsed;
    }

    public Samples sampledTimes() {
        resolve();
        return sampledTimes;
    }

    /** The stretches between collections with what was allocated in each, in time order. */
    public List<Between> between() {
        resolve();
        return between;
    }

    /**
     * Bytes allocated per second from the collections: what the heap took between each collection and the next, over
     * those stretches' time; null with fewer than two collections.
     */
    public Double allocationRate() {
        List<Between> b = between();
        if (b.isEmpty()) {
            return null;
        }
        double bytes = b.stream().mapToDouble(Between::bytes).sum();
        double nanos = b.stream().mapToDouble(x -> x.toNanos() - x.fromNanos()).sum();
        return bytes / (nanos / 1e9);
    }

    /**
     * Bytes allocated per second over {@code [fromNanos, toNanos)} from the stretches between collections, each spread
     * evenly over its time; null when they cover less than half the window.
     */
    public Double allocationRate(long fromNanos, long toNanos) {
        double bytes = 0;
        double covered = 0;
        for (Between b : between()) {
            long lo = Math.max(fromNanos, b.fromNanos());
            long hi = Math.min(toNanos, b.toNanos());
            if (hi > lo) {
                covered += hi - lo;
                bytes += b.bytes() * (hi - lo) / (double) (b.toNanos() - b.fromNanos());
            }
        }
        return toNanos <= fromNanos || covered < (toNanos - fromNanos) / 2.0 ? null : bytes / (covered / 1e9);
    }

    /** The allocation samples' weights, summed (bytes): the sampler's view, which misses threads it never saw. */
    public double sampledBytes() {
        return sampledBytes;
    }

    public long allocationSamples() {
        return allocationSamples;
    }
}
