package dev.loomscope.analyzer.report;

import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.stats.Boxplot;
import dev.loomscope.analyzer.stats.Regression;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Inline SVG charts for the report: boxplots side by side, and scatter plots with regression lines and bands. */
final class Svg {
    static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    private static final int W = 520;
    private static final int H = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 20;
    private static final int BOTTOM = 40;

    private Svg() {}

    static String colour(int i) {
        return COLOURS[i % COLOURS.length];
    }

    /** Maps [lo, hi] to the plot's vertical pixels (top = hi). */
    private record Scale(double lo, double hi) {
        double y(double v) {
            return TOP + (H - TOP - BOTTOM) * (1 - (v - lo) / (hi - lo));
        }

        static Scale of(double lo, double hi) {
            if (!(hi > lo)) {
                double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
                return new Scale(lo - pad, hi + pad);
            }
            double pad = (hi - lo) * 0.05;
            return new Scale(lo - pad, hi + pad);
        }
    }

    static String boxplot(MetricResult r) {
        Map<String, Boxplot> boxes = r.boxplots();
        double lo = boxes.values().stream().mapToDouble(Boxplot::min).min().orElse(0);
        double hi = boxes.values().stream().mapToDouble(Boxplot::max).max().orElse(1);
        Scale s = Scale.of(lo, hi);
        StringBuilder sb = open("Boxplot of " + r.metric().name());
        axis(sb, s, r.metric().unit());
        int n = boxes.size();
        double slot = (W - LEFT - RIGHT) / (double) n;
        int i = 0;
        for (Map.Entry<String, Boxplot> e : boxes.entrySet()) {
            Boxplot b = e.getValue();
            double cx = LEFT + slot * (i + 0.5);
            double half = Math.min(40, slot / 4);
            String c = colour(i);
            line(sb, cx, s.y(b.lowerWhisker()), cx, s.y(b.q1()), c);
            line(sb, cx, s.y(b.q3()), cx, s.y(b.upperWhisker()), c);
            line(sb, cx - half / 2, s.y(b.lowerWhisker()), cx + half / 2, s.y(b.lowerWhisker()), c);
            line(sb, cx - half / 2, s.y(b.upperWhisker()), cx + half / 2, s.y(b.upperWhisker()), c);
            sb.append(f("<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' fill-opacity='0.25' stroke='%s'/>%n", cx - half,
                    s.y(b.q3()), 2 * half, Math.max(1, s.y(b.q1()) - s.y(b.q3())), c, c));
            sb.append(f("<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s' stroke-width='3'/>%n", cx - half, s.y(b.median()), cx + half,
                    s.y(b.median()), c));
            for (double o : b.outliers()) {
                sb.append(f("<circle cx='%.1f' cy='%.1f' r='3' fill='none' stroke='%s'><title>%s</title></circle>%n", cx, s.y(o), c, num(o)));
            }
            sb.append(f("<text x='%.1f' y='%d' text-anchor='middle'>%s (n=%d)</text>%n", cx, H - 12, esc(e.getKey()), b.n()));
            i++;
        }
        return sb.append("</svg>\n").toString();
    }

