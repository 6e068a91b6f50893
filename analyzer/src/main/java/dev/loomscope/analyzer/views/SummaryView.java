package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import java.util.List;
import java.util.Map;

/** {@code summary}: what a recording is and its key figures, one table per recording. */
public final class SummaryView {
    /** Units of figures that count things: shown as whole numbers. */
    private static final java.util.Set<String> COUNTS = java.util.Set.of("events", "collections", "threads");

    private SummaryView() {}

    public static List<Table> of(List<RecordingFacts> all) {
        List<Table> out = new java.util.ArrayList<>();
        for (RecordingFacts f : all) {
            out.add(identity(f));
            out.add(figures(f));
            out.add(counts(f));
        }
        return out;
    }

    static Table identity(RecordingFacts f) {
        var s = f.summary;
        Table t = new Table("recording", "Recording " + f.source.name(), List.of(Table.text("property"), Table.text("value")));
        t.row("span", String.format(java.util.Locale.ROOT, "%.2f s", s.spanSeconds()));
        t.row("jvm", s.jvm == null ? "not recorded" : s.jvm);
        t.row("gc", s.youngCollector == null ? "not recorded" : s.youngCollector + " / " + s.oldCollector);
        t.row("label", s.label == null ? "unknown (no loomscope.RunInfo)" : s.label);
        t.row("thread kind", s.threadKind == null ? "unknown" : s.threadKind);
        t.row("profiling mode", s.profilingMode == null ? "unknown" : s.profilingMode);
        f.warnings.forEach(w -> t.note("warning: " + w));
        return t;
    }

    /** The recording's key figures: each a metric's value for the whole recording ({@link Metric#SUMMARY}). */
    static Table figures(RecordingFacts f) {
        Table t = new Table("summary", "Key figures of " + f.source.shortName(),
                List.of(Table.text("figure"), Table.number("value", "", 2), Table.text("unit")));
        for (Metric m : Metric.SUMMARY) {
            Double v = m.valueOfRecording(f);
            t.row(m.name(), v != null && COUNTS.contains(m.unit()) ? (Object) Math.round(v) : v, m.unit());
        }
        var c = f.ctxsw;
        var s = f.summary;
        if (!c.processRecorded()) {
            t.note("process context switches: not applicable (no loomscope.ContextSwitches events: record with the loomscope agent)");
        }
        if (s.count("jdk.VirtualThreadStart") == 0) {
            t.note("virtual threads started: not recorded (jdk.VirtualThreadStart is off by default; it is costly)");
        }
        return t;
    }

    static Table counts(RecordingFacts f) {
        Table t = new Table("event-counts", "Events in " + f.source.name(), List.of(Table.text("event type"), Table.number("count", "events", 0)));
        for (Map.Entry<String, Long> e : f.summary.counts().entrySet()) {
            t.row(e.getKey(), e.getValue());
        }
        return t;
    }
}
