package dev.loomscope.analyzer.reduce;

import dev.loomscope.events.EventSchema;
import dev.loomscope.events.SchedulerSampleEvent;
import dev.loomscope.recording.JfrEvent;
import java.util.Set;

/**
 * The virtual-thread scheduler as the agent samples it (loomscope.SchedulerSample, JDK 24+): how often every carrier
 * was busy (mounted virtual threads at the scheduler's parallelism) while virtual threads queued for one.
 */
public final class SchedulerReducer implements Reducer {
    /**
     * SchedulerSample's fields, by their declared names: a name the event does not declare fails as the class loads.
     */
    private static final String QUEUED = EventSchema.fieldName(SchedulerSampleEvent.class, "queuedVirtualThreads");

    private static final String MOUNTED = EventSchema.fieldName(SchedulerSampleEvent.class, "mountedVirtualThreads");
    private static final String PARALLELISM = EventSchema.fieldName(SchedulerSampleEvent.class, "parallelism");
    private long samples;
    private long starved;
    private long maxQueued;
    private final Timeline mounted = new Timeline();

    @Override
    public Set<String> eventTypes() {
        return Set.of(SchedulerSampleEvent.NAME);
    }

    @Override
    public void add(JfrEvent e) {
        if (!e.hasField(QUEUED) || !e.hasField(MOUNTED) || !e.hasField(PARALLELISM)) {
            return; // another agent's event of that name: nothing to judge by
        }
        samples++;
        mounted.add(e.startTime(), e.longValue(MOUNTED));
        long queued = e.longValue(QUEUED);
        maxQueued = Math.max(maxQueued, queued);
        if (queued > 0 && e.longValue(MOUNTED) >= e.longValue(PARALLELISM)) {
            starved++;
        }
    }

    public long samples() {
        return samples;
    }

    /** Samples with every carrier busy and virtual threads queued. */
    public long starved() {
        return starved;
    }

    /** Virtual threads mounted (busy carriers) at each sample. */
    public Timeline mountedInTime() {
        return mounted;
    }

    public long maxQueued() {
        return maxQueued;
    }
}
