package dev.loomscope.analyzer.reduce;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Values with the time each was recorded (epoch nanoseconds): what fell inside one workload run's window (a run's GC
 * pauses, its pins, its heap after each GC). Sorted by time when first asked.
 */
public final class Timeline implements Serializable {
    private long[] times = new long[16];
    private double[] values = new double[16];
    private int size;
    private boolean sorted = true;

    public static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    public void add(Instant time, double value) {
        add(epochNanos(time), value);
    }

    /** Adds {@code other}'s values, each at its time. */
    public void addAll(Timeline other) {
        for (int i = 0; i < other.size; i++) {
            add(other.times[i], other.values[i]);
        }
    }

    private void add(long t, double value) {
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        sorted &= size == 0 || times[size - 1] <= t;
        times[size] = t;
        values[size++] = value;
    }

    public int count() {
        return size;
    }

    /** Forgets every value. */
    public void clear() {
        size = 0;
        sorted = true;
    }

    /** The values recorded from {@code fromNanos} (inclusive) to {@code toNanos} (exclusive). */
    public Samples between(long fromNanos, long toNanos) {
        sort();
        Samples out = new Samples();
        for (int i = firstAtOrAfter(fromNanos); i < size && times[i] < toNanos; i++) {
            out.add(values[i]);
        }
        return out;
    }

    /**
     * Reading each value as a span of that many milliseconds from its time (a pin, which holds one carrier while it
     * lasts), over the spans that begin from {@code fromNanos} (inclusive) to {@code toNanos} (exclusive), each cut at
     * {@code toNanos}: the most open together for at least {@code share} of the time from the first one's start to the
     * last one's end (a blip of one instant does not count); 0 when none begins there.
     */
    public int mostAtOnce(long fromNanos, long toNanos, double share) {
        sort();
        List<long[]> edges = new ArrayList<>(); // time, +1 a start, -1 an end
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = firstAtOrAfter(fromNanos); i < size && times[i] < toNanos; i++) {
            long end = Math.min(toNanos, times[i] + (long) (values[i] * 1e6));
            edges.add(new long[] {times[i], 1});
            edges.add(new long[] {end, -1});
            first = Math.min(first, times[i]);
            last = Math.max(last, end);
        }
        if (edges.isEmpty()) {
            return 0;
        }
        edges.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        long[] timeAt = new long[edges.size() / 2 + 1]; // nanoseconds with exactly k open
        int open = 0;
        for (int k = 0; k < edges.size(); k++) {
            if (k > 0) {
                timeAt[open] += edges.get(k)[0] - edges.get(k - 1)[0];
            }
            open += (int) edges.get(k)[1];
        }
        double needed = share * Math.max(1, last - first);
        long atLeast = 0;
        for (int k = timeAt.length - 1; k > 0; k--) {
            atLeast += timeAt[k];
            if (atLeast > 0 && atLeast >= needed) {
                return k;
            }
        }
        return 0;
    }

    /**
     * For a level that holds until the next value (the heap used after a GC holds until the next GC): the levels in
     * effect from {@code fromNanos} to {@code toNanos}, the one set before the window and those set inside it. Empty
     * when no value was set before {@code toNanos}.
     */
    public Samples levelsBetween(long fromNanos, long toNanos) {
        sort();
        Samples out = new Samples();
        int first = firstAtOrAfter(fromNanos);
        if (first > 0) {
            out.add(values[first - 1]);
        }
        for (int i = first; i < size && times[i] < toNanos; i++) {
            out.add(values[i]);
        }
        return out;
    }

    private int firstAtOrAfter(long t) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private void sort() {
        if (sorted) {
            return;
        }
        Integer[] order = new Integer[size];
        Arrays.setAll(order, i -> i);
        long[] t = times;
        Arrays.sort(order, (a, b) -> Long.compare(t[a], t[b]));
        long[] st = new long[Math.max(16, size)];
        double[] sv = new double[st.length];
        for (int i = 0; i < size; i++) {
            st[i] = times[order[i]];
            sv[i] = values[order[i]];
        }
        times = st;
        values = sv;
        sorted = true;
    }
}
