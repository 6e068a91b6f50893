package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.stats.Boxplot;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Spread;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.load.stats.Regression;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/** The comparison as tables: verdicts, boxplot statistics, regression statistics. */
public final class CompareView {
    private CompareView() {}

    /** The metrics whose verdicts head a report and a study's terminal output (the rest sit with their charts). */
    public static final List<Metric> HEADLINE = List.of(
            Metric.RUN_TIME,
            Metric.THROUGHPUT,
            Metric.LATENCY_P99,
            Metric.ERROR_RATE,
            Metric.CONTEXT_SWITCHES_PER_UNIT,
            Metric.PINNED_TIME,
            Metric.PINS_PER_UNIT,
            Metric.GC_PAUSE_TOTAL,
            Metric.HEAP_AFTER_GC_MAX);

    /**
     * The metric whose spread of runs heads a report and a study's output beside the headline verdicts (the thesis's
     * boxes).
     */
    public static final Metric HEADLINE_SPREAD = Metric.RUN_TIME;

    /** Verdicts of the headline metrics only, and the spread of the run time. */
    public static List<String> headlineVerdicts(List<MetricResult> results) {
        return lines(
                results.stream().filter(r -> HEADLINE.contains(r.metric())).toList(),
                r -> r.metric().equals(HEADLINE_SPREAD),
                Words.WORKLOAD);
    }

    /** Every metric's verdict lines, each followed by the spread of its runs where it has runs. */
    public static List<String> verdicts(List<MetricResult> results) {
        return verdicts(results, Words.WORKLOAD);
    }

    /** As {@link #verdicts(List)}, in {@code words}. */
    public static List<String> verdicts(List<MetricResult> results, Words words) {
        return lines(results, r -> true, words);
    }

    /** Every metric's verdict line, without the spread of its runs. */
    public static List<String> verdictsOnly(List<MetricResult> results) {
        return verdictsOnly(results, Words.WORKLOAD);
    }

    /** As {@link #verdictsOnly(List)}, in {@code words} (a service's: per request, windows). */
    public static List<String> verdictsOnly(List<MetricResult> results, Words words) {
        return lines(results, r -> false, words);
    }

    private static List<String> lines(List<MetricResult> results, Predicate<MetricResult> withSpread, Words words) {
        List<String> out = new ArrayList<>();
        for (MetricResult r : results) {
            for (String g : r.comparisons().keySet()) {
                double ratio = r.comparisons().get(g).ratio();
                // zero in both: nothing to say; zero in the baseline alone: said without a ratio
                if (!Double.isNaN(ratio)) {
                    out.add(Comparer.verdict(r, g, words));
                }
                String spread = withSpread.test(r) ? Comparer.spreadVerdict(r, g, words) : null;
                if (spread != null) {
                    out.add(spread);
                }
            }
        }
        return out;
    }

    /** The spread of each group's runs against the baseline's, per metric with runs. */
    public static Table spreads(List<MetricResult> results) {
        Table t = new Table(
                "spread",
                "The spread of each group's runs against the baseline's (interquartile ranges, every JVM's runs"
                        + " pooled)",
                List.of(
                        Table.text("metric"),
                        Table.text("unit"),
                        Table.text("group"),
                        Table.text("baseline"),
                        Table.text("verdict"),
                        Table.number("iqr", "", 4),
                        Table.number("iqr baseline", "", 4),
                        Table.number("ratio", "", 3),
                        Table.number("ratio ci low", "", 3),
                        Table.number("ratio ci high", "", 3),
                        Table.number("relative ratio", "", 3),
                        Table.number("jvms", "", 0),
                        Table.number("jvms baseline", "", 0),
                        Table.number("n", "", 0),
                        Table.number("n baseline", "", 0)));
        for (MetricResult r : results) {
            r.spreads()
                    .forEach((g, s) -> t.row(
                            r.metric().name(),
                            r.metric().unit(),
                            g,
                            r.baseline(),
                            s.verdict(),
                            s.iqrGroup(),
                            s.iqrBaseline(),
                            s.ratio(),
                            s.ratioCiLow(),
                            s.ratioCiHigh(),
                            s.relativeRatio(),
                            (long) s.jvmsGroup(),
                            (long) s.jvmsBaseline(),
                            (long) s.nGroup(),
                            (long) s.nBaseline()));
        }
        t.note("ratio: the group's IQR over the baseline's; its CI: two-level percentile bootstrap (JVMs, then runs"
                + " within each), "
                + Comparison.BOOTSTRAP_RESAMPLES + " resamples, seed " + Comparison.SEED
                + "; relative ratio: the same of IQR/median; verdict: less or"
                + " more spread when the interval excludes 1, too few runs below " + Spread.MIN_VALUES
                + " a group");
        return t.orNone(
                "no metric has runs (a workload's, or study --app's windows) in another group and in the baseline,"
                        + " spread there");
    }

    public static Table verdictTable(List<MetricResult> results, Map<String, List<RecordingFacts>> groups) {
        Table t = new Table("verdicts", "Verdicts", List.of(Table.text("verdict")));
        verdicts(results).forEach(t::row);
        if (t.rows().isEmpty()) {
            t.note(nothingToCompare(groups.keySet()));
        }
        return t;
    }

    /** What a table of the comparison says when no metric was compared (the verdicts' table says why). */
    private static final String NOT_COMPARED = "no metric was compared";

    /** Why there is no verdict among {@code groups}. */
    public static String nothingToCompare(Collection<String> groups) {
        return groups.size() < 2
                ? "nothing to compare: one group only (" + String.join("", groups)
                        + "; --by threadKind, label or jvm, or --group NAME=GLOB, makes the groups)"
                : "nothing to compare: no metric has values in two groups";
    }

