package dev.loomscope.analyzer.reduce;

import dev.loomscope.events.EventSchema;
import dev.loomscope.events.HeldMonitorEvent;
import dev.loomscope.events.HeldMonitorSampleEvent;
import dev.loomscope.load.stats.Quantiles;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.PinFrames;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The agent's looks at the platform threads for where a virtual thread would hold its carrier
 * (loomscope.HeldMonitorSample, loomscope.HeldMonitor): how many looks, and per site (what the threads did, where,
 * holding what, in which pool) how many threads all the looks found, and per look how many were found of each kind: the
 * mean threads so is the thread-time a second spent so.
 */
public final class HeldMonitorReducer implements Reducer {
    private static final String INTERVAL = EventSchema.fieldName(HeldMonitorSampleEvent.class, "interval");
    private static final String PLATFORM_THREADS =
            EventSchema.fieldName(HeldMonitorSampleEvent.class, "platformThreads");
    private static final String LONGEST_WALK = EventSchema.fieldName(HeldMonitorSampleEvent.class, "longestWalk");
    private static final String WHAT = EventSchema.fieldName(HeldMonitorEvent.class, "what");
    private static final String THREADS = EventSchema.fieldName(HeldMonitorEvent.class, "threads");
    private static final String SITE = EventSchema.fieldName(HeldMonitorEvent.class, "site");
    private static final String HELD_AT = EventSchema.fieldName(HeldMonitorEvent.class, "heldAt");
    private static final String MONITOR = EventSchema.fieldName(HeldMonitorEvent.class, "monitorClass");
    private static final String BLOCKED_IN = EventSchema.fieldName(HeldMonitorEvent.class, "blockedIn");
    private static final String GROUP = EventSchema.fieldName(HeldMonitorEvent.class, "threadGroup");
    private static final String STACK = EventSchema.fieldName(HeldMonitorEvent.class, "stack");
    private static final String WORK = EventSchema.fieldName(HeldMonitorEvent.class, "work");

    /**
     * Where threads were found: what they did, the application frame, the frame that took the monitor, its class, the
     * top frame, their pool, the work= unit they were in (empty when none).
     */
    public record Site(
            String what, String site, String heldAt, String monitorClass, String blockedIn, String group, String work)
            implements Serializable {}

    /** A site's threads over all looks and one of its stacks. */
    public static final class Found implements Serializable {
        private long threads;
        private String stack;

        /** Threads found there, summed over the looks. */
        public long threads() {
            return threads;
        }

        public String stack() {
            return stack;
        }
    }

    private long intervalMillis = -1;
    private long platformThreads;
    private final Samples lookMillis = new Samples();
    /**
     * Each look's longest stack walk, ms: a recording whose looks walked stacks one thread at a time, none stopping the
     * rest; empty before.
     */
    private final Samples walkMillis = new Samples();

    private final Map<Site, Found> sites = new LinkedHashMap<>();
    /** When each look was taken (epoch ns). */
    private final List<Long> lookTimes = new ArrayList<>();
    /** Each site's threads at each look: when (epoch ns), where, how many. */
    private final List<Hit> hits = new ArrayList<>();

    private record Hit(long nanos, Site site, long threads) implements Serializable {}

    /** The JDK's events of one kind at one application frame: how many, and their time in all. */
    public record JdkSite(String event, String site) implements Serializable {}

    /** How many events and their summed duration (ns). */
    public static final class JdkFound implements Serializable {
        private long events;
        private long nanos;

        public long events() {
            return events;
        }

        public long nanos() {
            return nanos;
        }
    }

    private final Map<JdkSite, JdkFound> jdkSites = new LinkedHashMap<>();
    private final JdkFound jdkOwn = new JdkFound();

    @Override
    public Set<String> eventTypes() {
        return Set.of(
                HeldMonitorSampleEvent.NAME,
                HeldMonitorEvent.NAME,
                JdkEvents.JAVA_MONITOR_ENTER,
                JdkEvents.JAVA_MONITOR_WAIT);
    }

