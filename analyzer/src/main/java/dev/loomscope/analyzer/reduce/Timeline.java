package dev.loomscope.analyzer.reduce;

import java.io.Serializable;
import java.time.Instant;
import java.util.Arrays;
import java.util.PriorityQueue;

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
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        long t = epochNanos(time);
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
     * lasts): the most spans open at one instant among those that begin from {@code fromNanos} (inclusive) to
     * {@code toNanos} (exclusive); 0 when none begins there.
     */
    public int mostAtOnce(long fromNanos, long toNanos) {
        sort();
        PriorityQueue<Long> ends = new PriorityQueue<>();
        int most = 0;
        for (int i = firstAtOrAfter(fromNanos); i < size && times[i] < toNanos; i++) {
            while (!ends.isEmpty() && ends.peek() <= times[i]) {
                ends.poll();
            }
            ends.add(times[i] + (long) (values[i] * 1e6));
            most = Math.max(most, ends.size());
        }
        return most;
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
