package dev.loomscope.analyzer.stats;

/**
 * The one verdict rule every output uses (terminal, JSON, CSV, the forest plot, the report). In order: too few JVMs for
 * the test to reach alpha at all ({@code too few JVMs}); the interval of the ratio inside the equivalence band
 * ({@code no meaningful difference}); the interval excluding no change and the test agreeing ({@code better} or
 * {@code worse}; {@code higher} or {@code lower} for a figure that describes rather than judges); otherwise
 * {@code inconclusive}.
 */
public enum Verdict {
    BETTER("better"),
    WORSE("worse"),
    /**
     * A difference in a figure that describes rather than judges (CPU load, peak threads): neither better nor worse.
     */
    HIGHER("higher"),
    LOWER("lower"),
    NO_MEANINGFUL_DIFFERENCE("no meaningful difference"),
    INCONCLUSIVE("inconclusive"),
    TOO_FEW_JVMS("too few JVMs");

    private final String words;

    Verdict(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }

    /** A claim of a difference, either way. */
    public boolean decided() {
        return this == BETTER || this == WORSE || this == HIGHER || this == LOWER;
    }

    /**
     * The thresholds of the rule.
     *
     * @param alpha the test's significance level (and 1 - the interval's coverage)
     * @param equivalence half-width of the band of ratios that count as no meaningful change: 0.05 is 0.95..1.05
     */
    public record Rule(double alpha, double equivalence) {
        public static final Rule DEFAULT = new Rule(0.05, 0.05);

        public Rule {
            if (!(alpha > 0 && alpha < 1) || !(equivalence >= 0 && equivalence < 1)) {
                throw new IllegalArgumentException("alpha in (0, 1) and equivalence in [0, 1) expected");
            }
        }

        /** The verdict on {@code c} for a metric where lower (or higher) is better. */
        public Verdict judge(Comparison c, boolean lowerIsBetter) {
            if (tooFew(c)) {
                return TOO_FEW_JVMS;
            }
            if (c.ratio() == Double.POSITIVE_INFINITY) {
                // a baseline of zero (no pin on platform threads): no ratio to bound, the JVM-level test alone decides
                return c.pValue() < alpha ? (lowerIsBetter ? WORSE : BETTER) : INCONCLUSIVE;
            }
            if (c.ratioCiLow() >= 1 - equivalence && c.ratioCiHigh() <= 1 + equivalence) {
                return NO_MEANINGFUL_DIFFERENCE;
            }
            boolean excludesOne = c.ratioCiLow() > 1 || c.ratioCiHigh() < 1;
            if (excludesOne && c.pValue() < alpha) {
                return (c.ratio() < 1) == lowerIsBetter ? BETTER : WORSE;
            }
            return INCONCLUSIVE;
        }

        /** Whether {@code c} has too few JVMs for the exact test to reach alpha, however large the difference. */
        public boolean tooFew(Comparison c) {
            return Comparison.smallestP(c.jvmsGroup(), c.jvmsBaseline()) >= alpha;
        }

        /** The fewest JVMs a group needs beside {@code other} in the baseline for the test to reach alpha. */
        public int minimumJvms(int other) {
            for (int n = 1; n < 1000; n++) {
                if (Comparison.smallestP(n, other) < alpha) {
                    return n;
                }
            }
            return Integer.MAX_VALUE;
        }

        /** The fewest JVMs a group at which two groups of as many can reach alpha (4 at 0.05: 2 / C(8, 4) = 0.029). */
        public int fewestEach() {
            int n = 1;
            while (minimumJvms(n) > n) {
                n++;
            }
            return n;
        }
    }
}
