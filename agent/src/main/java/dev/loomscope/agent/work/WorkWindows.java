package dev.loomscope.agent.work;

import dev.loomscope.events.WorkWindowEvent;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The calls of the {@code work=} methods, counted and timed into a histogram a method, committed as one
 * {@code loomscope.WorkWindow} event a method and window ({@link #commit}, called by JFR's periodic hook every second
 * and as a chunk ends). Every call is counted (one atomic increment in one of several stripes chosen by the thread, so
 * that threads on different cores rarely share one); a call is timed (two clock reads and a histogram update, about 80
 * ns) every time while the method is called less than {@link #SAMPLE_ABOVE} times a second, else one call in
 * {@link #SAMPLED} of each stripe, so that a hot method costs about 10 ns a call, not 80.
 */
public final class WorkWindows {
    private static final int STRIPES =
            Integer.highestOneBit(Math.min(64, Math.max(1, Runtime.getRuntime().availableProcessors() * 2)) * 2 - 1);
    /** Calls a second of a method above which one call in {@link #SAMPLED} is timed. */
    static final double SAMPLE_ABOVE = 100_000;

    static final int SAMPLED = 64;
    /** Longs between two stripes' counters: each on a cache line of its own. */
    private static final int PAD = 16;

    private static volatile Method[] methods = new Method[0];
    private static long lastCommit = System.nanoTime();
    private static long calls;

    private WorkWindows() {}

    /** One timed method: its name and its stripes. */
    private static final class Method {
        final String name;
        /** Whether its calls are timed at all (a request entry on an event loop is counted only). */
        final boolean timed;

        final Recorder[] stripes = new Recorder[STRIPES];
        final Histogram[] recycled = new Histogram[STRIPES]; // each stripe's last interval, reused by that stripe only
        final AtomicLongArray calls = new AtomicLongArray(STRIPES * PAD);
        volatile int mask; // a call is timed when its stripe's count & mask is 0

        Method(String name, boolean timed) {
            this.name = name;
            this.timed = timed;
            for (int i = 0; i < STRIPES; i++) {
                stripes[i] = new Recorder(
                        WorkWindowEvent.LOWEST_NANOS,
                        WorkWindowEvent.HIGHEST_NANOS,
                        WorkWindowEvent.SIGNIFICANT_DIGITS);
            }
        }
    }

    /**
     * The id the instrumented code of {@code name} passes to {@link Work#end}: one a method, whatever its overloads.
     */
    static synchronized int idOf(String name, boolean timed) {
        Method[] known = methods;
        for (int i = 0; i < known.length; i++) {
            if (known[i].name.equals(name)) {
                return i;
            }
        }
        Method[] more = Arrays.copyOf(known, known.length + 1);
        more[known.length] = new Method(name, timed);
        methods = more;
        return known.length;
    }

    /** How many methods the filter matched in the classes loaded so far. */
    public static int methods() {
        return methods.length;
    }

    /** The calls committed so far. */
    public static synchronized long calls() {
        return calls;
    }

    private static int stripe() {
        long t = Thread.currentThread().threadId();
        return (int) (t ^ (t >>> 16)) & (STRIPES - 1);
    }

    /** Counts a call of method {@code id}; returns its start when it is timed, else -1. */
    static long begin(int id) {
        Method m = methods[id];
        long n = m.calls.getAndIncrement(stripe() * PAD);
        return m.timed && (n & m.mask) == 0 ? System.nanoTime() : -1;
    }

    static void end(long start, int id) {
        long nanos = System.nanoTime() - start;
        methods[id].stripes[stripe()].recordValue(Math.min(Math.max(nanos, 0), WorkWindowEvent.HIGHEST_NANOS));
    }

    /**
     * Commits a window event for each method called since the last commit; returns the calls a second of the busiest
     * method in the window (0 when none).
     */
    public static synchronized double commit() {
        long now = System.nanoTime();
        long window = now - lastCommit;
        lastCommit = now;
        double busiest = 0;
        for (Method m : methods) {
            long n = 0;
            for (int i = 0; i < STRIPES; i++) {
                n += m.calls.getAndSet(i * PAD, 0);
            }
            if (n == 0) {
                continue;
            }
            Histogram sum = new Histogram(
                    WorkWindowEvent.LOWEST_NANOS, WorkWindowEvent.HIGHEST_NANOS, WorkWindowEvent.SIGNIFICANT_DIGITS);
            for (int i = 0; i < STRIPES; i++) {
                Histogram h = m.recycled[i] = m.stripes[i].getIntervalHistogram(m.recycled[i]);
                sum.add(h);
            }
            double rate = n * 1e9 / Math.max(1, window);
            WorkWindowEvent e = new WorkWindowEvent();
            e.method = m.name;
            e.calls = n;
            e.timed = sum.getTotalCount();
            e.window = window;
            e.durations = encode(sum);
            e.commit();
            calls += n;
            m.mask = rate > SAMPLE_ABOVE ? SAMPLED - 1 : 0;
            busiest = Math.max(busiest, rate);
        }
        return busiest;
    }

    /** HdrHistogram's own encoding, as its log files hold a histogram: compressed, then base64. */
    static String encode(Histogram h) {
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(b.array(), n));
    }
}
