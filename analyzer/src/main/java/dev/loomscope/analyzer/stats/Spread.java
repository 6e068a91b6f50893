package dev.loomscope.analyzer.stats;

import dev.loomscope.load.stats.Quantiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How spread one group's values are against the baseline's, as the thesis compared its echo servers' boxes: the ratio
 * of the interquartile ranges of all values (every JVM's runs pooled), with a seeded two-level percentile-bootstrap 95%
 * interval (JVMs resampled, then the values within each, as {@link Comparison} does for the centre), and the same ratio
 * of IQRs relative to each group's median (a faster group's runs are shorter, and so often closer together, in absolute
 * terms). The verdict needs the interval alone: {@code less spread} or {@code more spread} when it excludes 1, else
 * {@code inconclusive}; with fewer than {@link #MIN_VALUES} values a group has {@code too few runs}.
 *
 * @param iqrGroup the group's IQR, quartiles R type 7
 * @param ratio iqrGroup / iqrBaseline
 * @param relativeRatio (iqrGroup / median of the group) / (iqrBaseline / median of the baseline)
 */
public record Spread(
        int jvmsGroup,
        int jvmsBaseline,
        int nGroup,
        int nBaseline,
        double iqrGroup,
        double iqrBaseline,
        double ratio,
        double ratioCiLow,
        double ratioCiHigh,
        double relativeRatio) {

    /** Fewer values than this in a group: its quartiles say too little to compare. */
    public static final int MIN_VALUES = 8;

    /** Null when either group has no values, or the baseline's IQR is zero (every run alike: no ratio). */
    public static Spread of(List<double[]> group, List<double[]> baseline) {
        List<double[]> g = group.stream().filter(v -> v.length > 0).toList();
        List<double[]> b = baseline.stream().filter(v -> v.length > 0).toList();
        if (g.isEmpty() || b.isEmpty()) {
            return null;
        }
        double[] gAll = pooled(g);
        double[] bAll = pooled(b);
        double iqrG = iqr(gAll);
        double iqrB = iqr(bAll);
        if (!(iqrB > 0)) {
            return null;
        }
        double[] boot = new double[Comparison.BOOTSTRAP_RESAMPLES];
        SplittableRandom rnd = new SplittableRandom(Comparison.SEED);
        for (int i = 0; i < boot.length; i++) {
            double resampledB = iqr(resampled(b, rnd));
            boot[i] = iqr(resampled(g, rnd)) / resampledB;
        }
        boot = Arrays.stream(boot)
                .filter(x -> !Double.isNaN(x) && !Double.isInfinite(x))
                .toArray();
        double medianG = Quantiles.of(gAll, 0.5);
        double medianB = Quantiles.of(bAll, 0.5);
        return new Spread(
                g.size(),
                b.size(),
                gAll.length,
                bAll.length,
                iqrG,
                iqrB,
                iqrG / iqrB,
                Quantiles.of(boot, 0.025),
                Quantiles.of(boot, 0.975),
                (iqrG / medianG) / (iqrB / medianB));
    }

    /** {@code less spread}, {@code more spread}, {@code inconclusive} or {@code too few runs}. */
    public String verdict() {
        if (nGroup < MIN_VALUES || nBaseline < MIN_VALUES) {
            return "too few runs";
        }
        return ratioCiHigh < 1 ? "less spread" : ratioCiLow > 1 ? "more spread" : "inconclusive";
    }

    static double iqr(double[] v) {
        return Quantiles.of(v, 0.75) - Quantiles.of(v, 0.25);
    }

    private static double[] pooled(List<double[]> jvms) {
        return jvms.stream().flatMapToDouble(Arrays::stream).toArray();
    }

    /** The JVMs resampled, then each chosen JVM's values (one value per JVM stays as it is), pooled. */
    private static double[] resampled(List<double[]> jvms, SplittableRandom rnd) {
        List<double[]> chosen = new ArrayList<>(jvms.size());
        for (int k = 0; k < jvms.size(); k++) {
            double[] v = jvms.get(rnd.nextInt(jvms.size()));
            chosen.add(v.length == 1 ? v : Comparison.resampledOf(v, rnd));
        }
        return pooled(chosen);
    }
}