    static String scatter(MetricResult r) {
        double xlo = Double.MAX_VALUE;
        double xhi = -Double.MAX_VALUE;
        double ylo = Double.MAX_VALUE;
        double yhi = -Double.MAX_VALUE;
        for (double[][] xy : r.points().values()) {
            for (int k = 0; k < xy[0].length; k++) {
                xlo = Math.min(xlo, xy[0][k]);
                xhi = Math.max(xhi, xy[0][k]);
                ylo = Math.min(ylo, xy[1][k]);
                yhi = Math.max(yhi, xy[1][k]);
            }
        }
        for (Map.Entry<String, Regression> e : r.regressions().entrySet()) {
            double[] x = r.points().get(e.getKey())[0];
            for (double xv : new double[] {xlo, xhi}) {
                double yv = e.getValue().intercept() + e.getValue().slope() * xv;
                double band = e.getValue().predictionHalfWidthAt(xv, x);
                if (!Double.isNaN(yv) && !Double.isNaN(band)) {
                    ylo = Math.min(ylo, yv - band);
                    yhi = Math.max(yhi, yv + band);
                }
            }
        }
        Scale s = Scale.of(ylo, yhi);
        double xl = xlo == xhi ? xlo - 1 : xlo;
        double xh = xlo == xhi ? xhi + 1 : xhi;
        java.util.function.DoubleUnaryOperator px = v -> LEFT + (W - LEFT - RIGHT) * (v - xl) / (xh - xl);
        StringBuilder sb = open("Scatter of " + r.metric().name() + " with regression lines and 95% prediction bands");
        axis(sb, s, r.metric().unit());
        sb.append(f("<text x='%d' y='%d' text-anchor='middle'>%s</text>%n", (LEFT + W - RIGHT) / 2, H - 4, esc(r.xLabel())));
        int i = 0;
        List<String> groups = List.copyOf(r.points().keySet());
        for (String g : groups) {
            String c = colour(i++);
            double[][] xy = r.points().get(g);
            Regression reg = r.regressions().get(g);
            if (reg != null && !Double.isNaN(reg.slope())) {
                StringBuilder band = new StringBuilder();
                int steps = 24;
                for (int k = 0; k <= steps; k++) {
                    double xv = xl + (xh - xl) * k / steps;
                    band.append(f("%.1f,%.1f ", px.applyAsDouble(xv), s.y(reg.intercept() + reg.slope() * xv + reg.predictionHalfWidthAt(xv, xy[0]))));
                }
                for (int k = steps; k >= 0; k--) {
                    double xv = xl + (xh - xl) * k / steps;
                    band.append(f("%.1f,%.1f ", px.applyAsDouble(xv), s.y(reg.intercept() + reg.slope() * xv - reg.predictionHalfWidthAt(xv, xy[0]))));
                }
                sb.append(f("<polygon points='%s' fill='%s' fill-opacity='0.12' stroke='none'/>%n", band.toString().strip(), c));
                line(sb, px.applyAsDouble(xl), s.y(reg.intercept() + reg.slope() * xl), px.applyAsDouble(xh), s.y(reg.intercept() + reg.slope() * xh), c);
            }
            for (int k = 0; k < xy[0].length; k++) {
                sb.append(f("<circle cx='%.1f' cy='%.1f' r='3' fill='%s'><title>%s %s</title></circle>%n", px.applyAsDouble(xy[0][k]), s.y(xy[1][k]), c,
                        esc(g), num(xy[1][k])));
            }
        }
        int k = 0;
        for (String g : groups) {
            sb.append(f("<text x='%d' y='%d' fill='%s'>&#9679; %s</text>%n", LEFT + 10 + 110 * k, TOP + 12, colour(k), esc(g)));
            k++;
        }
        return sb.append("</svg>\n").toString();
    }

