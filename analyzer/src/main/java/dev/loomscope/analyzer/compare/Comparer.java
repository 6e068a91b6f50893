package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.stats.Boxplot;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Spread;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.load.stats.Regression;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.Numbers;
import dev.loomscope.options.UsageException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Compares groups of recordings metric by metric: boxplots, regressions, comparisons with the baseline. */
public final class Comparer {
    private Comparer() {}

    /**
     * @param metrics metric names to compute, or empty for every metric the inputs support
     * @param baseline the group others are compared with; null: "platform" if present, else the first
     * @param xUnits regress on units of work instead of run index
     */
    public static List<MetricResult> compare(
            Map<String, List<RecordingFacts>> groups, List<Metric> metrics, String baseline, boolean xUnits) {
        return compare(groups, metrics, baseline, xUnits, Verdict.Rule.DEFAULT);
    }

    /** As {@link #compare(Map, List, String, boolean)}, each verdict by {@code rule}. */
    public static List<MetricResult> compare(
            Map<String, List<RecordingFacts>> groups,
            List<Metric> metrics,
            String baseline,
            boolean xUnits,
            Verdict.Rule rule) {
        if (groups.size() < 1) {
            throw new BadDataException("no recordings to compare");
        }
        String base = baseline != null
                ? baseline
                : groups.containsKey("platform")
                        ? "platform"
                        : groups.keySet().iterator().next();
        if (!groups.containsKey(base)) {
            throw new UsageException(
                    "--baseline " + base + ": no such group (groups: " + String.join(", ", groups.keySet()) + ")");
        }
        List<Metric> chosen = metrics == null || metrics.isEmpty() ? Metric.ALL : metrics;
        List<MetricResult> out = new ArrayList<>();
        for (Metric m : chosen) {
            MetricResult r = compute(m, groups, base, xUnits, rule);
            if (r == null && metrics != null && !metrics.isEmpty()) {
                throw new UsageException("--metric " + m.name() + ": not in these recordings (" + why(m) + ")");
            }
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    static String why(Metric m) {
        return switch (m.level()) {
            case RUN -> "needs loomscope.WorkloadRun events: record a loomscope workload";
            case RUN_OR_RECORDING, RECORDING -> "the events it is made of were not recorded";
            case EVENT -> "no such events were recorded";
        };
    }

    /**
     * A group's values as points: x their index (or their units of work with {@code xUnits}), in time order when
     * {@code byTime} (runs and recordings; events stay in theirs), y the value.
     */
    private static double[][] xy(List<Metric.Value> values, boolean xUnits, boolean byTime) {
        if (byTime) {
            values.sort(Comparator.comparingLong(Metric.Value::startMillis));
        }
        double[] x = new double[values.size()];
        double[] y = new double[values.size()];
        for (int i = 0; i < values.size(); i++) {
            x[i] = xUnits && !Double.isNaN(values.get(i).units())
                    ? values.get(i).units()
                    : i;
            y[i] = values.get(i).value();
        }
        return new double[][] {x, y};
    }

    /**
     * Each group with values against the baseline, the JVM the unit: medians, or means where many values are zero; none
     * without the baseline.
     */
    private static Map<String, Comparison> comparisons(
            Set<String> groups, Map<String, List<double[]>> jvms, String base) {
        Map<String, Comparison> cmp = new LinkedHashMap<>();
        if (groups.contains(base)) {
            for (String g : groups) {
                if (!g.equals(base)) {
                    // many zeros (runs without a collection, a pin): their median says "none" for a group that had some
                    boolean zeros = zeroShare(jvms.get(g)) >= ZERO_SHARE || zeroShare(jvms.get(base)) >= ZERO_SHARE;
                    cmp.put(
                            g,
                            zeros
                                    ? Comparison.ofMeans(jvms.get(g), jvms.get(base))
                                    : Comparison.of(jvms.get(g), jvms.get(base)));
                }
            }
        }
        return cmp;
    }

    /**
     * How far apart each compared group's runs lie against the baseline's (the thesis's boxes), where it can be said.
     */
    private static Map<String, Spread> spreads(Set<String> compared, Map<String, List<double[]>> jvms, String base) {
        Map<String, Spread> spreads = new LinkedHashMap<>();
        for (String g : compared) {
            Spread sp = Spread.of(jvms.get(g), jvms.get(base));
            if (sp != null) {
                spreads.put(g, sp);
            }
        }
        return spreads;
    }

    /** Null when no group has a value for the metric. */
    static MetricResult compute(
            Metric m, Map<String, List<RecordingFacts>> groups, String base, boolean xUnits, Verdict.Rule rule) {
        Map<String, double[][]> points = new LinkedHashMap<>();
        Map<String, MetricResult.Trend> trends = new LinkedHashMap<>();
        Map<String, List<MetricResult.Series>> series = new LinkedHashMap<>();
        Map<String, List<double[]>> jvms = new LinkedHashMap<>();
        Map<String, Noise> noise = new LinkedHashMap<>();
        boolean perRun = m.level() == Metric.Level.RUN;
        for (Map.Entry<String, List<RecordingFacts>> g : groups.entrySet()) {
            List<Metric.Value> values = new ArrayList<>();
            boolean groupPerRun = m.level() == Metric.Level.RUN || m.level() == Metric.Level.RUN_OR_RECORDING;
            List<MetricResult.Series> forks = new ArrayList<>();
            List<double[]> perJvm = new ArrayList<>();
            for (RecordingFacts f : g.getValue()) {
                List<Metric.Value> own = m.extract().apply(f);
                values.addAll(own);
                groupPerRun &= !f.runs.runs().isEmpty();
                if (!own.isEmpty()) {
                    perJvm.add(own.stream()
                            .mapToDouble(Metric.Value::value)
                            .toArray()); // the JVM, the unit of replication
                    forks.add(new MetricResult.Series(
                            f.source.shortName(),
                            own.stream().mapToDouble(Metric.Value::x).toArray(),
                            own.stream().mapToDouble(Metric.Value::value).toArray()));
                }
            }
            series.put(g.getKey(), forks);
            jvms.put(g.getKey(), perJvm);
            noise.put(g.getKey(), Noise.of(g.getValue()));
            if (values.isEmpty()) {
                continue;
            }
            perRun |= groupPerRun;
            if (groupPerRun && values.size() >= 3) {
                trends.put(g.getKey(), trend(values));
            }
            points.put(g.getKey(), xy(values, xUnits, m.level() != Metric.Level.EVENT));
        }
        if (points.isEmpty()) {
            return null;
        }
        Map<String, Boxplot> box = new LinkedHashMap<>();
        Map<String, Regression> reg = new LinkedHashMap<>();
        points.forEach((g, xy) -> box.put(g, Boxplot.of(xy[1])));
        points.entrySet().stream()
                .filter(e -> e.getValue()[1].length >= 3)
                .forEach(e -> reg.put(e.getKey(), Regression.of(e.getValue()[0], e.getValue()[1])));
        Map<String, Comparison> cmp = comparisons(points.keySet(), jvms, base);
        // run-level metrics only (an event-level one is never per run): how far apart a group's runs lie, against the
        // baseline's
        Map<String, Spread> spreads = perRun ? spreads(cmp.keySet(), jvms, base) : new LinkedHashMap<>();
        series.keySet().retainAll(points.keySet());
        noise.keySet().retainAll(points.keySet());
        return new MetricResult(
                m,
                m.level() == Metric.Level.EVENT
                        ? "event index"
                        : xUnits ? "units of work" : perRun ? "run index" : "recording index",
                points,
                box,
                reg,
                cmp,
                base,
                trends,
                series,
                rule,
                noise,
                spreads);
    }

    /**
     * At least this share of zeros in either group: the groups are compared by their means, and the zeros are counted
     * in the line.
     */
    static final double ZERO_SHARE = 0.25;

    /** The share of the values that are zero, over every JVM's. */
    static double zeroShare(List<double[]> jvms) {
        long n = jvms.stream().mapToLong(v -> v.length).sum();
        long zeros = jvms.stream()
                .flatMapToDouble(Arrays::stream)
                .filter(v -> v == 0)
                .count();
        return n == 0 ? 0 : zeros / (double) n;
    }

    /**
     * {@code zero in 13/20 virtual runs and 12/15 platform runs}, for a comparison of means (runs in {@code words}).
     */
    static String zeros(MetricResult r, String group, Words words) {
        String noun = r.metric().level() == Metric.Level.EVENT ? "events" : r.perRun() ? words.runs() : "recordings";
        return "zero in " + zeroCount(r, group) + " " + group + " " + noun + " and " + zeroCount(r, r.baseline()) + " "
                + r.baseline() + " " + noun;
    }

    private static String zeroCount(MetricResult r, String group) {
        double[] v = r.points().get(group)[1];
        return Arrays.stream(v).filter(x -> x == 0).count() + "/" + v.length;
    }

    /** The values regressed on their run index within their JVM: a trend there is a JVM not yet steady. */
    private static MetricResult.Trend trend(List<Metric.Value> values) {
        double[] x = values.stream().mapToDouble(Metric.Value::x).toArray();
        double[] y = values.stream().mapToDouble(Metric.Value::value).toArray();
        double span = Arrays.stream(x).max().orElse(0) - Arrays.stream(x).min().orElse(0);
        return new MetricResult.Trend(Regression.of(x, y), span);
    }

    /**
     * {@code virtual vs platform: run time median -46% (95% CI -50%..-41%), p=0.008, n=5/5 JVMs x 3 runs: better}: the
     * ratio of the JVMs' medians, its interval, the JVM-level test, how many JVMs and values stand behind it, and the
     * verdict by the result's rule.
     */
    public static String verdict(MetricResult r, String group) {
        return verdict(r, group, Words.WORKLOAD);
    }

    /** As {@link #verdict(MetricResult, String)}, in {@code words} (a service's: per request, windows). */
    public static String verdict(MetricResult r, String group, Words words) {
        Comparison c = r.comparisons().get(group);
        String line;
        if (c.ratio() == Double.POSITIVE_INFINITY) {
            // none in the baseline: the group's own figure, since no ratio can be given
            var b = r.boxplots().get(group);
            line = String.format(
                    Locale.ROOT,
                    "%s vs %s: %s %s %s %s against 0, %s, %s: %s",
                    group,
                    r.baseline(),
                    words.name(r.metric()),
                    c.means() ? "mean" : "median",
                    Numbers.plain(c.means() ? b.mean() : b.median()),
                    words.unit(r.metric()),
                    p(c.pValue()),
                    replicates(c, r.metric().level(), words),
                    r.verdict(group).words());
        } else {
            line = String.format(
                    Locale.ROOT,
                    "%s vs %s: %s %s %s (95%% CI %s..%s), %s, %s: %s",
                    group,
                    r.baseline(),
                    words.name(r.metric()),
                    c.means() ? "mean" : "median",
                    change(c.ratio(), c.ratio()),
                    change(c.ratioCiLow(), c.ratio()),
                    change(c.ratioCiHigh(), c.ratio()),
                    p(c.pValue()),
                    replicates(c, r.metric().level(), words),
                    r.verdict(group).words());
        }
        if (c.means()) {
            line += "; " + zeros(r, group, words);
        }
        String busy = r.busyMachine(group);
        if (busy != null) {
            line += "; " + busy;
        }
        List<String> unsteady = new ArrayList<>();
        boolean warmingUp = false;
        for (String g : List.of(group, r.baseline())) {
            MetricResult.Unsteady why = r.notSteady(g);
            if (why != null) {
                unsteady.add(g + " " + why.words(words));
                warmingUp |= why.warmingUp();
            }
        }
        if (!unsteady.isEmpty()) {
            // more warm-up helps a group that was still getting better; one that got worse run by run drifts for
            // another reason
            line += "; not steady: " + String.join(", ", unsteady)
                    + (warmingUp ? " (try a larger " + words.warmupOption() + ")" : "");
        }
        return line;
    }

    /**
     * {@code virtual vs platform: run time spread (IQR) 10.2 ms against 35.1 ms, 0.29x (95% CI 0.18x..0.45x; relative
     * to the median 0.43x), n=1/1 JVMs x 100 runs: less spread}; null when the metric has no spread of runs for
     * {@code group}; runs in {@code words}.
     */
    public static String spreadVerdict(MetricResult r, String group, Words words) {
        Spread s = r.spreads().get(group);
        if (s == null) {
            return null;
        }
        String unit = words.unit(r.metric()).isEmpty() ? "" : " " + words.unit(r.metric());
        return String.format(
                Locale.ROOT,
                "%s vs %s: %s spread (IQR) %s%s against %s%s, %s (95%% CI %s..%s; relative to the median %s), %s: %s",
                group,
                r.baseline(),
                words.name(r.metric()),
                Numbers.plain(s.iqrGroup()),
                unit,
                Numbers.plain(s.iqrBaseline()),
                unit,
                times(s.ratio()),
                times(s.ratioCiLow()),
                times(s.ratioCiHigh()),
                times(s.relativeRatio()),
                replicates(
                        s.jvmsGroup(),
                        s.jvmsBaseline(),
                        s.nGroup(),
                        s.nBaseline(),
                        r.metric().level(),
                        words),
                s.verdict());
    }

    /** A ratio as {@code 0.29x}; {@code n/a} when there is none, {@code unbounded} when the baseline's figure is 0. */
    private static String times(double ratio) {
        return Double.isNaN(ratio)
                ? "n/a"
                : Double.isInfinite(ratio)
                        ? "unbounded"
                        : String.format(Locale.ROOT, ratio >= 10 ? "%.0fx" : "%.2fx", ratio);
    }

    /** {@code n=5/5 JVMs x 3 runs}, {@code n=5/4 JVMs, 15/11 runs}, {@code n=6/6 JVMs} (one value each). */
    static String replicates(Comparison c, Metric.Level level, Words words) {
        return replicates(c.jvmsGroup(), c.jvmsBaseline(), c.nGroup(), c.nBaseline(), level, words);
    }

    private static String replicates(
            int jvmsGroup, int jvmsBaseline, int nGroup, int nBaseline, Metric.Level level, Words words) {
        String jvms = "n=" + jvmsGroup + "/" + jvmsBaseline + " JVMs";
        if (nGroup == jvmsGroup && nBaseline == jvmsBaseline) {
            return jvms;
        }
        String noun = level == Metric.Level.EVENT ? "events" : words.runs();
        if (nGroup % jvmsGroup == 0
                && nBaseline % jvmsBaseline == 0
                && nGroup / jvmsGroup == nBaseline / jvmsBaseline) {
            return jvms + " x " + nGroup / jvmsGroup + " " + noun;
        }
        return jvms + ", " + nGroup + "/" + nBaseline + " " + noun;
    }

    public static String percent(double ratio) {
        double p = (ratio - 1) * 100;
        return Double.isNaN(p) || Double.isInfinite(p) ? "n/a" : String.format(Locale.ROOT, "%+.0f%%", p);
    }

    /** Above this ratio a change reads as a ratio ({@code 1,710x}), not as a percentage ({@code +170924%}). */
    public static final double RATIO_ABOVE = 2;

    /**
     * {@code ratio} as a change, in the form its line's point estimate {@code point} takes: a percentage ({@code -47%})
     * up to {@link #RATIO_ABOVE}, a ratio ({@code 30.3x}) beyond, so a line and its interval read alike.
     */
    public static String change(double ratio, double point) {
        return point > RATIO_ABOVE && !Double.isInfinite(point)
                ? (Double.isNaN(ratio) ? "n/a" : Double.isInfinite(ratio) ? "unbounded" : Numbers.plain(ratio) + "x")
                : percent(ratio);
    }

    public static String p(double p) {
        if (Double.isNaN(p)) {
            return "p=n/a";
        }
        return p < 0.001 ? "p<0.001" : String.format(Locale.ROOT, "p=%.3f", p);
    }
}
