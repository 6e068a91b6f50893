package dev.loomscope.analyzer.report;

import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;

/**
 * Every verdict in one picture: a row per workload and metric with the ratio of medians (group over baseline) and its
 * two-level bootstrap 95% interval on a log axis, a line at 1, the equivalence band of the verdict rule shaded, the
 * verdict by colour and word (the rule's: better, worse, no meaningful difference, inconclusive, too few JVMs), and a
 * mark where a group was not steady. The report's first chart, and {@code compare --format svg}.
 */
public final class Forest {
    static final String BETTER = "#2ca02c";
    static final String WORSE = "#d62728";
    static final String SAME = "#777777";
    static final String DIFFERENT = "#1f77b4";
    static final String UNDECIDED = "#9467bd";
    static final String WARN = "#c77700";

    private static final int LABEL = 250;
    private static final int PLOT = 420;
    private static final int RIGHT = 340;
    private static final int WIDTH = LABEL + PLOT + RIGHT;
    private static final int ROW = 22;
    private static final int TOP = 26;
    private static final int BOTTOM = 58;
    /** A line of the warnings written out under the chart. */
    private static final int NOTE = 16;
    /** The axis never spans more than this (a ratio of 0 or 1000 is drawn at the edge with an arrow). */
    private static final double MIN = 0.01;

    private static final double MAX = 100;

    private Forest() {}

    /**
     * One row: its label, the comparison, how to read a difference, the rule's verdict, why it is marked (null: not),
     * and the part it belongs to (null: alone), which names its mark under the chart.
     */
    record Row(String label, String metric, Comparison c, String direction, Verdict verdict, String mark, String part) {
        String colour() {
            return switch (verdict) {
                case BETTER -> BETTER;
                case WORSE -> WORSE;
                case HIGHER, LOWER -> DIFFERENT;
                case NO_MEANINGFUL_DIFFERENCE -> SAME;
                case INCONCLUSIVE -> UNDECIDED;
                case TOO_FEW_JVMS -> WARN;
            };
        }
    }

    /** The rows of the headline metrics of each named part ({@code name} null when alone), group against baseline. */
    static List<Row> rows(List<String> names, List<List<MetricResult>> parts) {
        List<Row> rows = new ArrayList<>();
        for (int p = 0; p < parts.size(); p++) {
            String name = names.get(p);
            for (Metric metric : CompareView.HEADLINE) {
                for (MetricResult r : parts.get(p)) {
                    if (!r.metric().equals(metric)) {
                        continue;
                    }
                    for (var e : r.comparisons().entrySet()) {
                        Comparison c = e.getValue();
                        if (Double.isNaN(c.ratio()) || Double.isInfinite(c.ratio())) {
                            continue;
                        }
                        List<String> marks = new ArrayList<>();
                        for (String g : List.of(e.getKey(), r.baseline())) {
                            if (r.notSteady(g) != null) {
                                marks.add(g + " not steady");
                            }
                        }
                        // the verdict line's caveats, each on its row: a chart is no surer than the text
                        String busy = r.busyMachine(e.getKey());
                        if (busy != null) {
                            marks.add(busy);
                        }
                        String groups = r.comparisons().size() > 1 ? " (" + e.getKey() + ")" : "";
                        rows.add(new Row(
                                (name == null ? "" : name + ": ") + metric.name() + groups,
                                metric.name(),
                                c,
                                r.metric().direction(),
                                r.verdict(e.getKey()),
                                marks.isEmpty() ? null : String.join("; ", marks),
                                name));
                    }
                }
            }
        }
        return rows;
    }

    /**
     * The chart of the headline verdicts of each named part ({@code names}: null when alone), the ratio's terms on the
     * axis being the first compared group and its baseline.
     */
    public static String of(List<String> names, List<List<MetricResult>> parts) {
        String group = "group";
        String baseline = "baseline";
        double band = Verdict.Rule.DEFAULT.equivalence();
        for (MetricResult r : parts.stream().flatMap(List::stream).toList()) {
            if (!r.comparisons().isEmpty()) {
                group = r.comparisons().keySet().iterator().next();
                baseline = r.baseline();
                band = r.rule().equivalence();
                break;
            }
        }
        return svg(rows(names, parts), group, baseline, band);
    }

