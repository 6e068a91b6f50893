package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.report.RateChart;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.load.ClientFigures;
import dev.loomscope.load.ClientRow;
import dev.loomscope.load.LoadSpec;
import dev.loomscope.load.Slo;
import dev.loomscope.load.stats.Quantiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The capacity at a latency objective: for each URL, each JVM's highest offered rate whose measured windows kept the
 * objective ({@link #kept}); per thread kind the JVMs' median, and the kinds compared with the JVM as the unit, as
 * every verdict is.
 */
final class Capacity {
    private Capacity() {}

    /**
     * What the capacity gave: a line per URL, each URL's figures, and its chart of latency against the offered rate.
     */
    record Result(List<String> lines, List<Url> urls, List<String> charts) {}

    /**
     * One URL's capacity: the rates tried, each kind's JVMs' capacities (0 where a JVM kept none), and virtual against
     * platform with its verdict (null when a kind has no JVM or one rate gives no capacity).
     */
    record Url(
            String url,
            Slo slo,
            List<Double> rates,
            Map<String, double[]> capacity,
            Comparison comparison,
            Verdict verdict) {
        /** The median of {@code kind}'s JVMs' capacities, 0 when none kept a rate; NaN when the kind has no JVM. */
        double median(String kind) {
            double[] c = capacity.getOrDefault(kind, new double[0]);
            return c.length == 0 ? Double.NaN : Quantiles.of(c, 0.5);
        }

        /** {@code capacity at p99 <= 50 ms on GET /legacy: virtual 150/s, platform 300/s}. */
        String brief() {
            return String.format(
                    Locale.ROOT,
                    "capacity at %s on %s: %s",
                    slo,
                    url,
                    String.join(
                            ", ",
                            StudyPlan.KINDS.reversed().stream()
                                    .map(k -> k + " " + rate(median(k)))
                                    .toList()));
        }
    }

    /** One JVM at one rate: its figure (ms) and whether it kept the objective ({@link #at}). */
    record AtRate(double millis, boolean kept) {}

    /** {@code byWorkload}: {@code GET /io at 400/s} to its groups by kind. */
    static Result of(Slo slo, Map<String, Map<String, List<RecordingFacts>>> byWorkload, Verdict.Rule rule) {
        // URL -> rate -> kind -> JVM -> its figure
        Map<String, TreeMap<Double, Map<String, Map<Path, AtRate>>>> measured = new LinkedHashMap<>();
        byWorkload
                .values()
                .forEach(groups -> groups.forEach((kind, facts) -> facts.forEach(f -> {
                    List<WorkloadRun> windows = f.runs.measured();
                    ClientRow client =
                            windows.isEmpty() ? ClientRow.NONE : windows.get(0).client();
                    if (client.target() == null || Double.isNaN(client.rate())) {
                        return; // not a load client's windows at a rate of its own
                    }
                    measured.computeIfAbsent(client.target(), k -> new TreeMap<>())
                            .computeIfAbsent(client.rate(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(kind, k -> new LinkedHashMap<>())
                            .put(f.source.name(), at(slo, windows));
                })));
        List<String> lines = new ArrayList<>();
        List<Url> urls = new ArrayList<>();
        List<String> charts = new ArrayList<>();
        measured.forEach((url, rates) -> {
            Map<String, double[]> capacity = new LinkedHashMap<>();
            Map<String, TreeMap<Double, double[]>> curve = new LinkedHashMap<>();
            for (String kind : StudyPlan.KINDS) {
                Map<Path, Double> best = new LinkedHashMap<>();
                rates.forEach((rate, kinds) -> {
                    Map<Path, AtRate> jvms = kinds.getOrDefault(kind, Map.of());
                    jvms.forEach((jvm, r) -> best.merge(jvm, r.kept() ? rate : 0.0, Math::max));
                    curve.computeIfAbsent(kind, k -> new TreeMap<>())
                            .put(
                                    rate,
                                    jvms.values().stream()
                                            .mapToDouble(AtRate::millis)
                                            .filter(v -> !Double.isNaN(v))
                                            .toArray());
                });
                capacity.put(
                        kind,
                        best.values().stream().mapToDouble(Double::doubleValue).toArray());
            }
            Url u = url(url, slo, rates.keySet().stream().toList(), capacity, rule);
            urls.add(u);
            lines.add(line(u));
            charts.add(RateChart.of(
                    url + ": latency " + slo.percentile() + " against the offered rate",
                    slo.percentile(),
                    slo.millis(),
                    curve));
        });
        return new Result(lines, urls, charts);
    }

    /**
     * One JVM at one rate, its windows' histograms decoded once: whether it kept the objective ({@link Slo#keptBy}, on
     * the merged histograms) and the objective's percentile of them; windows of an older client, without histograms:
     * the median window's percentile, kept when within the bound and under 1% failed.
     */
    static AtRate at(Slo slo, List<WorkloadRun> windows) {
        ClientFigures client = ClientFigures.of(windows);
        if (client != null) {
            return new AtRate(
                    client.judged().getTotalCount() == 0 ? Double.NaN : slo.of(client.judged()),
                    slo.keptBy(client.judged(), client.offered(), client.errors(), client.keptUp()));
        }
        double[] p = windows.stream()
                .mapToDouble(slo::of)
                .filter(v -> !Double.isNaN(v))
                .toArray();
        double median = p.length == 0 ? Double.NaN : Quantiles.of(p, 0.5);
        long errors = windows.stream()
                .mapToLong(r -> Math.max(0, r.client().errors()))
                .sum();
        long offered = windows.stream()
                .mapToLong(r -> r.client().offered() > 0 ? r.client().offered() : r.units())
                .sum();
        return new AtRate(
                median, p.length > 0 && median <= slo.millis() && offered > 0 && errors < Slo.ERRORS * offered);
    }

    /** Whether a JVM's measured windows at one rate kept the objective ({@link #at}). */
    static boolean kept(Slo slo, List<WorkloadRun> windows) {
        return at(slo, windows).kept();
    }

    /** A JVM's figure at one rate, ms ({@link #at}). */
    static double millis(Slo slo, List<WorkloadRun> windows) {
        return at(slo, windows).millis();
    }

    private static Url url(String url, Slo slo, List<Double> rates, Map<String, double[]> capacity, Verdict.Rule rule) {
        double[] v = capacity.get("virtual");
        double[] p = capacity.get("platform");
        if (rates.size() == 1 || v.length == 0 || p.length == 0) {
            return new Url(url, slo, rates, capacity, null, null);
        }
        Comparison c = Comparison.of(v, p);
        return new Url(url, slo, rates, capacity, c, rule.judge(c, false));
    }

    /** Rates tried up to this many are listed in the capacity's line; more (a search's steps) are told by range. */
    static final int LISTED = 6;

    /** The URL's capacity line: the rates tried, each kind's capacity and its JVMs', and the verdict. */
    static String line(Url u) {
        List<Double> rates = u.rates();
        if (rates.size() == 1) {
            // one rate bounds no capacity: only whether each kind's JVMs kept the objective there
            List<String> kinds = new ArrayList<>();
            for (String kind : StudyPlan.KINDS) {
                double[] c = u.capacity().get(kind);
                kinds.add(kind + " "
                        + (c.length == 0
                                ? "not measured"
                                : Arrays.stream(c).filter(x -> x > 0).count() + " of " + c.length + " JVMs"));
            }
            return String.format(
                    Locale.ROOT,
                    "%s: kept %s with under %.0f%% errors and no request left late at %s: %s (one rate gives no"
                            + " capacity: give several, --rate 150,300,600)",
                    u.url(),
                    u.slo(),
                    100 * Slo.ERRORS,
                    LoadSpec.rate(rates.get(0)),
                    String.join(", ", kinds));
        }
        StringBuilder b = new StringBuilder(String.format(
                Locale.ROOT,
                "%s: capacity at %s with under %.0f%% errors and no request left late, of %s: ",
                u.url(),
                u.slo(),
                100 * Slo.ERRORS,
                rates.size() <= LISTED
                        ? "the rates "
                                + String.join(
                                        ", ", rates.stream().map(LoadSpec::rate).toList())
                        : rates.size() + " rates the JVMs tried, " + LoadSpec.rate(Collections.min(rates)) + " to "
                                + LoadSpec.rate(Collections.max(rates))));
        List<String> kinds = new ArrayList<>();
        for (String kind : StudyPlan.KINDS) {
            double[] c = u.capacity().get(kind);
            kinds.add(kind + " "
                    + (c.length == 0
                            ? "not measured"
                            : Arrays.stream(c).allMatch(x -> x == 0)
                                    ? "below " + LoadSpec.rate(rates.get(0)) + " (none of its " + c.length + " JVM"
                                            + (c.length == 1 ? "" : "s") + " kept the objective at any rate tried)"
                                    : rate(u.median(kind)) + " (its JVMs: "
                                            + String.join(
                                                    ", ",
                                                    Arrays.stream(c)
                                                            .mapToObj(Capacity::rate)
                                                            .toList()) + ")"));
        }
        b.append(String.join(", ", kinds));
        Comparison c = u.comparison();
        if (c != null) {
            b.append("; virtual vs platform: ")
                    .append(
                            Double.isInfinite(c.ratio()) || Double.isNaN(c.ratio())
                                    ? "no ratio (a kind kept no rate)"
                                    : "median " + Comparer.percent(c.ratio()) + " (95% CI "
                                            + Comparer.percent(c.ratioCiLow()) + ".."
                                            + Comparer.percent(c.ratioCiHigh()) + ")")
                    .append(", ")
                    .append(Comparer.p(c.pValue()))
                    .append(", n=")
                    .append(u.capacity().get("virtual").length)
                    .append('/')
                    .append(u.capacity().get("platform").length)
                    .append(" JVMs: ")
                    .append(u.verdict().words());
        }
        return b.toString();
    }

    private static String rate(double r) {
        return r == 0 ? "below the lowest" : LoadSpec.rate(r);
    }
}
