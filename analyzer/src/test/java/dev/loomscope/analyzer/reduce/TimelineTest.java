package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The most spans open at once: intervals whose answer is counted by hand. */
class TimelineTest {
    private static final Instant T0 = Instant.parse("2026-12-07T09:00:00Z");

    private static Timeline spans(long... startAndMs) {
        Timeline t = new Timeline();
        for (int i = 0; i < startAndMs.length; i += 2) {
            t.add(T0.plusMillis(startAndMs[i]), startAndMs[i + 1]);
        }
        return t;
    }

    @Test
    void overlappingSpansAreCountedAtTheirDeepestInstant() {
        // 0-10, 5-15, 6-9 overlap three deep at 6-9; 12-20 meets only 5-15
        Timeline t = spans(12, 8, 0, 10, 5, 10, 6, 3);
        long from = Timeline.epochNanos(T0);
        assertThat(t.mostAtOnce(from, from + 100_000_000L)).isEqualTo(3);
    }

    @Test
    void aSpanThatEndsAsAnotherBeginsIsNotBesideIt() {
        Timeline t = spans(0, 10, 10, 10, 20, 10);
        long from = Timeline.epochNanos(T0);
        assertThat(t.mostAtOnce(from, from + 100_000_000L)).isEqualTo(1);
    }

    @Test
    void onlySpansBeginningInTheWindowCount() {
        Timeline t = spans(0, 50, 1, 50, 2, 50, 60, 5);
        long from = Timeline.epochNanos(T0);
        assertThat(t.mostAtOnce(from + 10_000_000L, from + 100_000_000L)).isEqualTo(1);
        assertThat(t.mostAtOnce(from + 70_000_000L, from + 100_000_000L)).isZero();
    }
}
