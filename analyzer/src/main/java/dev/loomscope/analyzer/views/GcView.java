package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.render.Table;
import java.util.List;

/** {@code gc}: pauses per collector and cause, per recording, with the share of time spent in pauses. */
public final class GcView {
    private GcView() {}

    public static List<Table> of(List<RecordingFacts> all) {
        Table t = new Table(
                "gc",
                "Garbage collection pauses by collector and cause",
                List.of(
                        Table.text("recording"),
                        Table.text("collector"),
                        Table.text("cause"),
                        Table.number("count", "collections", 0),
                        Table.number("p50", "ms", 2),
                        Table.number("p90", "ms", 2),
                        Table.number("p99", "ms", 2),
                        Table.number("max", "ms", 2),
                        Table.number("total", "ms", 2),
                        Table.number("gc time share", "%", 3)));
        for (RecordingFacts f : all) {
            double spanMs = f.summary.spanSeconds() * 1e3;
            f.gc.byCollectorAndCause().forEach((key, s) -> {
                String[] kc = key.split(" \\| ", 2);
                t.row(
                        f.source.shortName(),
                        kc[0],
                        kc[1],
                        (long) s.count(),
                        s.quantile(0.5),
                        s.quantile(0.9),
                        s.quantile(0.99),
                        s.max(),
                        s.sum(),
                        spanMs > 0 ? 100 * s.sum() / spanMs : null);
            });
            Samples all1 = f.gc.pauses();
            if (all1.count() == 0) {
                t.note(f.source.shortName() + ": no garbage collections recorded");
            }
        }
        return List.of(t);
    }
}
