package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.ContextSwitchReducer;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ctxsw}: the process's context switches (loomscope.ContextSwitches) beside the machine's
 * (jdk.ThreadContextSwitchRate); they differ by everything else the machine runs.
 */
public final class ContextSwitchView {
    private ContextSwitchView() {}

    public static List<Table> of(List<RecordingFacts> all) {
        Table t = new Table(
                "ctxsw",
                "Context switches per second",
                List.of(
                        Table.text("recording"),
                        Table.number("process voluntary", "/s", 1),
                        Table.number("process involuntary", "/s", 1),
                        Table.number("process total", "/s", 1),
                        Table.number("machine-wide", "/s", 1),
                        Table.number("process share of machine", "%", 1),
                        Table.text("source")));
        List<Table> out = new ArrayList<>(List.of(t));
        for (RecordingFacts f : all) {
            ContextSwitchReducer c = f.ctxsw;
            Double vol = Metric.VOLUNTARY_CONTEXT_SWITCHES_PER_SECOND.valueOfRecording(f);
            Double inv = Metric.INVOLUNTARY_CONTEXT_SWITCHES_PER_SECOND.valueOfRecording(f);
            Double total = Metric.CONTEXT_SWITCHES_PER_SECOND.valueOfRecording(f);
            Double machine = Metric.MACHINE_CONTEXT_SWITCHES_PER_SECOND.valueOfRecording(f);
            t.row(
                    f.source.shortName(),
                    vol,
                    inv,
                    total,
                    machine,
                    total == null || machine == null || machine == 0 ? null : 100 * total / machine,
                    c.processRecorded() ? c.source() : "not recorded");
            if (!c.processRecorded()) {
                t.note(f.source.shortName()
                        + ": process context switches not applicable (no loomscope.ContextSwitches: record with the"
                        + " loomscope agent)");
            }
            Table series = new Table(
                    "ctxsw-over-time",
                    "Context switches over time, " + f.source.shortName(),
                    List.of(
                            Table.number("time", "s", 1),
                            Table.number("process voluntary", "per period", 0),
                            Table.number("process involuntary", "per period", 0)));
            double t0 = f.summary.first() == null ? 0 : f.summary.first().toEpochMilli();
            double[] times = c.times.toArray();
            double[] v = c.voluntary.toArray();
            double[] i = c.involuntary.toArray();
            for (int k = 0; k < times.length; k++) {
                series.row((times[k] - t0) / 1e3, (long) v[k], (long) i[k]);
            }
            out.add(series.orNone("the process's counts come from loomscope.ContextSwitches (the agent's)"));
        }
        t.note("machine-wide counts every process on the machine (jdk.ThreadContextSwitchRate); the process figures"
                + " count this JVM alone");
        return out;
    }
}
