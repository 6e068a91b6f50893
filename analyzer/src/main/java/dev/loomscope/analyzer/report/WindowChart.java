package dev.loomscope.analyzer.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A service's client-side latency window by window (warm-up and measured), with what the recording saw in the same
 * windows underneath: the time virtual threads were pinned and the GC pauses, each in milliseconds a second of the
 * window. One JVM a thread kind (the one whose measured windows' median latency is the kind's median), so a latency
 * that climbs can be read against the pins or pauses of the same seconds.
 */
public final class WindowChart {
    private static final Svg.Frame FRAME = new Svg.Frame(620, 380, 64, 120, 30, 40);
    private static final int TOP = FRAME.top();
    /** Where the latencies' plot ends; the bars' starts 20 below. */
    private static final int SPLIT = 220;
    /** Where the legends start, right of the plots. */
    private static final int LEGEND = FRAME.plotRight() + 6;

    private WindowChart() {}

    /**
     * One window of one JVM: its start (s from the first window's), length (s), client latency (ms; NaN: none
     * answered), pinned and GC ms, and the carriers busy (virtual threads mounted, the mean of the scheduler's samples
     * in it; NaN: not sampled, as before JDK 24 or on platform threads).
     */
    public record Window(
            double at,
            double seconds,
            double latencyMs,
            boolean warmup,
            double pinnedMs,
            double gcMs,
            double carriersBusy) {}

