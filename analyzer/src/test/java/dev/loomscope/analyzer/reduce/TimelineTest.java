package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The most spans open together for a share of their span: intervals whose answer is counted by hand. */
class TimelineTest {
    private static final Instant T0 = Instant.parse("2026-12-07T09:00:00Z");
    private static final long FROM = Timeline.epochNanos(T0);
    private static final long TO = FROM + 1_000_000_000L;

    private static Timeline spans(long... startAndMs) {
        Timeline t = new Timeline();
        for (int i = 0; i < startAndMs.length; i += 2) {
            t.add(T0.plusMillis(startAndMs[i]), startAndMs[i + 1]);
        }
        return t;
    }

    @Test
    void overlappingSpansAreCountedAtTheirDeepest() {
        // 0-10, 5-15, 6-9 open three together for 3 of 20 ms; 12-20 meets only 5-15
        Timeline t = spans(12, 8, 0, 10, 5, 10, 6, 3);
        assertThat(t.mostAtOnce(FROM, TO, 0.1)).isEqualTo(3);
        // three together for 15% of the span, two or more for 40%
        assertThat(t.mostAtOnce(FROM, TO, 0.2)).isEqualTo(2);
        assertThat(t.mostAtOnce(FROM, TO, 0.5)).isEqualTo(1);
    }

    @Test
    void aBlipBesideLongSpansDoesNotCount() {
        // two spans side by side for 100 ms, a third beside them for 10 microseconds
        Timeline t = new Timeline();
        t.add(T0, 100);
        t.add(T0, 100);
        t.add(T0.plusMillis(50), 0.01);
        assertThat(t.mostAtOnce(FROM, TO, 0.01)).isEqualTo(2);
        assertThat(t.mostAtOnce(FROM, TO, 0)).isEqualTo(3);
    }

    @Test
    void aSpanThatEndsAsAnotherBeginsIsNotBesideIt() {
        Timeline t = spans(0, 10, 10, 10, 20, 10);
        assertThat(t.mostAtOnce(FROM, TO, 0)).isEqualTo(1);
    }

    @Test
    void onlySpansBeginningInTheWindowCountCutAtItsEnd() {
        Timeline t = spans(0, 50, 1, 50, 2, 50, 60, 5);
        assertThat(t.mostAtOnce(FROM + 10_000_000L, TO, 0)).isEqualTo(1);
        assertThat(t.mostAtOnce(FROM + 70_000_000L, TO, 0)).isZero();
        // the two that begin before 2 ms, cut there: together for 1 of 2 ms
        assertThat(t.mostAtOnce(FROM, FROM + 2_000_000L, 0.4)).isEqualTo(2);
    }
}
