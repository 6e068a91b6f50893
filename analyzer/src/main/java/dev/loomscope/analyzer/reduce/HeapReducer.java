package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.JfrEvent;
import java.util.Set;

/** Heap before and after each GC and committed (jdk.GCHeapSummary); allocation (jdk.ObjectAllocationSample weights). */
public final class HeapReducer implements Reducer {
    /** Time (ms since epoch), used bytes, committed bytes: parallel arrays, one entry per summary. */
    public final Samples beforeUsed = new Samples();
    public final Samples afterUsed = new Samples();
    public final Samples afterTimes = new Samples();
    public final Samples beforeTimes = new Samples();
    public final Samples committed = new Samples();
    /** Heap used after each GC, at its time: a run's. */
    public final Timeline afterUsedInTime = new Timeline();
    /** Allocation samples' weights (bytes), at their times. */
    public final Timeline allocatedInTime = new Timeline();
    private double allocatedBytes;
    private long allocationSamples;

    @Override
    public Set<String> eventTypes() {
        return Set.of("jdk.GCHeapSummary", "jdk.ObjectAllocationSample");
    }

    @Override
    public void add(JfrEvent e) {
        if (e.type().equals("jdk.ObjectAllocationSample")) {
            allocatedBytes += e.longValue("weight");
            allocatedInTime.add(e.startTime(), e.longValue("weight"));
            allocationSamples++;
            return;
        }
        double used = e.longValue("heapUsed");
        double t = e.startTime().toEpochMilli();
        if ("After GC".equals(e.string("when"))) {
            afterUsed.add(used);
            afterTimes.add(t);
            afterUsedInTime.add(e.startTime(), used);
        } else {
            beforeUsed.add(used);
            beforeTimes.add(t);
        }
        Long committedSize = e.nestedLong("heapSpace", "committedSize");
        if (committedSize != null) {
            committed.add(committedSize);
        }
    }

    public double allocatedBytes() {
        return allocatedBytes;
    }

    public long allocationSamples() {
        return allocationSamples;
    }
}