    public static Table boxplots(List<MetricResult> results) {
        Table t = new Table(
                "boxplot",
                "Boxplot statistics per group (quartiles R type 7, whiskers at 1.5 IQR)",
                List.of(
                        Table.text("metric"),
                        Table.text("unit"),
                        Table.text("group"),
                        Table.number("n", "", 0),
                        Table.number("min", "", 3),
                        Table.number("lower whisker", "", 3),
                        Table.number("q1", "", 3),
                        Table.number("median", "", 3),
                        Table.number("q3", "", 3),
                        Table.number("upper whisker", "", 3),
                        Table.number("max", "", 3),
                        Table.number("iqr", "", 3),
                        Table.number("outliers", "", 0),
                        Table.number("mean", "", 3),
                        Table.number("sd", "", 3),
                        Table.number("cv", "", 3)));
        for (MetricResult r : results) {
            for (Map.Entry<String, Boxplot> e : r.boxplots().entrySet()) {
                Boxplot b = e.getValue();
                t.row(
                        r.metric().name(),
                        r.metric().unit(),
                        e.getKey(),
                        (long) b.n(),
                        b.min(),
                        b.lowerWhisker(),
                        b.q1(),
                        b.median(),
                        b.q3(),
                        b.upperWhisker(),
                        b.max(),
                        b.iqr(),
                        (long) b.outliers().length,
                        b.mean(),
                        b.sd(),
                        b.cv());
            }
        }
        return t.orNone(NOT_COMPARED);
    }

    public static Table regressions(List<MetricResult> results) {
        Table t = new Table(
                "regression",
                "Regression per group (OLS, 95% intervals)",
                List.of(
                        Table.text("metric"),
                        Table.text("x"),
                        Table.text("group"),
                        Table.number("n", "", 0),
                        Table.number("slope", "", 4),
                        Table.number("intercept", "", 3),
                        Table.number("r2", "", 3),
                        Table.number("residual se", "", 3),
                        Table.number("slope ci low", "", 4),
                        Table.number("slope ci high", "", 4),
                        Table.number("slope p", "", 4),
                        Table.number("prediction ±", "", 3)));
        for (MetricResult r : results) {
            for (Map.Entry<String, Regression> e : r.regressions().entrySet()) {
                Regression g = e.getValue();
                t.row(
                        r.metric().name(),
                        r.xLabel(),
                        e.getKey(),
                        (long) g.n(),
                        g.slope(),
                        g.intercept(),
                        g.r2(),
                        g.residualStdError(),
                        g.slopeCiLow(),
                        g.slopeCiHigh(),
                        g.slopePValue(),
                        g.predictionHalfWidth());
            }
        }
        t.note("prediction ± is the mean half-width of the 95% prediction band: the margin for error of one more run");
        return t.orNone("no group has three values of a metric to fit a line through");
    }

    public static Table comparisons(List<MetricResult> results) {
        Table t = new Table(
                "comparison",
                "Each group against the baseline, the JVM (recording) the unit",
                List.of(
                        Table.text("metric"),
                        Table.text("group"),
                        Table.text("baseline"),
                        Table.text("verdict"),
                        Table.text("of"),
                        Table.number("ratio", "", 3),
                        Table.number("ratio ci low", "", 3),
                        Table.number("ratio ci high", "", 3),
                        Table.number("mann-whitney u", "", 1),
                        Table.number("p", "", 4),
                        Table.text("test"),
                        Table.number("cliff's delta", "", 3),
                        Table.number("jvms", "", 0),
                        Table.number("jvms baseline", "", 0),
                        Table.number("n", "", 0),
                        Table.number("n baseline", "", 0),
                        Table.number("between-jvm share", "", 3),
                        Table.number("between-jvm share baseline", "", 3)));
        Verdict.Rule rule = Verdict.Rule.DEFAULT;
        for (MetricResult r : results) {
            rule = r.rule();
            for (Map.Entry<String, Comparison> e : r.comparisons().entrySet()) {
                Comparison c = e.getValue();
                t.row(
                        r.metric().name(),
                        e.getKey(),
                        r.baseline(),
                        r.verdict(e.getKey()).words(),
                        c.means() ? "means" : "medians",
                        c.ratio(),
                        c.ratioCiLow(),
                        c.ratioCiHigh(),
                        c.u(),
                        c.pValue(),
                        c.exact() ? "exact" : "normal approx.",
                        c.cliffsDelta(),
                        (long) c.jvmsGroup(),
                        (long) c.jvmsBaseline(),
                        (long) c.nGroup(),
                        (long) c.nBaseline(),
                        c.betweenGroup(),
                        c.betweenBaseline());
            }
        }
        t.note("ratio of the medians of the JVMs' medians (of means: of the means of the JVMs' means, where at least "
                + Math.round(Comparer.ZERO_SHARE * 100)
                + "% of a group's values are zero); its CI: two-level percentile bootstrap (JVMs, then values within"
                + " each), "
                + Comparison.BOOTSTRAP_RESAMPLES + " resamples, seed " + Comparison.SEED
                + "; Mann-Whitney U and Cliff's delta on the JVMs' medians (means)");
        t.note(String.format(
                Locale.ROOT,
                "verdict: better or worse when the interval excludes 1 and p < %s; no meaningful difference when the"
                        + " interval lies within %.2f..%.2f; too few JVMs when the test cannot reach p < %s; otherwise"
                        + " inconclusive",
                num(rule.alpha()),
                1 - rule.equivalence(),
                1 + rule.equivalence(),
                num(rule.alpha())));
        t.note("between-jvm share: the share of a group's variance that lies between its JVMs rather than between runs"
                + " in one JVM");
        return t.orNone(NOT_COMPARED);
    }

    private static String num(double v) {
        return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }
}
