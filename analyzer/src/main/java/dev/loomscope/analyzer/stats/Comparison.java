package dev.loomscope.analyzer.stats;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.hipparchus.stat.inference.MannWhitneyUTest;

/**
 * One group against the baseline: the ratio of medians with a seeded percentile-bootstrap 95%
 * interval, a two-sided Mann-Whitney U test (exact for small samples without ties, normal
 * approximation otherwise) and Cliff's delta.
 *
 * @param ratio   median(group) / median(baseline)
 * @param u       the group's Mann-Whitney U: pairs (group, baseline) with the group's value larger, ties counting half
 * @param cliffsDelta P(group > baseline) - P(group < baseline), in [-1, 1]
 */
public record Comparison(int nGroup, int nBaseline, double ratio, double ratioCiLow, double ratioCiHigh, double u,
        double pValue, boolean exact, double cliffsDelta) {

    public static final int BOOTSTRAP_RESAMPLES = 2000;
    public static final long SEED = 20231019L;
    /** Fewer values than this in a group: the verdict says it is not reliable. */
    public static final int MIN_RELIABLE = 5;

    public static Comparison of(double[] group, double[] baseline) {
        if (group.length == 0 || baseline.length == 0) {
            throw new IllegalArgumentException("both groups need values");
        }
        double ratio = median(group) / median(baseline);
        double[] boot = new double[BOOTSTRAP_RESAMPLES];
        SplittableRandom rnd = new SplittableRandom(SEED);
        double[] g = new double[group.length];
        double[] b = new double[baseline.length];
        for (int i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
            for (int k = 0; k < g.length; k++) {
                g[k] = group[rnd.nextInt(group.length)];
            }
            for (int k = 0; k < b.length; k++) {
                b[k] = baseline[rnd.nextInt(baseline.length)];
            }
            boot[i] = median(g) / median(b);
        }
        boolean ties = hasTies(group, baseline);
        boolean exact = !ties && group.length + baseline.length <= 50;
        MannWhitneyUTest mw = new MannWhitneyUTest();
        double p = group.length + baseline.length < 3 ? Double.NaN : mw.mannWhitneyUTest(group, baseline, exact);
        long[] gtLt = pairs(group, baseline);
        long pairs = (long) group.length * baseline.length;
        double u = gtLt[0] + (pairs - gtLt[0] - gtLt[1]) / 2.0;
        return new Comparison(group.length, baseline.length, ratio, Quantiles.of(boot, 0.025), Quantiles.of(boot, 0.975),
                u, p, exact, (gtLt[0] - gtLt[1]) / (double) pairs);
    }

    public boolean reliable() {
        return nGroup >= MIN_RELIABLE && nBaseline >= MIN_RELIABLE;
    }

    static double median(double[] v) {
        return Quantiles.of(v, 0.5);
    }

    /** {pairs with a > b, pairs with a < b}. */
    static long[] pairs(double[] a, double[] b) {
        long more = 0;
        long less = 0;
        for (double x : a) {
            for (double y : b) {
                if (x > y) {
                    more++;
                } else if (x < y) {
                    less++;
                }
            }
        }
        return new long[] {more, less};
    }

    private static boolean hasTies(double[] a, double[] b) {
        double[] all = new double[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        Arrays.sort(all);
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                return true;
            }
        }
        return false;
    }
}
