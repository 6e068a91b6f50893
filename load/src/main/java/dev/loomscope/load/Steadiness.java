package dev.loomscope.load;

import dev.loomscope.load.stats.Regression;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * When a service under constant load is steady, judged on the last {@link #WINDOWS} one-second windows together: it
 * keeps up (the requests that ended are the offered ones, within {@link ClientFigures#SLACK}: the late ones did not
 * grow), it is not draining a backlog (no more ended than offered beyond that slack), no backlog stands (no more than
 * that slack of the last window's requests waits unsent for a connection: a queue that neither grows nor drains is a
 * service at its limit, not a steady one), and no window among them answered less than half of what was due in it; and
 * the median latency (late requests at their age, a lower bound) has no trend (a regression on the window's index whose
 * slope's 95% interval holds zero, or is under {@link #FLAT} of the mean a second) and no jump (no window's median over
 * twice the others' median and 2 ms above it). A service that keeps getting faster is still warming up; one that
 * answers less than offered is not keeping up, and never becomes steady.
 */
final class Steadiness {
    static final int WINDOWS = 5;
    static final double FLAT = 0.02;

    private Steadiness() {}

    /** Null when the windows are steady, else what still moves ({@code latency p50 +12.0% a second}). */
    static String moving(List<OpenLoop.Window> windows) {
        if (windows.size() < WINDOWS) {
            return "fewer than " + WINDOWS + " seconds of load";
        }
        List<OpenLoop.Window> last = last(windows);
        long offered = offered(last);
        long ended = last.stream().mapToLong(w -> w.ok() + w.errors()).sum();
        long grown = grown(last);
        if (!ClientFigures.keptUp(offered, grown)) {
            return String.format(
                    Locale.ROOT,
                    "not keeping up: %,d of %,d offered ended over the last %d windows, %,d more late",
                    ended,
                    offered,
                    WINDOWS,
                    grown);
        }
        if (ended > offered + Math.max(2, ClientFigures.SLACK * offered)) {
            return String.format(
                    Locale.ROOT,
                    "draining a backlog: %,d answered of %,d offered over the last %d windows",
                    ended,
                    offered,
                    WINDOWS);
        }
        OpenLoop.Window end = last.get(WINDOWS - 1);
        if (end.unsent() > Math.max(2, ClientFigures.SLACK * end.offered())) {
            return String.format(
                    Locale.ROOT,
                    "a backlog stands: %,d requests not yet sent at the end (every connection busy), %,d late in all",
                    end.unsent(),
                    end.late());
        }
        for (OpenLoop.Window w : last) {
            if (w.offered() >= 10 && w.ok() + w.errors() < w.offered() / 2 && w.late() > w.lateAtStart()) {
                return String.format(
                        Locale.ROOT, "a window answered %d of %d offered", w.ok() + w.errors(), w.offered());
            }
        }
        double[] x = new double[WINDOWS];
        double[] y = new double[WINDOWS];
        for (int i = 0; i < WINDOWS; i++) {
            x[i] = i;
            y[i] = p50(last.get(i));
        }
        double[] sorted = y.clone();
        Arrays.sort(sorted);
        double median = sorted[WINDOWS / 2];
        if (sorted[WINDOWS - 1] > 2 * median && sorted[WINDOWS - 1] - median > 2_000) {
            return String.format(
                    Locale.ROOT, "latency p50 jumped to %.1f ms from %.1f ms", sorted[WINDOWS - 1] / 1e3, median / 1e3);
        }
        double mean = Arrays.stream(y).average().orElse(0);
        Regression r = Regression.of(x, y);
        if (!(r.slopeCiLow() <= 0 && r.slopeCiHigh() >= 0) && mean > 0 && Math.abs(r.slope()) / mean >= FLAT) {
            return String.format(Locale.ROOT, "latency p50 %+.1f%% a second", 100 * r.slope() / mean);
        }
        return null;
    }

    /**
     * Whether the service falls behind for good: each of the last {@link #WINDOWS} windows ended with more late than it
     * began with, and they did not keep up between them. Warming longer does not make such a step of a capacity search
     * kept (its measured windows judge the backlog's requests at their age); a young JVM's miss is taken again warm.
     */
    static boolean fallingBehind(List<OpenLoop.Window> windows) {
        if (windows.size() < WINDOWS) {
            return false;
        }
        List<OpenLoop.Window> last = last(windows);
        return last.stream().allMatch(w -> w.late() > w.lateAtStart())
                && !ClientFigures.keptUp(offered(last), grown(last));
    }

    /** The last {@link #WINDOWS} windows, which both judgements read. */
    private static List<OpenLoop.Window> last(List<OpenLoop.Window> windows) {
        return windows.subList(windows.size() - WINDOWS, windows.size());
    }

    private static long offered(List<OpenLoop.Window> last) {
        return last.stream().mapToLong(OpenLoop.Window::offered).sum();
    }

    /** How many more were late at the end of {@code last} than at its start. */
    private static long grown(List<OpenLoop.Window> last) {
        return last.get(last.size() - 1).late() - last.get(0).lateAtStart();
    }

    /** The window's median latency, microseconds, late requests at their age; 0 without any. */
    private static double p50(OpenLoop.Window w) {
        Histogram h = w.judged();
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50);
    }
}
