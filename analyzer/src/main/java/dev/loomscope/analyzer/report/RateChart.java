package dev.loomscope.analyzer.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A service's latency against the offered rate, a line per thread kind (each JVM a point, the line
 * through the kinds' medians), on a logarithmic latency axis (a service past its capacity queues
 * without bound), with the objective as a dashed line: where each kind's line crosses it is its
 * capacity.
 */
public final class RateChart {
    private static final int W = 560;
    private static final int H = 300;
    private static final int LEFT = 60;
    private static final int RIGHT = 110;
    private static final int TOP = 30;
    private static final int BOTTOM = 44;

    private RateChart() {}

    /**
     * {@code byKind}: thread kind to offered rate to its JVMs' figures (ms, one each); {@code slo}
     * the objective in ms (NaN: none); {@code what} the percentile's name ({@code p99}).
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
        double logHi = Math.max(logLo + 1, Math.ceil(Math.log10(hi)));
        double xMax = maxRate * 1.05;
        StringBuilder sb = new StringBuilder(Svg.f("<svg viewBox='0 0 %d %d' width='%d' height='%d' role='img'><title>%s</title>%n", W, H, W, H,
                Svg.esc(title)));
        sb.append(Svg.f("<text x='%d' y='18' font-weight='bold'>%s</text>%n", LEFT, Svg.esc(title)));
        for (double d = logLo; d <= logHi; d++) {
            double y = y(Math.pow(10, d), logLo, logHi);
            sb.append(Svg.f("<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/>%n", LEFT, y, W - RIGHT, y));
            sb.append(Svg.f("<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%s</text>%n", LEFT - 4, y + 4, Svg.tick(Math.pow(10, d))));
        }
        for (double t : Svg.niceTicks(0, xMax, 6)) {
            if (t > xMax) {
                break;
            }
            double x = x(t, xMax);
            sb.append(Svg.f("<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%s</text>%n", x, H - BOTTOM + 16, Svg.tick(t)));
        }
        sb.append(Svg.f("<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#444'/>%n", LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM));
        sb.append(Svg.f("<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#444'/>%n", LEFT, TOP, LEFT, H - BOTTOM));
        sb.append(Svg.f("<text x='%d' y='%d' text-anchor='middle'>offered rate (requests/s, open loop)</text>%n", (LEFT + W - RIGHT) / 2, H - 8));
        sb.append(Svg.f("<text x='14' y='%d' transform='rotate(-90 14 %d)' text-anchor='middle'>latency %s (ms, log; lower is better)</text>%n",
                (TOP + H - BOTTOM) / 2, (TOP + H - BOTTOM) / 2, Svg.esc(what)));
        if (slo > 0) {
            double y = y(slo, logLo, logHi);
            sb.append(Svg.f("<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#000' stroke-dasharray='5,4'/>%n", LEFT, y, W - RIGHT, y));
            sb.append(Svg.f("<text x='%d' y='%.1f' font-size='11'>objective %s ms</text>%n", W - RIGHT + 4, y + 4, Svg.tick(slo)));
        }
        int k = 0;
        for (Map.Entry<String, TreeMap<Double, double[]>> kind : byKind.entrySet()) {
            String c = Svg.colour(k++);
            List<String> path = new ArrayList<>();
            for (Map.Entry<Double, double[]> e : kind.getValue().entrySet()) {
                double x = x(e.getKey(), xMax);
                double[] v = e.getValue().clone();
                java.util.Arrays.sort(v);
                for (double p : v) {
                    if (p > 0) {
                        sb.append(Svg.f("<circle cx='%.1f' cy='%.1f' r='3' fill='%s' fill-opacity='0.5'><title>%s at %s/s: %s ms</title></circle>%n", x,
                                y(p, logLo, logHi), c, Svg.esc(kind.getKey()), Svg.tick(e.getKey()), Svg.num(p)));
                    }
                }
                if (v.length > 0 && v[v.length / 2] > 0) {
                    path.add(Svg.f("%.1f,%.1f", x, y(v[v.length / 2], logLo, logHi)));
                }
            }
            if (path.size() > 1) {
                sb.append(Svg.f("<polyline points='%s' fill='none' stroke='%s' stroke-width='2'/>%n", String.join(" ", path), c));
            }
            // the legend says what the kind drew: a line, its JVMs' points at one rate, or nothing
            sb.append(Svg.f("<text x='%d' y='%d' fill='%s'>%s</text>%n", W - RIGHT + 4, TOP + 16 * k, c, Svg.esc(kind.getKey()
                    + (path.size() > 1 ? "" : path.size() == 1 ? " (points)" : ": no latency"))));
        }
        return sb.append("</svg>\n").toString();
    }

    private static double x(double rate, double xMax) {
        return LEFT + (W - LEFT - RIGHT) * rate / xMax;
    }

    private static double y(double v, double logLo, double logHi) {
        double t = (Math.log10(Math.max(v, Math.pow(10, logLo))) - logLo) / (logHi - logLo);
        return TOP + (H - TOP - BOTTOM) * (1 - t);
    }
}
