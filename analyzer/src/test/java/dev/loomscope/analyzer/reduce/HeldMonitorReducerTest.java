package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The threads a look found, as a mean over the looks weighted by the time each stands for: a look
 * that skipped periods after it (a costly one, when many threads were busy) stands for them all.
 */
class HeldMonitorReducerTest {
    private static final Instant T0 = Instant.parse("2026-11-28T00:00:00Z");

    @Test
    void aLookThatSkippedPeriodsStandsForThem() {
        HeldMonitorReducer h = new HeldMonitorReducer();
        // looks at 0, 100, 200, 300, 700 and 800 ms: the one at 300 ms found 4 threads and the next waited 400 ms; the others found 1
        long[] at = {0, 100, 200, 300, 700, 800};
        for (int i = 0; i < at.length; i++) {
            Instant t = T0.plusMillis(at[i]);
            h.add(new CannedEvent("loomscope.HeldMonitorSample", t, Duration.ofNanos(500_000), Map.of("platformThreads", 20L, "interval", 100L)));
            h.add(new CannedEvent("loomscope.HeldMonitor", t.plusNanos(600_000), Map.of("sample", (long) i + 1, "what", "blocks holding a monitor",
                    "threads", at[i] == 300 ? 4L : 1L, "site", "demo.Api.legacy(Api.java:39)", "stack", "java.lang.Thread.sleep0(Native Method)")));
        }
        HeldMonitorReducer.Mean m = h.mean(Set.of("blocks holding a monitor"));
        // weights 100, 100, 100, 400, 100 and (the last, a usual step) 100 ms: (5 x 100 x 1 + 400 x 4) / 900 = 2.333 (unweighted: 1.5)
        assertThat(m.mean()).isCloseTo(7 / 3.0, within(1e-9));
        // weighted variance 2000 / 900 over Kish's effective number 900^2 / 210,000 = 3.857 less one: half-width 1.96 x 0.8819
        assertThat(m.half()).isCloseTo(1.96 * Math.sqrt(2000.0 / 900 / (810_000.0 / 210_000 - 1)), within(1e-9));
        assertThat(h.samples()).isEqualTo(6);
        assertThat(h.lookSpanSeconds()).isCloseTo(0.8, within(1e-9));
        assertThat(h.lookMillis().quantile(0.5)).isCloseTo(0.5, within(1e-9));
        assertThat(h.mean(Set.of("waits to enter a monitor")).mean()).isZero();
    }
}
