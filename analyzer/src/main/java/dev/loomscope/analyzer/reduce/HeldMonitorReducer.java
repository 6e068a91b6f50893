package dev.loomscope.analyzer.reduce;

import dev.loomscope.events.EventSchema;
import dev.loomscope.events.HeldMonitorEvent;
import dev.loomscope.events.HeldMonitorSampleEvent;
import dev.loomscope.recording.JfrEvent;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The agent's looks at the platform threads for where a virtual thread would hold its carrier
 * (loomscope.HeldMonitorSample, loomscope.HeldMonitor): how many looks, and per site (what the
 * threads did, where, holding what, in which pool) how many threads all the looks found, and per
 * look how many were found of each kind: the mean threads so is the thread-time a second spent so.
 */
public final class HeldMonitorReducer implements Reducer {
    private static final String SAMPLE = EventSchema.name(HeldMonitorSampleEvent.class);
    private static final String HELD = EventSchema.name(HeldMonitorEvent.class);
    private static final String INTERVAL = EventSchema.field(HeldMonitorSampleEvent.class, "interval").name();
    private static final String PLATFORM_THREADS = EventSchema.field(HeldMonitorSampleEvent.class, "platformThreads").name();
    private static final String INDEX = EventSchema.field(HeldMonitorEvent.class, "sample").name();
    private static final String WHAT = EventSchema.field(HeldMonitorEvent.class, "what").name();
    private static final String THREADS = EventSchema.field(HeldMonitorEvent.class, "threads").name();
    private static final String SITE = EventSchema.field(HeldMonitorEvent.class, "site").name();
    private static final String HELD_AT = EventSchema.field(HeldMonitorEvent.class, "heldAt").name();
    private static final String MONITOR = EventSchema.field(HeldMonitorEvent.class, "monitorClass").name();
    private static final String BLOCKED_IN = EventSchema.field(HeldMonitorEvent.class, "blockedIn").name();
    private static final String GROUP = EventSchema.field(HeldMonitorEvent.class, "threadGroup").name();
    private static final String STACK = EventSchema.field(HeldMonitorEvent.class, "stack").name();

    /** Where threads were found: what they did, the application frame, the frame that took the monitor, its class, the top frame, their pool. */
    public record Site(String what, String site, String heldAt, String monitorClass, String blockedIn, String group) {}

    /** A site's threads over all looks and one of its stacks. */
    public static final class Found {
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

    private long samples;
    private long intervalMillis = -1;
    private long platformThreads;
    private final Samples lookMillis = new Samples();
    private java.time.Instant firstLook;
    private java.time.Instant lastLook;
    private final Map<Site, Found> sites = new LinkedHashMap<>();
    /** What a look found, by kind ({@link HeldMonitorEvent#HOLDING} and the others): the look's index to its threads. */
    private final Map<String, Map<Long, Long>> byLook = new HashMap<>();

    @Override
    public Set<String> eventTypes() {
        return Set.of(SAMPLE, HELD);
    }

    @Override
    public void add(JfrEvent e) {
        if (e.type().equals(SAMPLE)) {
            samples++;
            intervalMillis = e.hasField(INTERVAL) ? e.longValue(INTERVAL) : intervalMillis;
            platformThreads = Math.max(platformThreads, e.hasField(PLATFORM_THREADS) ? e.longValue(PLATFORM_THREADS) : 0);
            lookMillis.add(e.duration().toNanos() / 1e6);
            firstLook = firstLook == null || e.startTime().isBefore(firstLook) ? e.startTime() : firstLook;
            lastLook = lastLook == null || e.startTime().isAfter(lastLook) ? e.startTime() : lastLook;
            return;
        }
        if (!e.hasField(WHAT) || !e.hasField(THREADS)) {
            return; // another writer's event of that name
        }
        Site s = new Site(e.string(WHAT), text(e, SITE), text(e, HELD_AT), text(e, MONITOR), text(e, BLOCKED_IN), text(e, GROUP));
        Found f = sites.computeIfAbsent(s, k -> new Found());
        long n = e.longValue(THREADS);
        f.threads += n;
        if (f.stack == null) {
            f.stack = text(e, STACK);
        }
        long look = e.hasField(INDEX) ? e.longValue(INDEX) : -1;
        byLook.computeIfAbsent(s.what(), k -> new HashMap<>()).merge(look, n, Long::sum);
    }

    private static String text(JfrEvent e, String field) {
        String v = e.hasField(field) ? e.string(field) : null;
        return v == null ? "" : v;
    }

    /** The looks taken. */
    public long samples() {
        return samples;
    }

    /** The time between looks (ms), or -1 when no look was recorded. */
    public long intervalMillis() {
        return intervalMillis;
    }

    /** The most platform threads one look saw. */
    public long platformThreads() {
        return platformThreads;
    }

    /** How long each look took, ms: what the looks cost the JVM (a thread dump at a safepoint each). */
    public Samples lookMillis() {
        return lookMillis;
    }

    /** The seconds from the first look to the last (0 with fewer than two). */
    public double lookSpanSeconds() {
        return firstLook == null ? 0 : java.time.Duration.between(firstLook, lastLook).toNanos() / 1e9;
    }

    public Map<Site, Found> sites() {
        return sites;
    }

    /**
     * Threads found in any of {@code kinds} per look, a value a look (those that found none are 0):
     * the replicates of a mean and its interval.
     */
    public double[] perLook(Set<String> kinds) {
        Map<Long, Long> total = new HashMap<>();
        kinds.forEach(k -> byLook.getOrDefault(k, Map.of()).forEach((look, n) -> total.merge(look, n, Long::sum)));
        double[] v = new double[(int) Math.max(samples, total.size())];
        int i = 0;
        for (long n : total.values()) {
            v[i++] = n;
        }
        return v;
    }
}
