package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.render.Table;
import java.util.ArrayList;
import java.util.List;

/** {@code heap}: heap used before and after GC and committed, as p50/max and over time; allocation rate. */
public final class HeapView {
    private HeapView() {}

    public static List<Table> of(List<RecordingFacts> all) {
        Table t = new Table(
                "heap",
                "Heap per recording",
                List.of(
                        Table.text("recording"),
                        Table.number("collections", "", 0),
                        Table.number("before gc p50", "MiB", 1),
                        Table.number("before gc max", "MiB", 1),
                        Table.number("after gc p50", "MiB", 1),
                        Table.number("after gc max", "MiB", 1),
                        Table.number("committed max", "MiB", 1),
                        Table.number("allocation rate", "MiB/s", 1),
                        Table.number("heap fill rate", "MiB/s", 1),
                        Table.number("sampled allocation rate", "MiB/s", 1)));
        List<Table> out = new ArrayList<>(List.of(t));
        for (RecordingFacts f : all) {
            var h = f.heap;
            double t0 = f.summary.first() == null ? 0 : f.summary.first().toEpochMilli();
            t.row(
                    f.source.shortName(),
                    (long) h.afterUsed().count(),
                    h.beforeUsed().count() == 0 ? null : h.beforeUsed().quantile(0.5) / (1 << 20),
                    max(h.beforeUsed()),
                    Metric.HEAP_AFTER_GC_P50.valueOfRecording(f),
                    Metric.HEAP_AFTER_GC_MAX.valueOfRecording(f),
                    max(h.committed()),
                    Metric.ALLOCATION_RATE.valueOfRecording(f),
                    Metric.HEAP_FILL_RATE.valueOfRecording(f),
                    h.allocationSamples() == 0 ? null : f.perSecond(h.sampledBytes()) / (1 << 20));
            if (h.afterUsed().count() == 0) {
                t.note(f.source.shortName()
                        + ": no collection with heap summaries (no GC ran, or jdk.GCHeapSummary was off): no after-GC"
                        + " level"
                        + (h.sampledUsed().count() > 0
                                ? "; the heap used sampled without a collection is listed over time apart"
                                : ""));
            } else if (h.between().isEmpty()) {
                t.note(f.source.shortName()
                        + ": one collection: the heap fill rate needs two (what the heap took from one to the next)");
            }
            Table series = new Table(
                    "heap-over-time",
                    "Heap after each collection, " + f.source.shortName(),
                    List.of(Table.number("time", "s", 3), Table.number("used after gc", "MiB", 1)));
            add(series, h.afterTimes(), h.afterUsed(), t0);
            out.add(series.orNone("no collection with heap summaries"));
            if (h.sampledUsed().count() > 0) {
                Table sampled = new Table(
                        "heap-sampled",
                        "Heap used, sampled without a collection (async-profiler's, once a second), "
                                + f.source.shortName(),
                        List.of(Table.number("time", "s", 3), Table.number("used", "MiB", 1)));
                add(sampled, h.sampledTimes(), h.sampledUsed(), t0);
                out.add(sampled);
            }
        }
        t.note("allocation rate: what the program allocated, every thread's, ended threads included (the agent's count,"
                + " n/a without it); heap fill rate: what the heap took between collections (heap used before each one"
                + " minus after the one before, over that time): allocation and the unused rest of each ended thread's"
                + " TLAB, which a thread per request wastes; sampled: jdk.ObjectAllocationSample's weights, which miss"
                + " threads that end before the sampler sees them");
        return out;
    }

    private static void add(Table table, Samples timesMillis, Samples bytes, double t0) {
        double[] times = timesMillis.toArray();
        double[] used = bytes.toArray();
        for (int i = 0; i < times.length; i++) {
            table.row((times[i] - t0) / 1e3, used[i] / (1 << 20));
        }
    }

    private static Double max(Samples s) {
        return s.count() == 0 ? null : s.max() / (1 << 20);
    }
}