    /**
     * {@code byKind}: a thread kind to its windows in order; {@code about} says more in the chart's tooltip (which
     * percentile, which JVMs); empty when no window has a latency.
     */
    public static String of(String title, String about, Map<String, List<Window>> byKind) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        double end = 0;
        double below = 0;
        for (List<Window> ws : byKind.values()) {
            for (Window w : ws) {
                if (w.latencyMs() > 0) {
                    lo = Math.min(lo, w.latencyMs());
                    hi = Math.max(hi, w.latencyMs());
                }
                end = Math.max(end, w.at() + w.seconds());
                below = Math.max(
                        below,
                        Math.max(
                                Math.max(w.pinnedMs(), w.gcMs()) / w.seconds(),
                                w.carriersBusy() > 0 ? 1000 * w.carriersBusy() : 0));
            }
        }
        if (!(hi > 0) || end <= 0) {
            return "";
        }
        double logLo = Math.floor(Math.log10(lo));
        double logHi = Math.max(logLo + 1, Math.ceil(Math.log10(hi)));
        double[] ticks = Svg.niceTicks(0, Math.max(below, 1), 4);
        double belowHi = ticks[ticks.length - 1];
        StringBuilder sb = FRAME.open(title + " (" + about + ")");
        FRAME.heading(sb, title);
        axes(sb, logLo, logHi, ticks, belowHi, end);
        int k = 0;
        for (Map.Entry<String, List<Window>> kind : byKind.entrySet()) {
            kind(sb, k++, kind.getKey(), kind.getValue(), logLo, logHi, belowHi, end);
        }
        legend(sb, byKind);
        return sb.append("</svg>\n").toString();
    }

    /** The latency's decades above, the bars' scale below, the seconds along: lines, ticks and titles. */
    private static void axes(StringBuilder sb, double logLo, double logHi, double[] ticks, double belowHi, double end) {
        for (double d = logLo; d <= logHi; d++) {
            FRAME.grid(sb, top(Math.pow(10, d), logLo, logHi), Svg.tick(Math.pow(10, d)), "#ddd");
        }
        for (double t : ticks) {
            FRAME.grid(sb, bottom(t, belowHi), Svg.tick(t), "#eee");
        }
        for (double t : Svg.niceTicks(0, end, 8)) {
            if (t <= end) {
                FRAME.xTick(sb, x(t, end), Svg.tick(t));
            }
        }
        FRAME.xTitle(sb, "seconds from the first window (shaded: warm-up)", 6);
        FRAME.yTitle(sb, "client latency, ms (log)", TOP, SPLIT, " font-size='12'");
        FRAME.yTitle(sb, "pinned, GC (ms/s)", SPLIT + 20, FRAME.plotBottom(), " font-size='11'");
    }

    /**
     * Kind {@code k}'s line of latencies, its bars of pinned and GC time and its busy carriers, and its name beside the
     * chart.
     */
    private static void kind(
            StringBuilder sb,
            int k,
            String name,
            List<Window> windows,
            double logLo,
            double logHi,
            double belowHi,
            double end) {
        String c = Svg.colour(k);
        List<String> line = new ArrayList<>();
        List<String> busy = new ArrayList<>();
        for (Window w : windows) {
            double x0 = x(w.at(), end);
            double x1 = x(w.at() + w.seconds(), end);
            if (k == 0 && w.warmup()) {
                sb.append(Svg.f(
                        "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#f2f2f2'/>%n",
                        x0, TOP, x1 - x0, SPLIT - TOP));
            }
            if (w.latencyMs() > 0) {
                line.add(Svg.f("%.1f,%.1f", (x0 + x1) / 2, top(w.latencyMs(), logLo, logHi)));
            }
            // under it, this kind's half of the window: pinned time solid, GC pauses hatched by opacity
            double half = (x1 - x0) / 2;
            double bx = x0 + k * half;
            bar(sb, bx, half * 0.9, w.pinnedMs() / w.seconds(), belowHi, c, 0.9, name + " pinned", w);
            bar(sb, bx, half * 0.45, w.gcMs() / w.seconds(), belowHi, "#444", 0.6, name + " GC", w);
            if (!Double.isNaN(w.carriersBusy())) {
                // a busy carrier is 1,000 ms a second, as a carrier pinned the whole second is
                double y = bottom(1000 * w.carriersBusy(), belowHi);
                busy.add(Svg.f("%.1f,%.1f", (x0 + x1) / 2, y));
                sb.append(Svg.f(
                        "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'><title>%s carriers busy at %s s: %s (virtual"
                                + " threads mounted, mean of the scheduler's samples)</title></circle>%n",
                        (x0 + x1) / 2, y, c, Svg.esc(name), Svg.tick(w.at()), Svg.num(w.carriersBusy())));
            }
        }
        if (line.size() > 1) {
            sb.append(Svg.f(
                    "<polyline points='%s' fill='none' stroke='%s' stroke-width='2'/>%n", String.join(" ", line), c));
        } else if (line.size() == 1) {
            String[] xy = line.get(0).split(",");
            sb.append(Svg.f("<circle cx='%s' cy='%s' r='3' fill='%s'/>%n", xy[0], xy[1], c));
        }
        if (busy.size() > 1) {
            sb.append(Svg.f(
                    "<polyline points='%s' fill='none' stroke='%s' stroke-width='1.5' stroke-dasharray='4 3'/>%n",
                    String.join(" ", busy), c));
        }
        sb.append(Svg.f(
                "<text x='%d' y='%d' fill='%s' font-size='12'>%s</text>%n",
                LEGEND, TOP + 14 + 16 * k, c, Svg.esc(name + (line.isEmpty() ? ": no latency" : ""))));
    }

    /** What the bars below are, and the carriers' line where the scheduler was sampled. */
    private static void legend(StringBuilder sb, Map<String, List<Window>> byKind) {
        sb.append(Svg.f("<text x='%d' y='%d' font-size='11'>bars, ms a second:</text>%n", LEGEND, SPLIT + 34));
        sb.append(Svg.f("<text x='%d' y='%d' font-size='11'>pinned (1000:</text>%n", LEGEND, SPLIT + 48));
        sb.append(Svg.f("<text x='%d' y='%d' font-size='11'>a carrier), GC grey</text>%n", LEGEND, SPLIT + 62));
        boolean sampled = byKind.values().stream().flatMap(List::stream).anyMatch(w -> !Double.isNaN(w.carriersBusy()));
        sb.append(Svg.f(
                "<text x='%d' y='%d' font-size='11'>%s</text>%n",
                LEGEND, SPLIT + 80, sampled ? "dashed: carriers" : "carriers busy:"));
        sb.append(Svg.f(
                "<text x='%d' y='%d' font-size='11'>%s</text>%n",
                LEGEND, SPLIT + 94, sampled ? "busy x 1000" : "JDK 24+ only"));
    }

    private static void bar(
            StringBuilder sb,
            double x,
            double width,
            double value,
            double hi,
            String colour,
            double opacity,
            String what,
            Window w) {
        if (!(value > 0)) {
            return;
        }
        double y = bottom(value, hi);
        sb.append(Svg.f(
                "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s' fill-opacity='%.1f'><title>%s at %s s: %s"
                        + " ms a second</title></rect>%n",
                x,
                y,
                Math.max(1, width),
                bottom(0, hi) - y,
                colour,
                opacity,
                Svg.esc(what),
                Svg.tick(w.at()),
                Svg.num(value)));
    }

    private static double x(double s, double end) {
        return FRAME.x(s / end);
    }

    private static double top(double v, double logLo, double logHi) {
        double t = (Math.log10(Math.max(v, Math.pow(10, logLo))) - logLo) / (logHi - logLo);
        return TOP + (SPLIT - TOP) * (1 - t);
    }

    private static double bottom(double v, double hi) {
        return SPLIT + 20 + (FRAME.plotBottom() - SPLIT - 20) * (1 - Math.min(v, hi) / hi);
    }
}
