package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import java.util.ArrayList;
import java.util.List;

/** {@code heap}: heap used before and after GC and committed, as p50/max and over time; allocation rate. */
public final class HeapView {
    private HeapView() {}

    public static List<Table> of(List<RecordingFacts> all) {
        Table t = new Table("heap", "Heap per recording",
                List.of(Table.text("recording"), Table.number("before gc p50", "MiB", 1), Table.number("before gc max", "MiB", 1),
                        Table.number("after gc p50", "MiB", 1), Table.number("after gc max", "MiB", 1), Table.number("committed max", "MiB", 1),
                        Table.number("allocation rate", "MiB/s", 1)));
        List<Table> out = new ArrayList<>(List.of(t));
        for (RecordingFacts f : all) {
            var h = f.heap;
            t.row(f.source.shortName(), h.beforeUsed.count() == 0 ? null : h.beforeUsed.quantile(0.5) / (1 << 20), max(h.beforeUsed),
                    Metric.named("heap used median").valueOfRecording(f), Metric.named("heap used max").valueOfRecording(f), max(h.committed),
                    Metric.named("allocation rate").valueOfRecording(f));
            if (h.afterUsed.count() == 0) {
                t.note(f.source.shortName() + ": no jdk.GCHeapSummary events (no GC ran, or the event was off)");
            }
            Table series = new Table("heap-over-time", "Heap after GC over time, " + f.source.shortName(),
                    List.of(Table.number("time", "s", 3), Table.number("used after gc", "MiB", 1)));
            double[] times = h.afterTimes.toArray();
            double[] used = h.afterUsed.toArray();
            double t0 = f.summary.first() == null ? 0 : f.summary.first().toEpochMilli();
            for (int i = 0; i < times.length; i++) {
                series.row((times[i] - t0) / 1e3, used[i] / (1 << 20));
            }
            out.add(series);
        }
        return out;
    }

    private static Double max(dev.loomscope.analyzer.reduce.Samples s) {
        return s.count() == 0 ? null : s.max() / (1 << 20);
    }
}
