package dev.loomscope.options;

import java.util.Locale;

/** Figures as users read them: the one way a plain number is written wherever a command prints one. */
public final class Numbers {
    private Numbers() {}

    /** A figure as a number a reader reads: grouped thousands, a few significant digits, never an exponent. */
    public static String plain(double v) {
        double a = Math.abs(v);
        return Double.isNaN(v)
                ? "n/a"
                : Double.isInfinite(v)
                        ? "unbounded"
                        : a >= 100
                                ? String.format(Locale.ROOT, "%,.0f", v)
                                : a >= 10
                                        ? String.format(Locale.ROOT, "%.1f", v)
                                        : a >= 0.01 || a == 0
                                                ? String.format(Locale.ROOT, "%.3f", v)
                                                        .replaceFirst("0+$", "")
                                                        .replaceFirst("\\.$", "")
                                                : String.format(Locale.ROOT, "%.2g", v);
    }
}
