package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** jdk.GarbageCollection per collector and cause: pause times (sum of pauses per collection). */
public final class GcReducer implements Reducer {
    private final Map<String, Samples> pausesByCollectorAndCause = new TreeMap<>();
    private final Samples pauses = new Samples();
    /** Each collection's pauses (ms) at the time it started: a run's collections. */
    private final Timeline pausesInTime = new Timeline();

    @Override
    public Set<String> eventTypes() {
        return Set.of(JdkEvents.GARBAGE_COLLECTION);
    }

    @Override
    public void add(JfrEvent e) {
        double ms = e.durationField(JdkFields.SUM_OF_PAUSES).toNanos() / 1e6;
        String key = e.string(JdkFields.NAME) + " | " + e.string(JdkFields.CAUSE);
        pausesByCollectorAndCause.computeIfAbsent(key, k -> new Samples()).add(ms);
        pauses.add(ms);
        pausesInTime.add(e.startTime(), ms);
    }

    public void merge(GcReducer o) {
        o.pausesByCollectorAndCause.forEach((k, s) ->
                pausesByCollectorAndCause.computeIfAbsent(k, x -> new Samples()).addAll(s));
        pauses.addAll(o.pauses);
        pausesInTime.addAll(o.pausesInTime);
    }

    /** "collector | cause" -> pauses in ms. */
    public Map<String, Samples> byCollectorAndCause() {
        return pausesByCollectorAndCause;
    }

    public Samples pauses() {
        return pauses;
    }

    public Timeline pausesInTime() {
        return pausesInTime;
    }
}