    /**
     * The chart; {@code group} and {@code baseline} name the ratio's terms on the axis, {@code band} is the rule's
     * equivalence band (0.05: ratios 0.95..1.05 are no meaningful difference).
     */
    static String svg(List<Row> rows, String group, String baseline, double band) {
        double lo = 1;
        double hi = 1;
        for (Row r : rows) {
            // a ratio of 0 (no GC pause at all in a group) has no place on a log axis: it is drawn at the edge, with an
            // arrow
            for (double v : new double[] {r.c().ratioCiLow(), r.c().ratio(), r.c().ratioCiHigh()}) {
                if (v > 0 && !Double.isInfinite(v)) {
                    lo = Math.min(lo, clamp(v));
                    hi = Math.max(hi, clamp(v));
                }
            }
        }
        double[] ticks = ticks(lo, hi);
        double a = Math.log10(ticks[0]);
        double b = Math.log10(ticks[ticks.length - 1]);
        DoubleUnaryOperator x = v -> LABEL
                + PLOT * (Math.log10(Math.max(ticks[0], Math.min(ticks[ticks.length - 1], clamp(v)))) - a) / (b - a);
        // each warning written out under the chart, numbered at its rows (a part's rows share theirs): not only on
        // hover
        Map<String, Integer> marks = new LinkedHashMap<>();
        rows.stream().filter(r -> r.mark() != null).forEach(r -> marks.putIfAbsent(note(r), marks.size() + 1));
        int height = TOP + ROW * Math.max(1, rows.size()) + BOTTOM + NOTE * marks.size();
        StringBuilder sb = new StringBuilder(Svg.f(
                "<svg id='forest' viewBox='0 0 %d %d' width='%d' height='%d' role='img' class='forest'><title>Every"
                        + " verdict: %s / %s, ratio of medians (of means where many values are zero) with its 95%%"
                        + " interval</title>%n",
                WIDTH, height, WIDTH, height, Svg.esc(group), Svg.esc(baseline)));
        int plotBottom = TOP + ROW * Math.max(1, rows.size());
        sb.append(Svg.f("<text x='%d' y='16' font-weight='600'>%s</text>%n", 4, "workload: metric"));
        sb.append(Svg.f(
                "<text x='%d' y='16' text-anchor='middle' font-weight='600'>%s / %s (ratio of medians or means, 95%%"
                        + " interval)</text>%n",
                LABEL + PLOT / 2, Svg.esc(group), Svg.esc(baseline)));
        sb.append(Svg.f("<text x='%d' y='16' font-weight='600'>verdict</text>%n", LABEL + PLOT + 12));
        for (int i = 1; i < rows.size(); i += 2) {
            sb.append(Svg.f("<rect x='0' y='%d' width='%d' height='%d' fill='#f6f8fa'/>%n", TOP + ROW * i, WIDTH, ROW));
        }
        axis(sb, x, ticks, band, plotBottom, group);
        for (int i = 0; i < rows.size(); i++) {
            row(sb, rows.get(i), TOP + ROW * i + ROW / 2, x, ticks, group, baseline, marks);
        }
        if (rows.isEmpty()) {
            sb.append(Svg.f(
                    "<text x='4' y='%d'>nothing to compare: no metric has values in two groups</text>%n", TOP + 15));
        }
        marks.forEach((note, m) -> sb.append(Svg.f(
                "<text x='%d' y='%d' font-size='11' fill='%s' class='note'>&#9888;%d %s</text>%n",
                4, plotBottom + BOTTOM - 6 + NOTE * (m - 1), WARN, m, Svg.esc(note))));
        return sb.append("</svg>\n").toString();
    }

