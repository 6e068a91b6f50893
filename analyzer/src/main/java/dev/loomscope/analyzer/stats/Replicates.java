package dev.loomscope.analyzer.stats;

import java.util.List;

/**
 * Values nested in JVMs: how their variance splits between JVMs and within them (one-way random effects, ANOVA
 * estimators), and how many runs per JVM buy the most precision for the time (Kalibera and Jones, "Rigorous
 * benchmarking in reasonable time", 2013).
 */
public final class Replicates {
    private Replicates() {}

    /** The variance within JVMs and between them (the JVM effect's, not of the JVM means); NaN where not estimable. */
    public record Components(double within, double between) {
        /** between / (between + within): 0 when JVMs do not differ beyond their runs' noise, 1 when runs never vary. */
        public double betweenShare() {
            double total = within + between;
            return Double.isNaN(total) ? Double.NaN : total == 0 ? 0 : between / total;
        }
    }

    /** Variance components of values nested in JVMs; NaN with fewer than 2 JVMs or no JVM with 2 values. */
    public static Components components(List<double[]> jvms) {
        int k = jvms.size();
        int n = 0;
        double sum = 0;
        double sumSq = 0;
        for (double[] v : jvms) {
            n += v.length;
            for (double x : v) {
                sum += x;
            }
            sumSq += (double) v.length * v.length;
        }
        if (k < 2 || n <= k) {
            return new Components(Double.NaN, Double.NaN);
        }
        double grand = sum / n;
        double ssb = 0;
        double ssw = 0;
        for (double[] v : jvms) {
            double m = 0;
            for (double x : v) {
                m += x;
            }
            m /= v.length;
            ssb += v.length * (m - grand) * (m - grand);
            for (double x : v) {
                ssw += (x - m) * (x - m);
            }
        }
        double msb = ssb / (k - 1);
        double msw = ssw / (n - k);
        double n0 = (n - sumSq / n) / (k - 1);
        return new Components(msw, Math.max(0, (msb - msw) / n0));
    }

    /** The share of the variance between JVMs; NaN when it cannot be told. */
    public static double betweenShare(List<double[]> jvms) {
        return components(jvms).betweenShare();
    }

    /**
     * The runs per JVM that give the narrowest interval for the time spent (Kalibera and Jones): ceil(sqrt(jvmCost /
     * runCost * within / between)), at least 1; with no variance between JVMs every run may as well be in one JVM, so
     * {@code max}; NaN inputs give -1 (not known).
     *
     * @param jvmCost seconds a JVM costs beyond its measured runs (start, warm-up, exit)
     * @param runCost seconds one measured run takes
     */
    public static int runsPerJvm(Components c, double jvmCost, double runCost, int max) {
        if (Double.isNaN(c.within()) || Double.isNaN(c.between()) || !(runCost > 0) || !(jvmCost >= 0)) {
            return -1;
        }
        if (c.between() == 0) {
            return max;
        }
        double r = Math.ceil(Math.sqrt(jvmCost / runCost * c.within() / c.between()));
        return (int) Math.max(1, Math.min(max, r));
    }
}
