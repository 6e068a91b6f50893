package dev.loomscope.analyzer.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A service's latency against the offered rate, a line per thread kind (each JVM a point, the line through the kinds'
 * medians), on a logarithmic latency axis (a service past its capacity queues without bound), with the objective as a
 * dashed line: where each kind's line crosses it is its capacity.
 */
public final class RateChart {
    private static final Svg.Frame FRAME = new Svg.Frame(560, 300, 60, 110, 30, 44);

    private RateChart() {}

    /**
     * {@code byKind}: thread kind to offered rate to its JVMs' figures (ms, one each); {@code slo} the objective in ms
     * (NaN: none); {@code what} the percentile's name ({@code p99}).
     */
    public static String of(String title, String what, double slo, Map<String, TreeMap<Double, double[]>> byKind) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        double maxRate = 0;
        for (TreeMap<Double, double[]> rates : byKind.values()) {
            for (Map.Entry<Double, double[]> e : rates.entrySet()) {
                maxRate = Math.max(maxRate, e.getKey());
                for (double v : e.getValue()) {
                    if (v > 0) {
                        lo = Math.min(lo, v);
                        hi = Math.max(hi, v);
                    }
                }
            }
        }
        if (!(hi > 0) || maxRate <= 0) {
            return "";
        }
        if (slo > 0) {
            lo = Math.min(lo, slo);
            hi = Math.max(hi, slo);
        }
        double logLo = Math.floor(Math.log10(lo));
        Scale at = new Scale(maxRate * 1.05, logLo, Math.max(logLo + 1, Math.ceil(Math.log10(hi))));
        StringBuilder sb = FRAME.open(title);
        FRAME.heading(sb, title);
        for (double d = at.logLo; d <= at.logHi; d++) {
            FRAME.grid(sb, at.y(Math.pow(10, d)), Svg.tick(Math.pow(10, d)), "#ddd");
        }
        for (double t : Svg.niceTicks(0, at.xMax, 6)) {
            if (t <= at.xMax) {
                FRAME.xTick(sb, at.x(t), Svg.tick(t));
            }
        }
        FRAME.axes(sb);
        FRAME.xTitle(sb, "offered rate (requests/s, open loop)", 8);
        FRAME.yTitle(sb, "latency " + what + " (ms, log; lower is better)", FRAME.top(), FRAME.plotBottom(), "");
        if (slo > 0) {
            double y = at.y(slo);
            sb.append(Svg.f(
                    "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#000' stroke-dasharray='5,4'/>%n",
                    FRAME.left(), y, FRAME.plotRight(), y));
            sb.append(Svg.f(
                    "<text x='%d' y='%.1f' font-size='11'>objective %s ms</text>%n",
                    FRAME.plotRight() + 4, y + 4, Svg.tick(slo)));
        }
        int k = 0;
        for (Map.Entry<String, TreeMap<Double, double[]>> kind : byKind.entrySet()) {
            kind(sb, kind.getKey(), kind.getValue(), k++, at);
        }
        return sb.append("</svg>\n").toString();
    }

    /** The chart's scales: the rate axis up to {@code xMax}, the latency axis from 10^logLo to 10^logHi. */
    private record Scale(double xMax, double logLo, double logHi) {
        double x(double rate) {
            return FRAME.x(rate / xMax);
        }

        double y(double v) {
            return FRAME.y((Math.log10(Math.max(v, Math.pow(10, logLo))) - logLo) / (logHi - logLo));
        }
    }

    /** One thread kind's JVMs as points, the line through their medians, and its legend entry, the {@code k}th. */
    private static void kind(StringBuilder sb, String name, TreeMap<Double, double[]> rates, int k, Scale at) {
        String c = Svg.colour(k);
        List<String> path = new ArrayList<>();
        for (Map.Entry<Double, double[]> e : rates.entrySet()) {
            double x = at.x(e.getKey());
            double[] v = e.getValue().clone();
            Arrays.sort(v);
            for (double p : v) {
                if (p > 0) {
                    sb.append(Svg.f(
                            "<circle cx='%.1f' cy='%.1f' r='3' fill='%s' fill-opacity='0.5'><title>%s at %s/s: %s"
                                    + " ms</title></circle>%n",
                            x, at.y(p), c, Svg.esc(name), Svg.tick(e.getKey()), Svg.num(p)));
                }
            }
            if (v.length > 0 && v[v.length / 2] > 0) {
                path.add(Svg.f("%.1f,%.1f", x, at.y(v[v.length / 2])));
            }
        }
        if (path.size() > 1) {
            sb.append(Svg.f(
                    "<polyline points='%s' fill='none' stroke='%s' stroke-width='2'/>%n", String.join(" ", path), c));
        }
        // the legend says what the kind drew: a line, its JVMs' points at one rate, or nothing
        sb.append(Svg.f(
                "<text x='%d' y='%d' fill='%s'>%s</text>%n",
                FRAME.plotRight() + 4,
                FRAME.top() + 16 * (k + 1),
                c,
                Svg.esc(name + (path.size() > 1 ? "" : path.size() == 1 ? " (points)" : ": no latency"))));
    }
}