    /** The equivalence band, the ratio's ticks (1 drawn darker) and which side is lower. */
    private static void axis(
            StringBuilder sb, DoubleUnaryOperator x, double[] ticks, double band, int plotBottom, String group) {
        if (band > 0) {
            double b1 = x.applyAsDouble(1 - band);
            double b2 = x.applyAsDouble(1 + band);
            sb.append(Svg.f(
                    "<rect class='band' x='%.1f' y='%d' width='%.1f' height='%d' fill='#e8e8e8'><title>the equivalence"
                            + " band: ratios %s..%s are no meaningful difference</title></rect>%n",
                    b1,
                    TOP - 4,
                    Math.max(1, b2 - b1),
                    plotBottom - TOP + 4,
                    Svg.f("%.2f", 1 - band),
                    Svg.f("%.2f", 1 + band)));
        }
        for (double t : ticks) {
            double px = x.applyAsDouble(t);
            sb.append(Svg.f(
                    "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='%s'%s/>%n",
                    px, TOP - 4, px, plotBottom, t == 1 ? "#333" : "#e3e3e3", t == 1 ? " stroke-width='1.5'" : ""));
            sb.append(Svg.f(
                    "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%s</text>%n",
                    px, plotBottom + 14, label(t)));
        }
        sb.append(Svg.f(
                "<text x='%d' y='%d' text-anchor='middle' font-size='11' fill='#555'>&#9664; %s's median lower%s%s's"
                        + " median higher &#9654;</text>%n",
                LABEL + PLOT / 2,
                plotBottom + 32,
                Svg.esc(group),
                "&#160;".repeat(6) + "|" + "&#160;".repeat(6),
                Svg.esc(group)));
    }

    /**
     * One verdict's row at height {@code cy}: its label, the ratio and its interval (open or clipped ends marked), the
     * verdict and its warning's mark.
     */
    private static void row(
            StringBuilder sb,
            Row r,
            int cy,
            DoubleUnaryOperator x,
            double[] ticks,
            String group,
            String baseline,
            Map<String, Integer> marks) {
        sb.append(Svg.f("<g><title>%s</title>%n", Svg.esc(tooltip(r, group, baseline))));
        sb.append(Svg.f("<text x='4' y='%d'>%s</text>%n", cy + 4, Svg.esc(r.label())));
        double ratio = r.c().ratio();
        double px = x.applyAsDouble(ratio);
        // an undefined bound (a bootstrap resample with a zero baseline) is an open end: dashed to the axis' edge
        boolean openLow = !defined(r.c().ratioCiLow());
        boolean openHigh = !defined(r.c().ratioCiHigh());
        double x1 = openLow ? LABEL : x.applyAsDouble(r.c().ratioCiLow());
        double x2 = openHigh ? LABEL + PLOT : x.applyAsDouble(r.c().ratioCiHigh());
        sb.append(Svg.f(
                "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='%s' stroke-width='2'/>%n",
                openLow ? px : x1, cy, openHigh ? px : x2, cy, r.colour()));
        if (openLow || openHigh) {
            sb.append(Svg.f(
                    "<line class='open' x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='%s' stroke-width='2'"
                            + " stroke-dasharray='3,3'/>%n",
                    openLow ? x1 : px, cy, openHigh ? x2 : px, cy, r.colour()));
        }
        // beyond the axis: the mark sits outside the plot, where the point cannot cover it
        if (!openLow && r.c().ratioCiLow() < ticks[0] || ratio < ticks[0]) {
            sb.append(Svg.f(
                    "<text class='clip' x='%.1f' y='%d' fill='%s' font-size='10'>&#9664;</text>%n",
                    (double) LABEL - 12, cy + 4, r.colour()));
        }
        if (!openHigh && r.c().ratioCiHigh() > ticks[ticks.length - 1] || ratio > ticks[ticks.length - 1]) {
            sb.append(Svg.f(
                    "<text class='clip' x='%.1f' y='%d' fill='%s' font-size='10'>&#9654;</text>%n",
                    (double) LABEL + PLOT + 3, cy + 4, r.colour()));
        }
        boolean filled = r.verdict() != Verdict.TOO_FEW_JVMS;
        sb.append(Svg.f(
                "<rect x='%.1f' y='%d' width='9' height='9' fill='%s' stroke='%s' stroke-width='1.5'/>%n",
                px - 4.5, cy - 4, filled ? r.colour() : "#fff", r.colour()));
        sb.append(Svg.f(
                "<text x='%d' y='%d' fill='%s' font-weight='600'>%s</text>%n",
                LABEL + PLOT + 12, cy + 4, r.colour(), r.verdict().words()));
        // right-aligned before the mark: neither the verdict's words nor the mark cover it
        sb.append(Svg.f(
                "<text x='%d' y='%d' font-size='11' text-anchor='end'>%s [%s, %s]</text>%n",
                WIDTH - 22,
                cy + 4,
                change(r.c().ratio(), r.c().ratio()),
                change(r.c().ratioCiLow(), r.c().ratio()),
                change(r.c().ratioCiHigh(), r.c().ratio())));
        if (r.mark() != null) {
            sb.append(Svg.f(
                    "<text x='%d' y='%d' fill='%s' font-size='11' font-weight='700' class='mark'>&#9888;%d</text>%n",
                    WIDTH - 20, cy + 5, WARN, marks.get(note(r))));
        }
        sb.append("</g>\n");
    }