    @Override
    public void add(JfrEvent e) {
        if (e.type().equals(JdkEvents.JAVA_MONITOR_ENTER) || e.type().equals(JdkEvents.JAVA_MONITOR_WAIT)) {
            List<Frame> frames = e.stackFrames();
            int app = frames == null ? -1 : PinFrames.firstApplication(frames, 0);
            if (app < 0 && frames != null && !frames.isEmpty()) {
                // the JDK's own code alone: its threads (a cleaner, a timer) or a pool's idle ones, not a request's
                jdkOwn.events++;
                jdkOwn.nanos += e.duration().toNanos();
                return;
            }
            String site = app < 0 ? "(no stack trace)" : frames.get(app).text();
            JdkFound found = jdkSites.computeIfAbsent(new JdkSite(e.type(), site), k -> new JdkFound());
            found.events++;
            found.nanos += e.duration().toNanos();
            return;
        }
        if (e.type().equals(HeldMonitorSampleEvent.NAME)) {
            intervalMillis = e.hasField(INTERVAL) ? e.longValue(INTERVAL) : intervalMillis;
            platformThreads =
                    Math.max(platformThreads, e.hasField(PLATFORM_THREADS) ? e.longValue(PLATFORM_THREADS) : 0);
            lookMillis.add(e.duration().toNanos() / 1e6);
            if (e.hasField(LONGEST_WALK)) {
                walkMillis.add(e.longValue(LONGEST_WALK) / 1e6);
            }
            lookTimes.add(nanos(e.startTime()));
            return;
        }
        if (!e.hasField(WHAT) || !e.hasField(THREADS)) {
            return; // another writer's event of that name
        }
        Site s = new Site(
                e.string(WHAT),
                text(e, SITE),
                text(e, HELD_AT),
                text(e, MONITOR),
                text(e, BLOCKED_IN),
                text(e, GROUP),
                text(e, WORK));
        Found f = sites.computeIfAbsent(s, k -> new Found());
        long n = e.longValue(THREADS);
        f.threads += n;
        if (f.stack == null) {
            f.stack = text(e, STACK);
        }
        hits.add(new Hit(nanos(e.startTime()), s, n));
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static String text(JfrEvent e, String field) {
        String v = e.hasField(field) ? e.string(field) : null;
        return v == null ? "" : v;
    }

    /** The looks taken. */
    public long samples() {
        return lookTimes.size();
    }

    /** The time between looks (ms), or -1 when no look was recorded. */
    public long intervalMillis() {
        return intervalMillis;
    }

    /** The most platform threads one look saw. */
    public long platformThreads() {
        return platformThreads;
    }

    /**
     * How long each look took on its own thread, ms (in recordings without {@link #walkMillis}, a thread dump with
     * every thread stopped).
     */
    public Samples lookMillis() {
        return lookMillis;
    }

    /**
     * Each look's longest stack walk, ms: the longest the look stopped any one thread; empty for looks taken as thread
     * dumps.
     */
    public Samples walkMillis() {
        return walkMillis;
    }

    /** The seconds from the first look to the last (0 with fewer than two). */
    public double lookSpanSeconds() {
        return lookTimes.isEmpty() ? 0 : (Collections.max(lookTimes) - Collections.min(lookTimes)) / 1e9;
    }

    public Map<Site, Found> sites() {
        return sites;
    }

    /**
     * The JDK's monitor enter and wait events by application frame (what a recording without the agent's looks still
     * tells).
     */
    public Map<JdkSite, JdkFound> jdkSites() {
        return jdkSites;
    }

    /** The JDK's monitor events whose stack holds no application frame: left out of {@link #jdkSites}. */
    public JdkFound jdkOwn() {
        return jdkOwn;
    }

    /** A mean of the threads found at the looks and the half-width of its 95% interval. */
    public record Mean(double mean, double half) implements Serializable {
        public double low() {
            return Math.max(0, mean - half);
        }

        public double high() {
            return mean + half;
        }
    }

    /**
     * The threads found at a look at the sites {@code which} takes, each look weighted by the time since the one before
     * it: after a costly look the next waits longer, and the costly ones come when many threads are busy, so an
     * unweighted mean would lean to the quiet times. The gap before a look was set by the look before it, not by what
     * this one finds (a look's own cost grows with what it finds: weighting by the gap after it would lean to the busy
     * moments); its interval from the weighted variance over the looks' effective number (Kish's), and never narrower
     * than 3 / n threads of n effective looks: looks that all found the same cannot tell a share of the time under 3 /
     * n that held one thread more or fewer (the rule of three: none of n looks finding it leaves that share's 95% bound
     * at 3 / n). A thread found in a CPU burst counts at the look before it too, where it already ran (the look could
     * not yet tell a burst).
     */
    public Mean mean(Predicate<Site> which) {
        return mean(which, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** {@link #mean} over the looks taken from {@code fromNanos} (epoch) up to {@code toNanos}. */
    public Mean mean(Predicate<Site> which, long fromNanos, long toNanos) {
        long[] all = sortedLooks();
        double[] allFound = found(all, which);
        double[] allWeights = weights(all);
        int lo = lowerBound(all, fromNanos);
        int hi = lowerBound(all, toNanos);
        int n = hi - lo;
        if (n <= 0) {
            return new Mean(0, Double.NaN);
        }
        double[] found = Arrays.copyOfRange(allFound, lo, hi);
        double[] w = Arrays.copyOfRange(allWeights, lo, hi);
        double sw = 0;
        double sw2 = 0;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sw += w[i];
            sw2 += w[i] * w[i];
            sum += w[i] * found[i];
        }
        if (sw <= 0) {
            return new Mean(0, Double.NaN);
        }
        double mean = sum / sw;
        double ss = 0;
        for (int i = 0; i < n; i++) {
            ss += w[i] * (found[i] - mean) * (found[i] - mean);
        }
        double effective = sw * sw / sw2;
        return new Mean(
                mean,
                effective < 2 ? Double.NaN : Math.max(1.96 * Math.sqrt(ss / sw / (effective - 1)), 3 / effective));
    }

    /**
     * The thread-time (thread-seconds) found at the sites {@code which} takes in each of {@code count} windows of
     * {@code stepNanos} from {@code fromNanos} (epoch): each look's threads times the time it stands for
     * ({@link #mean}'s weights); and the looks in each window.
     */
    public Windows windows(Predicate<Site> which, long fromNanos, long stepNanos, int count) {
        long[][] windows = new long[count][];
        for (int k = 0; k < count; k++) {
            windows[k] = new long[] {fromNanos + k * stepNanos, fromNanos + (k + 1) * stepNanos};
        }
        return windows(which, windows);
    }

    /**
     * {@link #windows(java.util.function.Predicate, long, long, int)} over given windows ({@code windows[k]}: from and
     * to, epoch ns).
     */
    public Windows windows(Predicate<Site> which, long[][] windows) {
        long[] times = sortedLooks();
        double[] found = found(times, which);
        double[] w = weights(times);
        double[] held = new double[windows.length];
        int[] looks = new int[windows.length];
        for (int k = 0; k < windows.length; k++) {
            for (int i = lowerBound(times, windows[k][0]); i < times.length && times[i] < windows[k][1]; i++) {
                held[k] += found[i] * w[i] / 1e9;
                looks[k]++;
            }
        }
        return new Windows(held, looks);
    }

    /** Per window: the thread-seconds found, and the looks taken. */
    public record Windows(double[] heldSeconds, int[] looks) {}

    /** The looks taken from {@code fromNanos} (epoch) up to {@code toNanos}. */
    public long samples(long fromNanos, long toNanos) {
        long[] t = sortedLooks();
        return lowerBound(t, toNanos) - lowerBound(t, fromNanos);
    }

    /** The first and the last look (epoch ns); null without looks. */
    public long[] lookRange() {
        long[] t = sortedLooks();
        return t.length == 0 ? null : new long[] {t[0], t[t.length - 1]};
    }

    private long[] sortedLooks() {
        return lookTimes.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static int lowerBound(long[] sorted, long key) {
        int i = Arrays.binarySearch(sorted, key);
        if (i < 0) {
            return -i - 1;
        }
        while (i > 0 && sorted[i - 1] == key) {
            i--;
        }
        return i;
    }

    /** The threads found at each look (of {@code times}, sorted) at the sites {@code which} takes. */
    private double[] found(long[] times, Predicate<Site> which) {
        double[] found = new double[times.length];
        if (times.length == 0) {
            return found;
        }
        for (Hit h : hits) {
            if (which.test(h.site())) {
                int i = Arrays.binarySearch(times, h.nanos());
                i = i >= 0 ? i : Math.max(0, -i - 2); // the look it came from: the last one begun by then
                found[i] += h.threads();
                if (h.site().what().equals(HeldMonitorEvent.BURST) && i > 0) {
                    // a burst found at a look was running at the look before: that look found it running, not yet a
                    // burst
                    found[i - 1] += h.threads();
                }
            }
        }
        return found;
    }

    /** Each look's weight, ns: the gap since the one before; the first stands for a usual step. */
    private static double[] weights(long[] times) {
        int n = times.length;
        double[] w = new double[n];
        for (int i = 1; i < n; i++) {
            w[i] = times[i] - times[i - 1];
        }
        if (n > 0) {
            w[0] = n == 1 ? 1 : Quantiles.of(Arrays.copyOfRange(w, 1, n), 0.5);
        }
        return w;
    }

    /** {@link #mean} of the sites whose kind is one of {@code kinds}. */
    public Mean mean(Set<String> kinds) {
        return mean(s -> kinds.contains(s.what()));
    }
}
