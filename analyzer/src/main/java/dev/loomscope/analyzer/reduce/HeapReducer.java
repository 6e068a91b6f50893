package dev.loomscope.analyzer.reduce;

import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;

/** Heap before and after each GC and committed (jdk.GCHeapSummary); allocation (jdk.ObjectAllocationSample weights). */
public final class HeapReducer implements Reducer {
    /** Time (ms since epoch), used bytes, committed bytes: parallel arrays, one entry per summary. */
    public final Samples beforeUsed = new Samples();
    public final Samples afterUsed = new Samples();
    public final Samples afterTimes = new Samples();
    public final Samples beforeTimes = new Samples();
    public final Samples committed = new Samples();
    private double allocatedBytes;
    private long allocationSamples;

    @Override
    public Set<String> eventTypes() {
        return Set.of("jdk.GCHeapSummary", "jdk.ObjectAllocationSample");
    }

    @Override
    public void add(RecordedEvent e) {
        if (e.getEventType().getName().equals("jdk.ObjectAllocationSample")) {
            allocatedBytes += e.getLong("weight");
            allocationSamples++;
            return;
        }
        double used = e.getLong("heapUsed");
        double t = e.getStartTime().toEpochMilli();
        if ("After GC".equals(e.getString("when"))) {
            afterUsed.add(used);
            afterTimes.add(t);
        } else {
            beforeUsed.add(used);
            beforeTimes.add(t);
        }
        Object space = e.getValue("heapSpace");
        if (space instanceof jdk.jfr.consumer.RecordedObject o && o.hasField("committedSize")) {
            committed.add(o.getLong("committedSize"));
        }
    }

    public double allocatedBytes() {
        return allocatedBytes;
    }

    public long allocationSamples() {
        return allocationSamples;
    }
}