    /** A row's warning as written under the chart: its part's name and the mark. */
    private static String note(Row r) {
        return (r.part() == null ? "" : r.part() + ": ") + r.mark();
    }

    private static boolean defined(double v) {
        return !Double.isNaN(v) && !Double.isInfinite(v);
    }

    /**
     * The chart as a file of its own (slides, documents): the SVG namespace and a font, which the report's page
     * otherwise gives.
     */
    public static String standalone(String svg) {
        return "<?xml version='1.0' encoding='UTF-8'?>\n"
                + svg.replaceFirst(
                        "<svg ",
                        "<svg xmlns='http://www.w3.org/2000/svg' font-family='Helvetica, Arial, sans-serif'"
                                + " font-size='12' ");
    }

    private static String tooltip(Row r, String group, String baseline) {
        Comparison c = r.c();
        String t = Svg.f(
                "%s: %s / %s = %.3f (95%% interval %.3f..%.3f), p=%s, n=%d/%d JVMs (%d/%d values): %s",
                r.label(),
                group,
                baseline,
                c.ratio(),
                c.ratioCiLow(),
                c.ratioCiHigh(),
                Double.isNaN(c.pValue()) ? "n/a" : Svg.f("%.3g", c.pValue()),
                c.jvmsGroup(),
                c.jvmsBaseline(),
                c.nGroup(),
                c.nBaseline(),
                r.verdict().words() + " (" + r.direction() + ")");
        return r.mark() == null ? t : t + "; " + r.mark();
    }

    static double clamp(double v) {
        return Double.isNaN(v) ? 1 : Math.max(MIN, Math.min(MAX, v));
    }

    /** 1-2-5 ticks on the log axis covering [lo, hi] and 1; only the powers of ten when the span is wide. */
    static double[] ticks(double lo, double hi) {
        List<Double> all = new ArrayList<>();
        for (int e = -2; e <= 2; e++) {
            for (double m : new double[] {1, 2, 5}) {
                all.add(m * Math.pow(10, e));
            }
        }
        int first = 0;
        while (first + 1 < all.size() && all.get(first + 1) <= lo * (1 + 1e-9)) {
            first++;
        }
        int last = all.size() - 1;
        while (last - 1 >= 0 && all.get(last - 1) >= hi * (1 - 1e-9)) {
            last--;
        }
        List<Double> span = all.subList(first, last + 1);
        List<Double> chosen = span.size() <= 9
                ? span
                : span.stream()
                        .filter(v -> Math.abs(Math.log10(v) - Math.rint(Math.log10(v))) < 1e-9
                                || v.equals(span.get(0))
                                || v.equals(span.get(span.size() - 1)))
                        .toList();
        return chosen.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String label(double t) {
        return Svg.tick(t) + "\u00d7";
    }

    private static String change(double ratio, double point) {
        return Comparer.change(ratio, point).replace('-', '\u2212');
    }
}
