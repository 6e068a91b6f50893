package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.render.Table;
import java.util.List;
import java.util.Map;

/** {@code summary}: what a recording is and its key figures, one table per recording. */
public final class SummaryView {
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

    static Table figures(RecordingFacts f) {
        var s = f.summary;
        Table t = new Table("summary", "Key figures of " + f.source.shortName(),
                List.of(Table.text("figure"), Table.number("value", "", 2), Table.text("unit")));
        t.row("span", s.spanSeconds(), "s");
        Samples pins = f.pinning.all();
        t.row("pinned count", (long) pins.count(), "events");
        t.row("pinned total", pins.count() == 0 ? 0.0 : pins.sum(), "ms");
        t.row("pinned max", pins.count() == 0 ? null : pins.max(), "ms");
        Samples gc = f.gc.pauses();
        t.row("gc pauses", (long) gc.count(), "collections");
        t.row("gc pause total", gc.count() == 0 ? 0.0 : gc.sum(), "ms");
        t.row("gc pause p50", gc.count() == 0 ? null : gc.quantile(0.5), "ms");
        t.row("gc pause p99", gc.count() == 0 ? null : gc.quantile(0.99), "ms");
        t.row("gc pause max", gc.count() == 0 ? null : gc.max(), "ms");
        t.row("heap after gc p50", mib(f.heap.afterUsed, 0.5), "MiB");
        t.row("heap after gc max", f.heap.afterUsed.count() == 0 ? null : f.heap.afterUsed.max() / (1 << 20), "MiB");
        t.row("allocation rate", f.heap.allocationSamples() == 0 ? null : f.perSecond(f.heap.allocatedBytes()) / (1 << 20), "MiB/s");
        var c = f.ctxsw;
        t.row("process ctx switches voluntary", c.processRecorded() ? f.perSecond(c.voluntaryTotal()) : null, "/s");
        t.row("process ctx switches involuntary", c.processRecorded() ? f.perSecond(c.involuntaryTotal()) : null, "/s");
        t.row("machine ctx switches (machine-wide)", c.machineRate.count() == 0 ? null : mean(c.machineRate), "/s");
        t.row("peak live threads", s.peakThreads < 0 ? null : s.peakThreads, "threads");
        t.row("platform threads started", s.platformThreadsStarted(f.ctxsw), "threads");
        Double startRate = f.ctxsw.peakPlatformThreadStartRate(s.first());
        t.row("platform thread starts, busiest second", startRate, "/s");
        t.row("virtual threads started", s.count("jdk.VirtualThreadStart") == 0 ? null : s.virtualThreadsStarted, "threads");
        t.row("jvm cpu load mean", s.jvmCpu.count() == 0 ? null : 100 * mean(s.jvmCpu), "%");
        t.row("machine cpu load mean", s.machineCpu.count() == 0 ? null : 100 * mean(s.machineCpu), "%");
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

    static Double mib(Samples s, double q) {
        return s.count() == 0 ? null : s.quantile(q) / (1 << 20);
    }

    static double mean(Samples s) {
        return s.count() == 0 ? Double.NaN : s.sum() / s.count();
    }
}