    /**
     * Grouped bars: for each label one bar per series (platform, virtual), with error bars where
     * given; on a log10 axis when {@code log} (context switches span orders of magnitude).
     */
    static String bars(String title, String unit, List<String> labels, List<String> series, double[][] values, double[][] errors, boolean log) {
        int width = Math.max(W, LEFT + RIGHT + 70 * labels.size());
        double hi = 0;
        double lo = Double.MAX_VALUE;
        for (int sIdx = 0; sIdx < series.size(); sIdx++) {
            for (int k = 0; k < labels.size(); k++) {
                double v = values[sIdx][k];
                double e = errors == null || Double.isNaN(errors[sIdx][k]) ? 0 : errors[sIdx][k];
                if (!Double.isNaN(v) && (!log || v > 0)) {
                    hi = Math.max(hi, v + e);
                    lo = Math.min(lo, v);
                }
            }
        }
        double top = log ? Math.ceil(Math.log10(Math.max(hi, 1e-9))) : hi * 1.05;
        double bottom = log ? Math.floor(Math.log10(lo == Double.MAX_VALUE ? 1 : lo)) - (lo == hi ? 1 : 0) : 0;
        Scale s = new Scale(bottom, top > bottom ? top : bottom + 1);
        java.util.function.DoubleUnaryOperator y = v -> s.y(log ? Math.log10(v) : v);
        StringBuilder sb = new StringBuilder(f("<svg viewBox='0 0 %d %d' width='%d' height='%d' role='img'><title>%s</title>%n", width, H, width, H, esc(title)));
        line(sb, LEFT, TOP, LEFT, H - BOTTOM, "#444");
        line(sb, LEFT, H - BOTTOM, width - RIGHT, H - BOTTOM, "#444");
        for (int t = 0; t <= 4; t++) {
            double v = s.lo + (s.hi - s.lo) * t / 4;
            double py = s.y(v);
            sb.append(f("<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/>%n", LEFT, py, width - RIGHT, py));
            sb.append(f("<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%s</text>%n", LEFT - 4, py + 4, num(log ? Math.pow(10, v) : v)));
        }
        sb.append(f("<text x='14' y='%d' transform='rotate(-90 14 %d)' text-anchor='middle'>%s</text>%n", (TOP + H - BOTTOM) / 2,
                (TOP + H - BOTTOM) / 2, esc(unit + (log ? ", log scale" : ""))));
        double slot = (width - LEFT - RIGHT) / (double) Math.max(1, labels.size());
        double bar = Math.min(28, slot * 0.8 / series.size());
        for (int k = 0; k < labels.size(); k++) {
            double x0 = LEFT + slot * k + (slot - bar * series.size()) / 2;
            for (int sIdx = 0; sIdx < series.size(); sIdx++) {
                double v = values[sIdx][k];
                if (Double.isNaN(v) || (log && v <= 0)) {
                    continue;
                }
                double x = x0 + bar * sIdx;
                double py = y.applyAsDouble(v);
                sb.append(f("<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' fill-opacity='0.7'><title>%s %s: %s %s</title></rect>%n", x, py,
                        bar - 2, Math.max(1, H - BOTTOM - py), colour(sIdx), esc(labels.get(k)), esc(series.get(sIdx)), num(v), esc(unit)));
                double e = errors == null ? Double.NaN : errors[sIdx][k];
                if (!Double.isNaN(e) && e > 0 && (!log || v - e > 0)) {
                    double cx = x + (bar - 2) / 2;
                    line(sb, cx, y.applyAsDouble(v + e), cx, y.applyAsDouble(Math.max(v - e, log ? Double.MIN_NORMAL : 0)), "#222");
                }
            }
            sb.append(f("<text x='%.1f' y='%d' text-anchor='middle' font-size='10'>%s</text>%n", LEFT + slot * (k + 0.5), H - BOTTOM + 14,
                    esc(shorten(labels.get(k), (int) (slot / 6)))));
        }
        for (int sIdx = 0; sIdx < series.size(); sIdx++) {
            sb.append(f("<text x='%d' y='%d' fill='%s'>&#9632; %s</text>%n", LEFT + 10 + 110 * sIdx, TOP + 12, colour(sIdx), esc(series.get(sIdx))));
        }
        return sb.append("</svg>\n").toString();
    }

    private static String shorten(String s, int max) {
        return s.length() <= Math.max(max, 4) ? s : s.substring(0, Math.max(max, 4) - 1) + "\u2026";
    }

    private static StringBuilder open(String title) {
        return new StringBuilder(f("<svg viewBox='0 0 %d %d' width='%d' height='%d' role='img'>"
                + "<title>%s</title>%n", W, H, W, H, esc(title)));
    }

    private static void axis(StringBuilder sb, Scale s, String unit) {
        line(sb, LEFT, TOP, LEFT, H - BOTTOM, "#444");
        line(sb, LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM, "#444");
        for (int t = 0; t <= 4; t++) {
            double v = s.lo + (s.hi - s.lo) * t / 4;
            double y = s.y(v);
            sb.append(f("<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/>%n", LEFT, y, W - RIGHT, y));
            sb.append(f("<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%s</text>%n", LEFT - 4, y + 4, num(v)));
        }
        sb.append(f("<text x='14' y='%d' transform='rotate(-90 14 %d)' text-anchor='middle'>%s</text>%n", (TOP + H - BOTTOM) / 2,
                (TOP + H - BOTTOM) / 2, esc(unit)));
    }

    private static void line(StringBuilder sb, double x1, double y1, double x2, double y2, String c) {
        sb.append(f("<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s' stroke-width='1.5'/>%n", x1, y1, x2, y2, c));
    }

    static String num(double v) {
        double a = Math.abs(v);
        return a != 0 && (a < 0.01 || a >= 1e6) ? f("%.3g", v) : a < 10 ? f("%.2f", v) : f("%.1f", v);
    }

    static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;").replace("\"", "&quot;");
    }
}
