package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.render.Table;
import dev.loomscope.flamegraphs.render.SampleGraph;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code flame --top N}: a profile's frames as a table, for a reader (or a coding agent) who wants the answer without
 * the picture. One profile: the frames with the most samples of their own (self), each with its share of all samples
 * and of the stacks it is on (total). Two (--diff): the frames whose share of the stacks changed most from BASE to NEW,
 * each side as a share of its own samples, so profiles of different lengths compare.
 */
public final class FrameShareView {
    private FrameShareView() {}

    public static Table top(SampleGraph graph, String source, int n) {
        Table t = new Table(
                "frames",
                "Frames with the most samples of their own, " + source,
                List.of(
                        Table.text("frame"),
                        Table.number("self", "%", 1),
                        Table.number("total", "%", 1),
                        Table.number("self samples", "", 0),
                        Table.number("total samples", "", 0)));
        double all = graph.total();
        graph.frames().values().stream()
                .sorted(Comparator.comparingLong(SampleGraph.Frame::self)
                        .reversed()
                        .thenComparing(SampleGraph.Frame::name))
                .limit(n)
                .forEach(f -> t.row(f.name(), 100 * f.self() / all, 100 * f.total() / all, f.self(), f.total()));
        t.note(graph.total()
                + " samples; self: samples in which the frame was the innermost; total: samples whose stack held it");
        return t;
    }

    public static Table diff(SampleGraph base, SampleGraph changed, String baseName, String changedName, int n) {
        Table t = new Table(
                "frames-changed",
                "Frames whose share changed most, " + baseName + " -> " + changedName,
                List.of(
                        Table.text("frame"),
                        Table.number("total before", "%", 1),
                        Table.number("total after", "%", 1),
                        Table.number("total change", "points", 1),
                        Table.number("self before", "%", 1),
                        Table.number("self after", "%", 1)));
        Map<String, SampleGraph.Frame> a = base.frames();
        Map<String, SampleGraph.Frame> b = changed.frames();
        Set<String> names = new HashSet<>(a.keySet());
        names.addAll(b.keySet());
        record Row(String name, double totalBefore, double totalAfter, double selfBefore, double selfAfter) {
            double change() {
                return totalAfter - totalBefore;
            }
        }
        names.stream()
                .map(name -> new Row(
                        name,
                        share(a.get(name), base, false),
                        share(b.get(name), changed, false),
                        share(a.get(name), base, true),
                        share(b.get(name), changed, true)))
                .sorted(Comparator.comparingDouble((Row r) -> -Math.abs(r.change()))
                        .thenComparing(Row::name))
                .limit(n)
                .forEach(r ->
                        t.row(r.name(), r.totalBefore(), r.totalAfter(), r.change(), r.selfBefore(), r.selfAfter()));
        t.note(base.total() + " samples before, " + changed.total()
                + " after; each side's shares of its own samples; total: samples whose stack held the frame, self:"
                + " those in which it was the innermost; change: after minus before, in percentage points");
        return t;
    }

    private static double share(SampleGraph.Frame f, SampleGraph of, boolean self) {
        return f == null || of.total() == 0 ? 0 : 100.0 * (self ? f.self() : f.total()) / of.total();
    }
}
