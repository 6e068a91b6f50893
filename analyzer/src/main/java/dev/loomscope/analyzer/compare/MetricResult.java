package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.stats.Boxplot;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Spread;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.load.stats.Regression;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The statistics of one metric: per group the values (x, y), boxplot and regression (null with fewer than 3 values),
 * each non-baseline group's comparison with the baseline, and for values per run the trend over the run index within
 * each JVM, which says whether a group was steady, and the spread of its runs against the baseline's; the rule that
 * turns a comparison into a verdict, and how busy the machine was besides each group's JVMs.
 */
public record MetricResult(
        Metric metric,
        String xLabel,
        Map<String, double[][]> points,
        Map<String, Boxplot> boxplots,
        Map<String, Regression> regressions,
        Map<String, Comparison> comparisons,
        String baseline,
        Map<String, Trend> trends,
        Map<String, List<Series>> series,
        Verdict.Rule rule,
        Map<String, Noise> noise,
        Map<String, Spread> spreads) {

    /** The verdict on {@code group} against the baseline by this result's rule. */
    public Verdict verdict(String group) {
        Verdict v = rule.judge(comparisons.get(group), metric.lowerIsBetter());
        return metric.descriptive() && v.decided()
                ? (comparisons.get(group).ratio() > 1 ? Verdict.HIGHER : Verdict.LOWER)
                : v;
    }

    /**
     * {@code busy machine: other processes took up to 45% of the CPU in 3 of 10 JVMs, ...} when other processes
     * disturbed the JVMs of {@code group} or the baseline; null when they did not. The verdict line, the forest's mark
     * and the bottom line all say it in these words.
     */
    public String busyMachine(String group) {
        return Noise.describe(List.of(noise.get(group), noise.get(baseline)));
    }

    /** One recording's values in a group (a fork): x its run index within the JVM (or event index), in time order. */
    public record Series(String recording, double[] x, double[] y) {}

    /** Whether the values are one per measured run (so a JVM's runs can be drawn in order). */
    public boolean perRun() {
        return !trends.isEmpty() || xLabel.equals("run index");
    }

    /**
     * A trend that moves the metric by more than this over the runs, at p below {@link #STEADY_P}, means not steady.
     */
    public static final double STEADY_CHANGE = 0.05;

    public static final double STEADY_P = 0.05;

    /**
     * The values regressed on their run index within their JVM (forks pooled): a JVM still warming up has a slope;
     * {@code runSpan} is how many runs apart its first and last measured run are.
     */
    public record Trend(Regression fit, double runSpan) {}

    /**
     * A group not steady over its runs: still warming up (the metric got better run by run) or drifting (worse), by how
     * much a run (a share of its median) and the slope's p-value.
     */
    public record Unsteady(boolean warmingUp, Metric metric, double perRun, double p) {
        /**
         * As the verdict writes it: {@code still warming up: throughput +6.1% per run (p=0.020)}, runs in {@code words}
         * ({@code per window}).
         */
        public String words(Words words) {
            return String.format(
                    Locale.ROOT,
                    "%s %s %+.1f%% per %s (%s)",
                    warmingUp ? "still warming up:" : "drifting:",
                    words.name(metric),
                    100 * perRun,
                    words.run(),
                    Comparer.p(p));
        }
    }

    /**
     * Why {@code group} was not steady over its runs; null when steady or not known (values not per run, fewer than 3).
     */
    public Unsteady notSteady(String group) {
        Trend t = trends.get(group);
        Boxplot b = boxplots.get(group);
        if (t == null || b == null || !(t.fit().slopePValue() < STEADY_P) || b.median() == 0) {
            return null;
        }
        double perRun = t.fit().slope() / Math.abs(b.median());
        if (Math.abs(perRun * t.runSpan()) <= STEADY_CHANGE) {
            return null;
        }
        boolean improving = (perRun < 0) == metric.lowerIsBetter();
        return new Unsteady(improving, metric, perRun, t.fit().slopePValue());
    }
}
