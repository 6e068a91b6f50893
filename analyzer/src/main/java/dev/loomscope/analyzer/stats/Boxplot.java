package dev.loomscope.analyzer.stats;

import dev.loomscope.load.stats.Quantiles;
import java.util.Arrays;

/**
 * Tukey boxplot statistics of one group: quartiles by R type 7, whiskers at the most extreme values within 1.5 IQR of
 * the box, everything beyond them an outlier. A whisker never ends inside the box: where the quartile is interpolated
 * between a value inside the fences and an outlier beyond them (53.85 between 46.80 and an outlier), the whisker ends
 * at the quartile.
 */
public record Boxplot(
        int n,
        double min,
        double lowerWhisker,
        double q1,
        double median,
        double q3,
        double upperWhisker,
        double max,
        double iqr,
        double[] outliers,
        double mean,
        double sd,
        double cv) {

    public static Boxplot of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        double q1 = Quantiles.of(v, 0.25);
        double median = Quantiles.of(v, 0.5);
        double q3 = Quantiles.of(v, 0.75);
        double iqr = q3 - q1;
        double lowFence = q1 - 1.5 * iqr;
        double highFence = q3 + 1.5 * iqr;
        double lw =
                Math.min(q1, Arrays.stream(v).filter(x -> x >= lowFence).min().orElse(v[0]));
        double uw =
                Math.max(q3, Arrays.stream(v).filter(x -> x <= highFence).max().orElse(v[v.length - 1]));
        double[] out =
                Arrays.stream(v).filter(x -> x < lowFence || x > highFence).toArray();
        double mean = Arrays.stream(v).average().orElse(Double.NaN);
        double sd = v.length < 2
                ? Double.NaN
                : Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum() / (v.length - 1));
        return new Boxplot(v.length, v[0], lw, q1, median, q3, uw, v[v.length - 1], iqr, out, mean, sd, sd / mean);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Boxplot b
                && b.n == n
                && b.median == median
                && Arrays.equals(b.outliers, outliers)
                && b.q1 == q1
                && b.q3 == q3
                && b.min == min
                && b.max == max;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(median) * 31 + n;
    }

    @Override
    public String toString() {
        return "Boxplot[n=" + n + ", median=" + median + ", q1=" + q1 + ", q3=" + q3 + ", outliers="
                + Arrays.toString(outliers) + "]";
    }
}
