package dev.loomscope.analyzer.load;

import dev.loomscope.analyzer.stats.Regression;
import java.util.List;

/**
 * When a service under constant load is steady: the last {@link #WINDOWS} one-second windows'
 * median latency and answered requests show no trend, by a regression of each on the window's
 * index (its slope's 95% interval holds zero, or the slope is under {@link #FLAT} of the mean a
 * window). A service that keeps getting faster is still warming up; one whose latency keeps
 * growing does not keep up with the rate, and never becomes steady.
 */
final class Steadiness {
    static final int WINDOWS = 5;
    static final double FLAT = 0.02;

    private Steadiness() {}

    /** Null when the windows are steady, else what still moves ({@code latency p50 +12.0% a second}). */
    static String moving(List<double[]> windows) {
        if (windows.size() < WINDOWS) {
            return "fewer than " + WINDOWS + " seconds of load";
        }
        List<double[]> last = windows.subList(windows.size() - WINDOWS, windows.size());
        StringBuilder moving = new StringBuilder();
        String[] names = {"answered requests", "latency p50"};
        for (int m = 0; m < names.length; m++) {
            double[] x = new double[WINDOWS];
            double[] y = new double[WINDOWS];
            for (int i = 0; i < WINDOWS; i++) {
                x[i] = i;
                y[i] = last.get(i)[m];
            }
            double mean = java.util.Arrays.stream(y).average().orElse(0);
            Regression r = Regression.of(x, y);
            boolean trend = !(r.slopeCiLow() <= 0 && r.slopeCiHigh() >= 0) && mean > 0 && Math.abs(r.slope()) / mean >= FLAT;
            if (trend) {
                moving.append(moving.isEmpty() ? "" : ", ").append(String.format(java.util.Locale.ROOT, "%s %+.1f%% a second", names[m],
                        100 * r.slope() / mean));
            }
        }
        return moving.isEmpty() ? null : moving.toString();
    }
}
