package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The threads a look found, as a mean over the looks each weighted by the time since the one before:
 * looks grow sparse where they are costly (many threads busy), and each of them stands for the
 * periods skipped before it.
 */
class HeldMonitorReducerTest {
    private static final Instant T0 = Instant.parse("2026-11-28T00:00:00Z");

    @Test
    void aLookAfterSkippedPeriodsStandsForThem() {
        HeldMonitorReducer h = new HeldMonitorReducer();
        // quiet looks at 0, 100, 200 and 300 ms find none; then busy, costly looks 400 ms apart, at 700, 1100 and 1500 ms, find 4 each
        long[] at = {0, 100, 200, 300, 700, 1100, 1500};
        for (int i = 0; i < at.length; i++) {
            Instant t = T0.plusMillis(at[i]);
            h.add(new CannedEvent("loomscope.HeldMonitorSample", t, Duration.ofNanos(500_000), Map.of("platformThreads", 20L, "interval", 100L)));
            if (at[i] >= 700) {
                h.add(new CannedEvent("loomscope.HeldMonitor", t.plusNanos(600_000), Map.of("sample", (long) i + 1, "what", "blocks holding a monitor",
                        "threads", 4L, "site", "demo.Api.legacy(Api.java:39)", "stack", "java.lang.Thread.sleep0(Native Method)")));
            }
        }
        HeldMonitorReducer.Mean m = h.mean(Set.of("blocks holding a monitor"));
        // weights: the first look the median step (250 ms), then 100, 100, 100, 400, 400, 400: 4 x 1,200 / 1,750 = 2.743 (unweighted: 12 / 7 = 1.714)
        assertThat(m.mean()).isCloseTo(4 * 1200 / 1750.0, within(1e-9));
        // weighted variance (550 x m^2 + 1,200 x (4 - m)^2) / 1,750 over Kish's effective number 1,750^2 / 572,500 less one
        double mean = 4 * 1200 / 1750.0;
        double variance = (550 * mean * mean + 1200 * (4 - mean) * (4 - mean)) / 1750;
        assertThat(m.half()).isCloseTo(1.96 * Math.sqrt(variance / (1750.0 * 1750 / 572_500 - 1)), within(1e-9));
        assertThat(h.samples()).isEqualTo(7);
        assertThat(h.lookSpanSeconds()).isCloseTo(1.5, within(1e-9));
        assertThat(h.lookMillis().quantile(0.5)).isCloseTo(0.5, within(1e-9));
        assertThat(h.mean(Set.of("waits to enter a monitor")).mean()).isZero();
    }

    @Test
    void looksThatAllFoundTheSameStillLeaveTheRuleOfThreesWidth() {
        HeldMonitorReducer h = new HeldMonitorReducer();
        // 200 looks 100 ms apart each find one thread holding: a share of the time under 3 / 200 with another count is not ruled out
        for (int i = 0; i < 200; i++) {
            Instant t = T0.plusMillis(100L * i);
            h.add(new CannedEvent("loomscope.HeldMonitorSample", t, Duration.ofNanos(500_000), Map.of("platformThreads", 20L, "interval", 100L)));
            h.add(new CannedEvent("loomscope.HeldMonitor", t.plusNanos(600_000), Map.of("sample", (long) i + 1, "what", "blocks holding a monitor",
                    "threads", 1L, "site", "demo.Api.legacy(Api.java:39)", "stack", "java.lang.Thread.sleep0(Native Method)")));
        }
        HeldMonitorReducer.Mean m = h.mean(Set.of("blocks holding a monitor"));
        assertThat(m.mean()).isEqualTo(1.0);
        assertThat(m.half()).isCloseTo(3 / 200.0, within(1e-12));
        // the exact one-sided 95% bound on a share none of 200 looks found (Clopper-Pearson: 1 - 0.05^(1/200)) lies inside it
        assertThat(m.high() - 1).isGreaterThan(1 - Math.pow(0.05, 1 / 200.0));
    }
}
