package dev.loomscope.analyzer.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The JVM as the unit of replication: the verdict rule, the two-level interval, the variance split, runs per JVM. */
class JvmLevelTest {
    static final Verdict.Rule RULE = Verdict.Rule.DEFAULT;

    /** {@code jvms} JVMs of {@code runs} runs: each JVM's mean drawn around {@code mean}, its runs around that. */
    static List<double[]> jvms(
            SplittableRandom rnd, int jvms, int runs, double mean, double betweenSd, double withinSd) {
        List<double[]> out = new ArrayList<>();
        for (int j = 0; j < jvms; j++) {
            double m = mean + betweenSd * gaussian(rnd);
            double[] v = new double[runs];
            for (int r = 0; r < runs; r++) {
                v[r] = m + withinSd * gaussian(rnd);
            }
            out.add(v);
        }
        return out;
    }

    static double gaussian(SplittableRandom rnd) {
        return Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
    }

    @Test
    void twoJvmsAGroupAreTooFewHoweverManyRuns() {
        SplittableRandom rnd = new SplittableRandom(1);
        Comparison c = Comparison.of(jvms(rnd, 2, 50, 50, 1, 1), jvms(rnd, 2, 50, 100, 1, 1));
        assertThat(c.jvmsGroup()).isEqualTo(2);
        assertThat(c.nGroup()).isEqualTo(100);
        assertThat(RULE.judge(c, true)).isEqualTo(Verdict.TOO_FEW_JVMS);
        assertThat(RULE.minimumJvms(4)).isEqualTo(4); // 2 / C(8, 4) = 0.029
        assertThat(RULE.minimumJvms(5)).isEqualTo(3); // 2 / C(8, 3) = 0.036
        assertThat(Comparison.smallestP(3, 4)).isCloseTo(2.0 / 35, within(1e-12));
        assertThat(RULE.fewestEach()).isEqualTo(4); // 3 against 3: 2 / C(6, 3) = 0.1
        assertThat(new Verdict.Rule(0.2, 0.05).fewestEach()).isEqualTo(3);
        assertThat(new Verdict.Rule(0.01, 0.05).fewestEach()).isEqualTo(5); // 2 / C(10, 5) = 0.0079
    }

    @Test
    void aClearDifferenceAtFiveJvmsIsBetterOrWorse() {
        SplittableRandom rnd = new SplittableRandom(2);
        Comparison c = Comparison.of(jvms(rnd, 5, 3, 50, 2, 1), jvms(rnd, 5, 3, 100, 4, 2));
        assertThat(c.ratio()).isCloseTo(0.5, within(0.05));
        assertThat(c.ratioCiHigh()).isLessThan(1);
        assertThat(c.pValue())
                .isCloseTo(2.0 / 252, within(1e-12)); // every JVM of one group below every JVM of the other
        assertThat(RULE.judge(c, true)).isEqualTo(Verdict.BETTER);
        assertThat(RULE.judge(c, false)).isEqualTo(Verdict.WORSE);
    }

    @Test
    void aDifferenceInsideTheBandIsNoMeaningfulDifference() {
        SplittableRandom rnd = new SplittableRandom(3);
        Comparison c = Comparison.of(jvms(rnd, 8, 5, 1000, 2, 2), jvms(rnd, 8, 5, 1010, 2, 2));
        assertThat(c.ratioCiLow()).isGreaterThan(0.95);
        assertThat(c.ratioCiHigh()).isLessThan(1.05);
        assertThat(RULE.judge(c, true)).isEqualTo(Verdict.NO_MEANINGFUL_DIFFERENCE);
        assertThat(new Verdict.Rule(0.05, 0.001).judge(c, true)).isIn(Verdict.BETTER, Verdict.INCONCLUSIVE);
    }

    @Test
    void anIntervalAcrossOneIsNeverBetterOrWorse() {
        Comparison c =
                new Comparison(10, 10, 10, 10, 1.34, 0.96, 1.65, 80, 0.019, true, 0.6, Double.NaN, Double.NaN, false);
        assertThat(RULE.judge(c, true)).isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void varianceSplitsBetweenAndWithinJvms() {
        assertThat(Replicates.betweenShare(List.of(new double[] {1, 2, 3}, new double[] {1, 2, 3})))
                .isEqualTo(0);
        assertThat(Replicates.betweenShare(List.of(new double[] {5, 5}, new double[] {7, 7}, new double[] {9, 9})))
                .isEqualTo(1);
        assertThat(Replicates.betweenShare(List.of(new double[] {5}, new double[] {7})))
                .isNaN();
        // between 2 and 4 within by construction: the estimate lands near 4 / (4 + 4)
        SplittableRandom rnd = new SplittableRandom(4);
        assertThat(Replicates.betweenShare(jvms(rnd, 400, 10, 0, 2, 2))).isCloseTo(0.5, within(0.06));
        // Kalibera & Jones: a JVM costing 20 runs, within variance 4x between: sqrt(20 * 4) = 8.9 -> 9 runs
        assertThat(Replicates.runsPerJvm(new Replicates.Components(4, 1), 20, 1, 100))
                .isEqualTo(9);
        assertThat(Replicates.runsPerJvm(new Replicates.Components(4, 0), 20, 1, 30))
                .isEqualTo(30);
        assertThat(Replicates.runsPerJvm(new Replicates.Components(Double.NaN, 1), 20, 1, 30))
                .isEqualTo(-1);
    }

    /**
     * A/A trials where JVMs differ (half the variance between them), 5 JVMs x 3 runs a group: judged by JVM the false
     * positives stay near alpha; pooling the 15 runs as if independent (what the previous comparison did) finds a
     * difference far more often.
     */
    @Test
    void identicalConfigurationsAreJudgedDifferentAtAboutAlpha() {
        SplittableRandom rnd = new SplittableRandom(5);
        int trials = 400;
        int byJvm = 0;
        int pooled = 0;
        for (int t = 0; t < trials; t++) {
            List<double[]> a = jvms(rnd, 5, 3, 100, 5, 5);
            List<double[]> b = jvms(rnd, 5, 3, 100, 5, 5);
            byJvm += RULE.judge(Comparison.of(a, b), true).decided() ? 1 : 0;
            double[] pa = a.stream().flatMapToDouble(Arrays::stream).toArray();
            double[] pb = b.stream().flatMapToDouble(Arrays::stream).toArray();
            pooled += Comparison.test(pa, pb).p() < 0.05 ? 1 : 0;
        }
        assertThat(byJvm / (double) trials).as("false positives judged by JVM").isLessThanOrEqualTo(0.08);
        assertThat(pooled / (double) trials)
                .as("false positives with runs pooled")
                .isGreaterThan(0.15);
    }
}
