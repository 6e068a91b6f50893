package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ContextSwitchReducerTest {
    static final long S = 1_000_000_000L;

    @Test
    void thePeakRateIsTheBusiestPeriods() {
        // a second of start-up, two busy seconds, an idle one: the busy second's 3,000 a second, not the mean
        List<long[]> samples = List.of(
                new long[] {1 * S, 50}, new long[] {2 * S, 3000}, new long[] {3 * S, 2000}, new long[] {4 * S, 0});
        assertThat(ContextSwitchReducer.peakRate(0, samples)).isCloseTo(3000, within(1e-9));
    }

    @Test
    void aSampleCloseAfterTheOneBeforeCountsWithIt() {
        // the agent's last sample at exit, 10 ms after its last periodic one: 40 threads in 10 ms is no rate of 4,000 a
        // second
        List<long[]> samples = List.of(new long[] {S, 500}, new long[] {2 * S, 500}, new long[] {2 * S + S / 100, 40});
        assertThat(ContextSwitchReducer.peakRate(0, samples)).isCloseTo(540 / 1.01, within(1e-9));
    }

    @Test
    void aShortRecordingHasOnePeriodAndTheOrderDoesNotMatter() {
        assertThat(ContextSwitchReducer.peakRate(5 * S, List.of(new long[] {5 * S + S / 5, 100})))
                .isCloseTo(500, within(1e-9));
        List<long[]> shuffled = List.of(new long[] {3 * S, 10}, new long[] {S, 10}, new long[] {2 * S, 900});
        assertThat(ContextSwitchReducer.peakRate(0, shuffled)).isCloseTo(900, within(1e-9));
        assertThat(ContextSwitchReducer.peakRate(0, List.of())).isZero();
    }
}
