package dev.loomscope.load.stats;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Ordinary least squares of y on x with t-based 95% intervals: slope, intercept, R², residual standard error, the
 * slope's confidence interval and p-value, and the mean half-width of the 95% prediction band over the observed x (the
 * "margin for error" of one more run).
 */
public record Regression(
        int n,
        double slope,
        double intercept,
        double r2,
        double residualStdError,
        double slopeCiLow,
        double slopeCiHigh,
        double slopePValue,
        double predictionHalfWidth) {

    /** Needs at least 3 points (one degree of freedom for the error). */
    public static Regression of(double[] x, double[] y) {
        if (x.length != y.length || x.length < 3) {
            throw new IllegalArgumentException("regression needs at least 3 (x, y) pairs");
        }
        int n = x.length;
        double xbar = mean(x);
        double ybar = mean(y);
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (x[i] - xbar) * (x[i] - xbar);
            sxy += (x[i] - xbar) * (y[i] - ybar);
            syy += (y[i] - ybar) * (y[i] - ybar);
        }
        TDistribution td = TDistribution.of(n - 2);
        double t = td.inverseSurvivalProbability(0.025);
        if (sxx == 0) {
            double rse = Math.sqrt(syy / (n - 2));
            return new Regression(
                    n,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    rse,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    halfWidth(t, rse, n, xbar, 0, xbar));
        }
        double slope = sxy / sxx;
        double intercept = ybar - slope * xbar;
        double sse = Math.max(0, syy - slope * sxy);
        double rse = Math.sqrt(sse / (n - 2));
        double slopeSe = rse / Math.sqrt(sxx);
        double r2 = syy == 0 ? Double.NaN : sxy * sxy / (sxx * syy);
        double p = slopeSe == 0 ? (slope == 0 ? Double.NaN : 0) : 2 * td.survivalProbability(Math.abs(slope / slopeSe));
        double band = 0;
        for (double xi : x) {
            band += halfWidth(t, rse, n, xbar, sxx, xi);
        }
        return new Regression(n, slope, intercept, r2, rse, slope - t * slopeSe, slope + t * slopeSe, p, band / n);
    }

    /** The half-width of the 95% prediction band at {@code x0}. */
    public double predictionHalfWidthAt(double x0, double[] x) {
        double t = TDistribution.of(n - 2).inverseSurvivalProbability(0.025);
        double xbar = mean(x);
        double sxx = Arrays.stream(x).map(v -> (v - xbar) * (v - xbar)).sum();
        return halfWidth(t, residualStdError, n, xbar, sxx, x0);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double d : v) {
            s += d;
        }
        return s / v.length;
    }

    /** t * s * sqrt(1 + 1/n + (x0 - xbar)^2 / Sxx): the band around one new observation at x0. */
    private static double halfWidth(double t, double rse, int n, double xbar, double sxx, double x0) {
        return t * rse * Math.sqrt(1 + 1.0 / n + (sxx == 0 ? 0 : (x0 - xbar) * (x0 - xbar) / sxx));
    }
}
