package dev.loomscope.analyzer.report;

import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.stats.Boxplot;
import dev.loomscope.flamegraphs.render.SafeHtml;
import dev.loomscope.load.stats.Regression;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;

/** Inline SVG charts for the report: boxplots side by side, and scatter plots with regression lines and bands. */
final class Svg {
    static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    /**
     * The bars' chart, at its narrowest; the boxplots' and the strip chart's are {@link #BOX_W} and {@link #STRIP_W}
     * wide.
     */
    private static final Frame FRAME = new Frame(520, 300, 70, 20, 20, 40);

    static final int BOX_W = 300;
    static final int STRIP_W = 560;
    private static final int H = FRAME.height();
    private static final int LEFT = FRAME.left();
    private static final int RIGHT = FRAME.right();
    private static final int TOP = FRAME.top();
    private static final int BOTTOM = FRAME.bottom();

    private Svg() {}

    /**
     * A chart's size and its plot's margins, and what every chart draws the same way around its plot: the opening tag,
     * the heading, grid lines with their values, tick labels and the axes' titles. {@code x} and {@code y} place a
     * fraction of the plot (y from its bottom).
     */
    record Frame(int width, int height, int left, int right, int top, int bottom) {
        Frame withWidth(int w) {
            return new Frame(w, height, left, right, top, bottom);
        }

        /** The plot's right edge. */
        int plotRight() {
            return width - right;
        }

        /** The plot's bottom edge. */
        int plotBottom() {
            return height - bottom;
        }

        double x(double fraction) {
            return left + (width - left - right) * fraction;
        }

        double y(double fraction) {
            return top + (height - top - bottom) * (1 - fraction);
        }

        StringBuilder open(String title) {
            return new StringBuilder(f(
                    "<svg viewBox='0 0 %d %d' width='%d' height='%d' role='img'><title>%s</title>%n",
                    width, height, width, height, esc(title)));
        }

        /** The chart's name above its plot. */
        void heading(StringBuilder sb, String title) {
            sb.append(f("<text x='%d' y='18' font-weight='bold'>%s</text>%n", left, esc(title)));
        }

        /** A grid line across the plot at {@code y}, its value written left of it. */
        void grid(StringBuilder sb, double y, String value, String stroke) {
            sb.append(f("<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='%s'/>%n", left, y, plotRight(), y, stroke));
            sb.append(f("<text x='%d' y='%.1f' text-anchor='end' font-size='11'>%s</text>%n", left - 4, y + 4, value));
        }

        /** A value under the plot at {@code x}. */
        void xTick(StringBuilder sb, double x, String value) {
            sb.append(f(
                    "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%s</text>%n",
                    x, plotBottom() + 16, value));
        }

        /** The x axis's title, centred under the plot with its baseline {@code up} above the chart's bottom. */
        void xTitle(StringBuilder sb, String title, int up) {
            sb.append(f(
                    "<text x='%d' y='%d' text-anchor='middle'>%s</text>%n",
                    (left + plotRight()) / 2, height - up, esc(title)));
        }

        /**
         * A y axis's title, turned, centred between {@code y0} and {@code y1}; {@code attributes} such as a font size.
         */
        void yTitle(StringBuilder sb, String title, int y0, int y1, String attributes) {
            sb.append(f(
                    "<text x='14' y='%d' transform='rotate(-90 14 %d)' text-anchor='middle'%s>%s</text>%n",
                    (y0 + y1) / 2, (y0 + y1) / 2, attributes, esc(title)));
        }

        /** The axes: the plot's left and bottom edges. */
        void axes(StringBuilder sb) {
            line(sb, left, top, left, plotBottom(), "#444");
            line(sb, left, plotBottom(), plotRight(), plotBottom(), "#444");
        }
    }

    /**
     * The forks' colours: none of them a group's (blue and red are the thread kinds'), so a fork never reads as a kind.
     */
    static final String[] FORK_COLOURS = {
        "#17becf", "#bcbd22", "#e377c2", "#7f7f7f", "#8c564b", "#ff7f0e", "#2ca02c", "#9467bd"
    };

    static String colour(int i) {
        return COLOURS[i % COLOURS.length];
    }

    static String forkColour(int i) {
        return FORK_COLOURS[i % FORK_COLOURS.length];
    }

