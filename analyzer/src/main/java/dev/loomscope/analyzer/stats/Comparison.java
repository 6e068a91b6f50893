package dev.loomscope.analyzer.stats;

import dev.loomscope.load.stats.Quantiles;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.ContinuityCorrection;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.PValueMethod;

/**
 * One group against the baseline with the JVM as the unit of replication: runs in one JVM share its JIT decisions, heap
 * layout and the machine's moment, so they are not independent. Each JVM (recording) is summarised by the median of its
 * values; the groups are compared by the ratio of the medians of those JVM medians, with a seeded two-level
 * percentile-bootstrap 95% interval (JVMs resampled, then the values within each), a two-sided Mann-Whitney U test and
 * Cliff's delta on the JVM medians, and the share of each group's variance that lies between its JVMs. Where many
 * values are zero (runs without a collection, without a pin), a median says "none" for a group that had some:
 * {@link #ofMeans} compares the means instead (each JVM's mean, the mean of those), with the same interval and test.
 *
 * @param jvmsGroup JVMs (recordings) in the group; {@code nGroup} their values in all
 * @param ratio median of the group's JVM medians / the same of the baseline
 * @param u the group's Mann-Whitney U over JVM medians: pairs with the group's larger, ties counting half
 * @param exact the p-value is the exact distribution's (no ties among the JVM medians), else the normal approximation
 *     with tie and continuity correction
 * @param cliffsDelta P(group > baseline) - P(group < baseline) over JVM medians, in [-1, 1]
 * @param betweenGroup the share of the group's variance between its JVMs (one-way random effects); NaN when it cannot
 *     be told (fewer than 2 JVMs, or one value each)
 * @param means whether JVMs and groups are summarised by means ({@link #ofMeans}), not medians
 */
