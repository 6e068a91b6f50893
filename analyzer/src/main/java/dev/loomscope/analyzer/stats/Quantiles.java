package dev.loomscope.analyzer.stats;

import org.hipparchus.stat.descriptive.rank.Percentile;

/** Quantiles by linear interpolation between order statistics: R type 7, numpy's default. */
public final class Quantiles {
    private Quantiles() {}

    /** The {@code q}-quantile, q in [0, 1]; NaN for no values. */
    public static double of(double[] values, double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        if (q <= 0) {
            return java.util.Arrays.stream(values).min().orElseThrow();
        }
        return new Percentile().withEstimationType(Percentile.EstimationType.R_7).evaluate(values, Math.min(100, q * 100));
    }
}
