package dev.loomscope.analyzer.stats;

import org.hipparchus.distribution.continuous.TDistribution;
import org.hipparchus.stat.regression.SimpleRegression;

/**
 * Ordinary least squares of y on x with t-based 95% intervals: slope, intercept, R², residual
 * standard error, the slope's confidence interval and p-value, and the mean half-width of the 95%
 * prediction band over the observed x (the "margin for error" of one more run).
 */
public record Regression(int n, double slope, double intercept, double r2, double residualStdError, double slopeCiLow,
        double slopeCiHigh, double slopePValue, double predictionHalfWidth) {

    /** Needs at least 3 points (one degree of freedom for the error). */
    public static Regression of(double[] x, double[] y) {
        if (x.length != y.length || x.length < 3) {
            throw new IllegalArgumentException("regression needs at least 3 (x, y) pairs");
        }
        SimpleRegression r = new SimpleRegression();
        for (int i = 0; i < x.length; i++) {
            r.addData(x[i], y[i]);
        }
        int n = x.length;
        double rse = Math.sqrt(r.getMeanSquareError());
        double t = new TDistribution(n - 2).inverseCumulativeProbability(0.975);
        double xbar = java.util.Arrays.stream(x).average().orElseThrow();
        double sxx = r.getXSumSquares();
        double band = 0;
        for (double xi : x) {
            band += halfWidth(t, rse, n, xbar, sxx, xi);
        }
        double ci = sxx == 0 ? Double.NaN : r.getSlopeConfidenceInterval();
        double slope = sxx == 0 ? Double.NaN : r.getSlope();
        return new Regression(n, slope, sxx == 0 ? Double.NaN : r.getIntercept(), sxx == 0 ? Double.NaN : r.getRSquare(), rse,
                slope - ci, slope + ci, sxx == 0 ? Double.NaN : r.getSignificance(), band / n);
    }

    /** The half-width of the 95% prediction band at {@code x0}. */
    public double predictionHalfWidthAt(double x0, double[] x) {
        double t = new TDistribution(n - 2).inverseCumulativeProbability(0.975);
        double xbar = java.util.Arrays.stream(x).average().orElseThrow();
        double sxx = java.util.Arrays.stream(x).map(v -> (v - xbar) * (v - xbar)).sum();
        return halfWidth(t, residualStdError, n, xbar, sxx, x0);
    }

    /** t * s * sqrt(1 + 1/n + (x0 - xbar)^2 / Sxx): the band around one new observation at x0. */
    private static double halfWidth(double t, double rse, int n, double xbar, double sxx, double x0) {
        return t * rse * Math.sqrt(1 + 1.0 / n + (sxx == 0 ? 0 : (x0 - xbar) * (x0 - xbar) / sxx));
    }
}
