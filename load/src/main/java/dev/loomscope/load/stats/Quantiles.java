package dev.loomscope.load.stats;

import org.apache.commons.statistics.descriptive.Quantile;

/** Quantiles by linear interpolation between order statistics: R type 7, numpy's default. */
public final class Quantiles {
    /**
     * On a copy: by default Commons Statistics partitions the array it is given in place, which reorders a sorted one.
     */
    private static final Quantile HF7 =
            Quantile.withDefaults().with(Quantile.EstimationMethod.HF7).withCopy(true);

    private Quantiles() {}

    /** The {@code q}-quantile, q in [0, 1]; NaN for no values. The values are not reordered. */
    public static double of(double[] values, double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        return HF7.evaluate(values, Math.max(0, Math.min(1, q)));
    }
}
