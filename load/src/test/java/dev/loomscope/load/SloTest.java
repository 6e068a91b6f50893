package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.load.stats.LatencyHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * An objective is judged by the one rule for when a percentile is a figure: with fewer requests than the percentile
 * needs, every request must keep the bound, so a capacity found on too few is a lower bound, never a guess.
 */
class SloTest {
    /** {@code n} requests of 10 ms, one of them 500 ms. */
    private static Histogram oneSlowAmong(int n) {
        Histogram h = new Histogram(LatencyHistograms.HIGHEST_MICROS, 3);
        h.recordValueWithCount(10_000, n - 1);
        h.recordValue(500_000);
        return h;
    }

    @Test
    void aPercentileOfTooFewRequestsIsJudgedOnEveryOne() {
        Slo slo = Slo.parse("p99.9=50ms");
        // 1,000 requests: their p99.9 would be the second highest, 10 ms; with one of 500 ms, the bound is not shown
        // kept
        Histogram few = oneSlowAmong(1_000);
        assertThat(LatencyHistograms.enough(few, 99.9)).isFalse();
        assertThat(few.getValueAtPercentile(99.9) / 1e3).isLessThan(50);
        assertThat(slo.of(few)).isEqualTo(few.getMaxValue() / 1e3);
        assertThat(slo.keptBy(few, 1_000, 0, true)).isFalse();
        // 10,000 requests: enough for a p99.9, and one slow request among them keeps it
        Histogram enough = oneSlowAmong(10_000);
        assertThat(slo.of(enough)).isEqualTo(enough.getValueAtPercentile(99.9) / 1e3);
        assertThat(slo.keptBy(enough, 10_000, 0, true)).isTrue();
        // the same 1,000 against p99, which they are enough for
        assertThat(Slo.parse("p99=50ms").keptBy(few, 1_000, 0, true)).isTrue();
        // nothing answered keeps nothing
        assertThat(slo.of(new Histogram(3))).isInfinite();
    }
}