public record Comparison(
        int jvmsGroup,
        int jvmsBaseline,
        int nGroup,
        int nBaseline,
        double ratio,
        double ratioCiLow,
        double ratioCiHigh,
        double u,
        double pValue,
        boolean exact,
        double cliffsDelta,
        double betweenGroup,
        double betweenBaseline,
        boolean means) {

    public static final int BOOTSTRAP_RESAMPLES = 2000;
    public static final long SEED = 20231019L;
    /** Above this many values in a JVM its median is not resampled: its error is negligible beside the JVMs' spread. */
    static final int INNER_RESAMPLE_LIMIT = 10_000;
    /** Exact p-values up to this many JVMs in both groups together (without ties). */
    static final int EXACT_LIMIT = 50;

    /** Each value its own JVM: a recording per value. */
    public static Comparison of(double[] group, double[] baseline) {
        return of(singletons(group), singletons(baseline));
    }

    /** {@code group} and {@code baseline}: one array of values per JVM; a JVM without values is left out. */
    public static Comparison of(List<double[]> group, List<double[]> baseline) {
        return of(group, baseline, false);
    }

    /** As {@link #of(List, List)} with means in place of medians: for values that are zero in many runs. */
    public static Comparison ofMeans(List<double[]> group, List<double[]> baseline) {
        return of(group, baseline, true);
    }

    private static Comparison of(List<double[]> group, List<double[]> baseline, boolean means) {
        List<double[]> g =
                group.stream().filter(v -> v.length > 0).map(v -> sorted(v)).toList();
        List<double[]> b =
                baseline.stream().filter(v -> v.length > 0).map(v -> sorted(v)).toList();
        if (g.isEmpty() || b.isEmpty()) {
            throw new IllegalArgumentException("both groups need values");
        }
        ToDoubleFunction<double[]> center = means ? Comparison::mean : Comparison::median;
        double[] gm = g.stream().mapToDouble(center).toArray();
        double[] bm = b.stream().mapToDouble(center).toArray();
        double ratio = center.applyAsDouble(gm) / center.applyAsDouble(bm);
        double[] boot = new double[BOOTSTRAP_RESAMPLES];
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (int i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
            boot[i] = resampled(g, center, rnd) / resampled(b, center, rnd);
        }
        Test t = test(gm, bm);
        long[] gtLt = pairs(gm, bm);
        long pairs = (long) gm.length * bm.length;
        return new Comparison(
                g.size(),
                b.size(),
                count(g),
                count(b),
                ratio,
                Quantiles.of(boot, 0.025),
                Quantiles.of(boot, 0.975),
                t.u(),
                t.p(),
                t.exact(),
                (gtLt[0] - gtLt[1]) / (double) pairs,
                Replicates.betweenShare(g),
                Replicates.betweenShare(b),
                means);
    }

    /** A two-sided Mann-Whitney U test: U of {@code a}, its p-value, and whether that p is exact. */
    public record Test(double u, double p, boolean exact) {}

    /**
     * Mann-Whitney U of {@code a} against {@code b}, two-sided: exact without ties up to {@link #EXACT_LIMIT} values in
     * all, else the normal approximation with tie and continuity correction (SciPy's {@code mannwhitneyu} with
     * {@code method="exact"} or {@code "asymptotic"}). p is NaN with fewer than 3 values in all.
     */
    public static Test test(double[] a, double[] b) {
        boolean exact = !hasTies(a, b) && a.length + b.length <= EXACT_LIMIT;
        MannWhitneyUTest mw = MannWhitneyUTest.withDefaults()
                .with(AlternativeHypothesis.TWO_SIDED)
                .with(exact ? PValueMethod.EXACT : PValueMethod.ASYMPTOTIC)
                .with(ContinuityCorrection.ENABLED);
        if (a.length + b.length < 3) {
            return new Test(mw.statistic(a, b), Double.NaN, exact);
        }
        MannWhitneyUTest.Result r = mw.test(a, b);
        if (Double.isNaN(r.getPValue()) && allEqual(a, b)) {
            return new Test(
                    r.getStatistic(),
                    1,
                    exact); // every value the same: no variance to test, and no difference (SciPy says 1 too)
        }
        return new Test(r.getStatistic(), r.getPValue(), exact);
    }

    /**
     * The smallest two-sided p the exact test can give {@code n1} against {@code n2} values: 2 / C(n1 + n2, n1). At or
     * above alpha no difference can be found, however large.
     */
    public static double smallestP(int n1, int n2) {
        double c = 1;
        for (int i = 1; i <= Math.min(n1, n2); i++) {
            c = c * (Math.max(n1, n2) + i) / i;
        }
        return Math.min(1, 2 / c);
    }

    /** The center of the JVMs' centers after resampling the JVMs, then each chosen JVM's values. */
    private static double resampled(List<double[]> jvms, ToDoubleFunction<double[]> center, SplittableRandom rnd) {
        double[] m = new double[jvms.size()];
        for (int k = 0; k < m.length; k++) {
            double[] v = jvms.get(rnd.nextInt(jvms.size()));
            m[k] = center.applyAsDouble(v.length == 1 || v.length > INNER_RESAMPLE_LIMIT ? v : resampledOf(v, rnd));
        }
        return center.applyAsDouble(m);
    }

    /** {@code v}'s values drawn with replacement, as many as it has. */
    static double[] resampledOf(double[] v, SplittableRandom rnd) {
        double[] r = new double[v.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = v[rnd.nextInt(v.length)];
        }
        return r;
    }

    static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(Double.NaN);
    }

    static double median(double[] v) {
        return Quantiles.of(v, 0.5);
    }

    private static int count(List<double[]> jvms) {
        return jvms.stream().mapToInt(v -> v.length).sum();
    }

    private static double[] sorted(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s;
    }

    private static List<double[]> singletons(double[] values) {
        return Arrays.stream(values).mapToObj(v -> new double[] {v}).toList();
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

    private static boolean allEqual(double[] a, double[] b) {
        double first = a.length > 0 ? a[0] : b[0];
        return Arrays.stream(a).allMatch(v -> v == first) && Arrays.stream(b).allMatch(v -> v == first);
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
