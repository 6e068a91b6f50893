package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loomscope.events.ContextSwitchesEvent;
import dev.loomscope.recording.JdkEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContextSwitchReducerTest {
    static final long S = 1_000_000_000L;

    /** Two reducers merged are the one that saw both's events: the agent's counts and the machine's rate. */
    @Test
    void twoReducersMergedAreTheOneThatSawBothsEvents() {
        Instant t0 = Instant.parse("2026-11-24T12:00:00Z");
        List<CannedEvent> events = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Instant at = t0.plusSeconds(i);
            events.add(new CannedEvent(JdkEvents.THREAD_CONTEXT_SWITCH_RATE, at, Map.of("switchRate", 1000.0 + i)));
            events.add(new CannedEvent(
                    ContextSwitchesEvent.NAME,
                    at,
                    Map.of(
                            "voluntary",
                            10L * i,
                            "involuntary",
                            (long) i,
                            "source",
                            "getrusage",
                            "allocatedBytes",
                            1024L * i,
                            "platformThreadsStarted",
                            2L)));
        }
        ContextSwitchReducer whole = new ContextSwitchReducer();
        ContextSwitchReducer first = new ContextSwitchReducer();
        ContextSwitchReducer second = new ContextSwitchReducer();
        for (int i = 0; i < events.size(); i++) {
            whole.add(events.get(i));
            (i < 5 ? first : second).add(events.get(i));
        }
        first.merge(second);
        assertThat(first.machineRate.toArray()).containsExactly(whole.machineRate.toArray());
        assertThat(first.machineRate.mean()).isCloseTo(1002.5, within(1e-9));
        assertThat(first.voluntaryTotal()).isEqualTo(whole.voluntaryTotal()).isEqualTo(150);
        assertThat(first.involuntaryTotal()).isEqualTo(whole.involuntaryTotal()).isEqualTo(15);
        assertThat(first.allocatedBytes()).isEqualTo(whole.allocatedBytes()).isEqualTo(15 * 1024);
        assertThat(first.platformThreadsStarted())
                .isEqualTo(whole.platformThreadsStarted())
                .isEqualTo(12);
        assertThat(first.peakPlatformThreadStartRate(t0)).isEqualTo(whole.peakPlatformThreadStartRate(t0));
        assertThat(first.source()).isEqualTo("getrusage");
    }

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
