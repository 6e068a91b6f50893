package dev.loomscope.analyzer.reduce;

import dev.loomscope.load.stats.Quantiles;
import java.io.Serializable;
import java.util.Arrays;

/** A growable array of doubles (durations, sizes): quantiles, sum, max without boxing. */
public final class Samples implements Serializable {
    private double[] values = new double[16];
    private int size;

    public void add(double v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    public void addAll(Samples other) {
        for (int i = 0; i < other.size; i++) {
            add(other.values[i]);
        }
    }

    public int count() {
        return size;
    }

    /** Forgets every value. */
    public void clear() {
        size = 0;
    }

    public double[] toArray() {
        return Arrays.copyOf(values, size);
    }

    public double sum() {
        double s = 0;
        for (int i = 0; i < size; i++) {
            s += values[i];
        }
        return s;
    }

    /** The mean, NaN when there is no value. */
    public double mean() {
        return size == 0 ? Double.NaN : sum() / size;
    }

    public double max() {
        return size == 0 ? Double.NaN : Arrays.stream(values, 0, size).max().orElseThrow();
    }

    public double quantile(double q) {
        return Quantiles.of(toArray(), q);
    }
}
