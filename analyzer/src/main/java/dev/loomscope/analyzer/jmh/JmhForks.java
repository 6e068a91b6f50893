package dev.loomscope.analyzer.jmh;

import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import java.util.List;

/**
 * JMH results compared with the fork as the unit: each fork is a JVM, its measured iterations its runs, so the
 * comparison is the one {@code compare} makes of recordings (ratio of the forks' medians, two-level bootstrap interval,
 * Mann-Whitney on the fork medians, the verdict rule). JMH's own error, which pools every iteration of every fork as if
 * independent, is shown beside it.
 */
final class JmhForks {
    private JmhForks() {}

    /** One result against another: {@code group} over {@code baseline}. */
    record Versus(String label, JmhResult baseline, JmhResult group) {}

    static Table table(
            String name, String title, String baselineName, String groupName, List<Versus> pairs, Verdict.Rule rule) {
        Table t = new Table(
                name,
                title,
                List.of(
                        Table.text("benchmark"),
                        Table.text("mode"),
                        Table.text("unit"),
                        Table.number(baselineName + " score", "", 3),
                        Table.number(baselineName + " jmh error", "", 3),
                        Table.number(groupName + " score", "", 3),
                        Table.number(groupName + " jmh error", "", 3),
                        Table.number("ratio of fork medians", "x", 3),
                        Table.number("ratio ci low", "x", 3),
                        Table.number("ratio ci high", "x", 3),
                        Table.number("p", "", 4),
                        Table.text("forks"),
                        Table.text("verdict")));
        for (Versus v : pairs) {
            Comparison c =
                    v.group().rawData().isEmpty() || v.baseline().rawData().isEmpty()
                            ? null
                            : Comparison.of(v.group().rawData(), v.baseline().rawData());
            t.row(
                    v.label(),
                    v.group().mode(),
                    v.group().unit(),
                    v.baseline().score(),
                    v.baseline().error(),
                    v.group().score(),
                    v.group().error(),
                    c == null ? Double.NaN : c.ratio(),
                    c == null ? Double.NaN : c.ratioCiLow(),
                    c == null ? Double.NaN : c.ratioCiHigh(),
                    c == null ? Double.NaN : c.pValue(),
                    c == null ? null : c.jvmsGroup() + "/" + c.jvmsBaseline(),
                    c == null
                            ? "no raw data"
                            : rule.judge(c, v.group().lowerIsBetter()).words());
        }
        t.note("per fork: each fork is a JVM, its iterations its runs; the ratio is of the forks' medians, its 95%"
                + " interval a two-level bootstrap (forks, then iterations), p a Mann-Whitney test on the fork medians;"
                + " JMH's error (99.9%, every iteration pooled) beside it");
        return t;
    }
}