    /** Maps [lo, hi] to the plot's vertical pixels (top = hi). */
    private record Scale(double lo, double hi) {
        double y(double v) {
            return FRAME.y((v - lo) / (hi - lo));
        }
    }

    /**
     * Round tick values covering [lo, hi]: a step of 1, 2 or 5 times a power of ten, at most {@code max} ticks; the
     * first tick at or below lo, the last at or above hi.
     */
    static double[] niceTicks(double lo, double hi, int max) {
        // equal, or apart by a rounding error only (one value, or two that differ in the last digit): an axis around
        // them
        if (!(hi - lo > 1e-9 * Math.max(1, Math.max(Math.abs(lo), Math.abs(hi))))) {
            double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
            lo -= pad;
            hi += pad;
        }
        double step = 0;
        for (double p = Math.pow(10, Math.floor(Math.log10((hi - lo) / max))); step == 0; p *= 10) {
            for (double m : new double[] {1, 2, 5}) {
                if (Math.ceil(hi / (m * p) - 1e-9) - Math.floor(lo / (m * p) + 1e-9) + 1 <= max) {
                    step = m * p;
                    break;
                }
            }
        }
        long first = (long) Math.floor(lo / step + 1e-9);
        long last = (long) Math.ceil(hi / step - 1e-9);
        double[] ticks = new double[(int) (last - first + 1)];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = (first + i) * step;
        }
        return ticks;
    }

    /** The y axis's label: the unit and which way is better. */
    static String yLabel(MetricResult r) {
        return r.metric().unit() + ", " + r.metric().direction();
    }

    static String boxplot(MetricResult r) {
        Map<String, Boxplot> boxes = r.boxplots();
        double lo = boxes.values().stream().mapToDouble(Boxplot::min).min().orElse(0);
        double hi = boxes.values().stream().mapToDouble(Boxplot::max).max().orElse(1);
        double[] ticks = niceTicks(lo, hi, 6);
        Scale s = new Scale(ticks[0], ticks[ticks.length - 1]);
        StringBuilder sb = open("Boxplot of " + r.metric().name(), BOX_W);
        axis(sb, s, ticks, yLabel(r), BOX_W);
        int n = boxes.size();
        double slot = (BOX_W - LEFT - RIGHT) / (double) n;
        int i = 0;
        for (Map.Entry<String, Boxplot> e : boxes.entrySet()) {
            Boxplot b = e.getValue();
            double cx = LEFT + slot * (i + 0.5);
            double half = Math.min(40, slot / 4);
            String c = colour(i);
            sb.append(f(
                    "<text x='%.1f' y='%d' text-anchor='middle'>%s (n=%d)</text>%n",
                    cx, H - 12, esc(e.getKey()), b.n()));
            if (b.n() < 5) {
                // too few values for quartiles to mean anything: the values themselves
                double[] v = r.points().get(e.getKey())[1];
                for (double y : v) {
                    sb.append(f(
                            "<circle cx='%.1f' cy='%.1f' r='4' fill='%s'><title>%s</title></circle>%n",
                            cx, s.y(y), c, num(y)));
                }
                i++;
                continue;
            }
            // classes the report's browser test measures by: a whisker's cap never inside its box
            sb.append("<g class='box'>\n");
            line(sb, cx, s.y(b.lowerWhisker()), cx, s.y(b.q1()), c);
            line(sb, cx, s.y(b.q3()), cx, s.y(b.upperWhisker()), c);
            sb.append(f(
                    "<line class='whisker-low' x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s'"
                            + " stroke-width='1.5'/>%n",
                    cx - half / 2, s.y(b.lowerWhisker()), cx + half / 2, s.y(b.lowerWhisker()), c));
            sb.append(f(
                    "<line class='whisker-high' x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s'"
                            + " stroke-width='1.5'/>%n",
                    cx - half / 2, s.y(b.upperWhisker()), cx + half / 2, s.y(b.upperWhisker()), c));
            sb.append(f(
                    "<rect class='iqr' x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' fill-opacity='0.25'"
                            + " stroke='%s'/>%n",
                    cx - half, s.y(b.q3()), 2 * half, Math.max(1, s.y(b.q1()) - s.y(b.q3())), c, c));
            sb.append("</g>\n");
            sb.append(f(
                    "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s' stroke-width='3'/>%n",
                    cx - half, s.y(b.median()), cx + half, s.y(b.median()), c));
            for (double o : b.outliers()) {
                sb.append(f(
                        "<circle cx='%.1f' cy='%.1f' r='3' fill='none' stroke='%s'><title>%s</title></circle>%n",
                        cx, s.y(o), c, num(o)));
            }
            i++;
        }
        return sb.append("</svg>\n").toString();
    }

    /**
     * A strip chart's ranges: every run's values and index, and each fork's regression (5 runs or more, by group and
     * recording) with its prediction band at both ends.
     */
    private record Fits(double ylo, double yhi, double xhi, Map<String, Regression> byFork) {
        static Fits of(MetricResult r) {
            double ylo = Double.MAX_VALUE;
            double yhi = -Double.MAX_VALUE;
            double xhi = 0;
            for (List<MetricResult.Series> forks : r.series().values()) {
                for (MetricResult.Series f : forks) {
                    for (int k = 0; k < f.y().length; k++) {
                        ylo = Math.min(ylo, f.y()[k]);
                        yhi = Math.max(yhi, f.y()[k]);
                        xhi = Math.max(xhi, f.x()[k]);
                    }
                }
            }
            Map<String, Regression> fits = new HashMap<>();
            for (String g : r.series().keySet()) {
                for (MetricResult.Series f : r.series().get(g)) {
                    if (f.y().length >= 5) {
                        Regression reg = Regression.of(f.x(), f.y());
                        fits.put(g + "\u0000" + f.recording(), reg);
                        for (double xv : new double[] {0, xhi}) {
                            double band = reg.predictionHalfWidthAt(xv, f.x());
                            double yv = reg.intercept() + reg.slope() * xv;
                            if (!Double.isNaN(yv) && !Double.isNaN(band)) {
                                ylo = Math.min(ylo, yv - band);
                                yhi = Math.max(yhi, yv + band);
                            }
                        }
                    }
                }
            }
            return new Fits(ylo, yhi, xhi, fits);
        }
    }

    /**
     * Every run, one panel per group side by side on one y scale: x is the run's index within its JVM, colour its fork
     * (the group's recordings in order), so a fork-to-fork jump does not read as a trend; each fork's regression line
     * and 95% prediction band where it has 5 runs or more.
     */
    static String strip(MetricResult r) {
        Fits fits = Fits.of(r);
        double ylo = fits.ylo();
        double yhi = fits.yhi();
        double xhi = fits.xhi();
        List<String> groups = List.copyOf(r.series().keySet());
        // every metric is a time, a count, a rate or a size: its band stops at zero, where its values do
        double floor = 0;
        ylo = Math.max(floor, ylo);
        yhi = Math.max(yhi, ylo);
        double[] ticks =
                Arrays.stream(niceTicks(ylo, yhi, 6)).filter(t -> t >= floor).toArray();
        if (ticks.length < 2) { // every value at the floor (no collection in any run): an axis from it up
            ticks = new double[] {floor, floor + 1};
        }
        Scale s = new Scale(ticks[0], ticks[ticks.length - 1]);
        DoubleUnaryOperator clip = v -> s.y(Double.isNaN(v) ? floor : Math.max(floor, Math.min(s.hi(), v)));
        StringBuilder sb = open(
                "Every run of " + r.metric().name() + " by fork, with each fork's regression and 95% prediction band",
                STRIP_W);
        axis(sb, s, ticks, yLabel(r), STRIP_W);
        sb.append(f(
                "<line class='floor' x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='none'/>%n",
                LEFT, s.y(s.lo()), STRIP_W - RIGHT, s.y(s.lo())));
        double panel = (STRIP_W - LEFT - RIGHT) / (double) Math.max(1, groups.size());
        double xMax = Math.max(1, xhi);
        for (int gi = 0; gi < groups.size(); gi++) {
            String g = groups.get(gi);
            double x0 = LEFT + panel * gi + 12;
            double x1 = LEFT + panel * (gi + 1) - 12;
            DoubleUnaryOperator px = v -> x0 + (x1 - x0) * v / xMax;
            if (gi > 0) {
                line(sb, LEFT + panel * gi, TOP, LEFT + panel * gi, H - BOTTOM, "#bbb");
            }
            sb.append(f(
                    "<text x='%.1f' y='%d' text-anchor='middle' font-weight='600'>%s</text>%n",
                    (x0 + x1) / 2, TOP + 12, esc(g)));
            for (int t = 0; t <= (int) xMax; t += Math.max(1, (int) Math.ceil(xMax / 6))) {
                sb.append(f(
                        "<text x='%.1f' y='%d' text-anchor='middle' font-size='10'>%d</text>%n",
                        px.applyAsDouble(t), H - BOTTOM + 13, t + 1));
            }
            List<MetricResult.Series> forks = r.series().get(g);
            // the legend: a swatch a fork under the group's name, its recording on hover
            for (int fi = 0; fi < forks.size(); fi++) {
                sb.append(f(
                        "<g class='legend'><rect x='%.1f' y='%d' width='8' height='8' fill='%s'/><text x='%.1f' y='%d'"
                                + " font-size='9'>%d</text><title>fork %d: %s</title></g>%n",
                        x0 + 14.0 * fi,
                        TOP + 17,
                        forkColour(fi),
                        x0 + 14.0 * fi + 9,
                        TOP + 25,
                        fi + 1,
                        fi + 1,
                        esc(forks.get(fi).recording())));
            }
            for (int fi = 0; fi < forks.size(); fi++) {
                fork(
                        sb,
                        g,
                        forks.get(fi),
                        forkColour(fi),
                        fits.byFork().get(g + "\u0000" + forks.get(fi).recording()),
                        px,
                        clip,
                        s,
                        xMax);
            }
        }
        FRAME.withWidth(STRIP_W).xTitle(sb, "run within its JVM; colour: fork (numbered under each group)", 4);
        return sb.append("</svg>\n").toString();
    }

    /** One fork's regression line and its 95% prediction band (5 runs or more), then its runs as points. */
    private static void fork(
            StringBuilder sb,
            String g,
            MetricResult.Series f,
            String c,
            Regression reg,
            DoubleUnaryOperator px,
            DoubleUnaryOperator clip,
            Scale s,
            double xMax) {
        if (reg != null && !Double.isNaN(reg.slope())) {
            StringBuilder band = new StringBuilder();
            int steps = 12;
            for (int k = 0; k <= steps; k++) {
                double xv = xMax * k / steps;
                band.append(f(
                        "%.1f,%.1f ",
                        px.applyAsDouble(xv),
                        clip.applyAsDouble(reg.intercept() + reg.slope() * xv + reg.predictionHalfWidthAt(xv, f.x()))));
            }
            for (int k = steps; k >= 0; k--) {
                double xv = xMax * k / steps;
                band.append(f(
                        "%.1f,%.1f ",
                        px.applyAsDouble(xv),
                        clip.applyAsDouble(reg.intercept() + reg.slope() * xv - reg.predictionHalfWidthAt(xv, f.x()))));
            }
            sb.append(f(
                    "<polygon class='band' points='%s' fill='%s' fill-opacity='0.10' stroke='none'/>%n",
                    band.toString().strip(), c));
            line(
                    sb,
                    px.applyAsDouble(0),
                    clip.applyAsDouble(reg.intercept()),
                    px.applyAsDouble(xMax),
                    clip.applyAsDouble(reg.intercept() + reg.slope() * xMax),
                    c);
        }
        for (int k = 0; k < f.y().length; k++) {
            sb.append(f(
                    "<circle cx='%.1f' cy='%.1f' r='3.5' fill='%s'><title>%s, %s, run %d: %s</title></circle>%n",
                    px.applyAsDouble(f.x()[k]),
                    s.y(f.y()[k]),
                    c,
                    esc(g),
                    esc(f.recording()),
                    (int) f.x()[k] + 1,
                    num(f.y()[k])));
        }
    }

    /**
     * The bars' scale: from zero (or the smallest value's decade on a log axis) to the highest value with its error
     * bar.
     */
    private static Scale barScale(double[][] values, double[][] errors, boolean log) {
        double hi = 0;
        double lo = Double.MAX_VALUE;
        for (int sIdx = 0; sIdx < values.length; sIdx++) {
            for (int k = 0; k < values[sIdx].length; k++) {
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
        return new Scale(bottom, top > bottom ? top : bottom + 1);
    }

    /**
     * Grouped bars: for each label one bar per series (platform, virtual), with error bars where given; on a log10 axis
     * when {@code log} (context switches span orders of magnitude).
     */
    static String bars(
            String title,
            String unit,
            List<String> labels,
            List<String> series,
            double[][] values,
            double[][] errors,
            boolean log) {
        int width = Math.max(FRAME.width(), LEFT + RIGHT + 70 * labels.size());
        Scale s = barScale(values, errors, log);
        DoubleUnaryOperator y = v -> s.y(log ? Math.log10(v) : v);
        StringBuilder sb = open(title, width);
        double[] ticks = new double[5];
        for (int t = 0; t <= 4; t++) {
            ticks[t] = s.lo + (s.hi - s.lo) * t / 4;
        }
        axis(sb, s, ticks, unit + (log ? ", log scale" : ""), width, v -> num(log ? Math.pow(10, v) : v));
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
                sb.append(f(
                        "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' fill-opacity='0.7'><title>%s %s:"
                                + " %s %s</title></rect>%n",
                        x,
                        py,
                        bar - 2,
                        Math.max(1, H - BOTTOM - py),
                        colour(sIdx),
                        esc(labels.get(k)),
                        esc(series.get(sIdx)),
                        num(v),
                        esc(unit)));
                double e = errors == null ? Double.NaN : errors[sIdx][k];
                if (!Double.isNaN(e) && e > 0 && (!log || v - e > 0)) {
                    double cx = x + (bar - 2) / 2;
                    line(
                            sb,
                            cx,
                            y.applyAsDouble(v + e),
                            cx,
                            y.applyAsDouble(Math.max(v - e, log ? Double.MIN_NORMAL : 0)),
                            "#222");
                }
            }
            sb.append(f(
                    "<text x='%.1f' y='%d' text-anchor='middle' font-size='10'>%s</text>%n",
                    LEFT + slot * (k + 0.5), H - BOTTOM + 14, esc(shorten(labels.get(k), (int) (slot / 6)))));
        }
        for (int sIdx = 0; sIdx < series.size(); sIdx++) {
            sb.append(f(
                    "<text x='%d' y='%d' fill='%s'>&#9632; %s</text>%n",
                    LEFT + 10 + 110 * sIdx, TOP + 12, colour(sIdx), esc(series.get(sIdx))));
        }
        return sb.append("</svg>\n").toString();
    }

    private static String shorten(String s, int max) {
        return s.length() <= Math.max(max, 4) ? s : s.substring(0, Math.max(max, 4) - 1) + "\u2026";
    }

    private static StringBuilder open(String title, int width) {
        return FRAME.withWidth(width).open(title);
    }

    /** The y axis with a grid line and label at each tick, and the axis's label. */
    private static void axis(StringBuilder sb, Scale s, double[] ticks, String label, int width) {
        axis(sb, s, ticks, label, width, Svg::tick);
    }

    /** As {@link #axis(StringBuilder, Scale, double[], String, int)}, each tick written by {@code text}. */
    private static void axis(
            StringBuilder sb, Scale s, double[] ticks, String label, int width, DoubleFunction<String> text) {
        Frame frame = FRAME.withWidth(width);
        frame.axes(sb);
        for (double v : ticks) {
            frame.grid(sb, s.y(v), text.apply(v), "#ddd");
        }
        frame.yTitle(sb, label, TOP, H - BOTTOM, "");
    }

    /** A tick value as written: no trailing zeros (0.5, 2, 1500, 2.5e+06). */
    static String tick(double v) {
        double a = Math.abs(v);
        if (a != 0 && (a < 1e-3 || a >= 1e7)) {
            return f("%.2g", v);
        }
        return BigDecimal.valueOf(v)
                .round(new MathContext(6))
                .stripTrailingZeros()
                .toPlainString();
    }

    private static void line(StringBuilder sb, double x1, double y1, double x2, double y2, String c) {
        sb.append(f(
                "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s' stroke-width='1.5'/>%n", x1, y1, x2, y2, c));
    }

    static String num(double v) {
        double a = Math.abs(v);
        return a != 0 && (a < 0.01 || a >= 1e6) ? f("%.3g", v) : a < 10 ? f("%.2f", v) : f("%.1f", v);
    }

    static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }

    /** HTML and SVG text and attribute values: the one escape every page and chart uses. */
    static String esc(String s) {
        return SafeHtml.text(s);
    }
}
