package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * When the warm-up ends: windows that keep up without a trend or a jump are steady; a latency that keeps growing, a
 * service that answers less than offered, and one window that jumps are not.
 */
class SteadinessTest {
    @Test
    void flatNoisyWindowsAreSteady() {
        assertThat(Steadiness.moving(windows(
                        300, new long[] {300, 301, 299, 300, 300}, new double[] {20.1, 20.4, 19.9, 20.3, 20.0})))
                .isNull();
    }

    @Test
    void aGrowingLatencyIsNot() {
        assertThat(Steadiness.moving(
                        windows(300, new long[] {300, 300, 300, 300, 300}, new double[] {100, 200, 300, 400, 500})))
                .isEqualTo("latency p50 +33.3% a second");
    }

    @Test
    void aServiceAnsweringLessThanOfferedIsNotKeepingUpWhateverItsLatency() {
        // the platform JVM: 294, 1,464, 1,067, 0, 0 answered of 600 a second; its few answers quick
        assertThat(Steadiness.moving(
                        windows(600, new long[] {294, 1464, 1067, 0, 0}, new double[] {17, 17, 17, 17, 17})))
                .startsWith("not keeping up: 2,825 of 3,000 offered ended over the last 5 windows");
        // 5% short every second: 150 more late after five
        assertThat(Steadiness.moving(
                        windows(600, new long[] {570, 570, 570, 570, 570}, new double[] {20, 20, 20, 20, 20})))
                .startsWith("not keeping up");
    }

    /**
     * A fresh JVM at 400/s whose backlog neither grows nor drains: every window answers what it is offered, 1,750 late
     * and 1,650 of them unsent (100 connections all busy), the latency flat at 2.6 s: a service at its limit, never
     * steady.
     */
    @Test
    void aStandingBacklogIsNotSteady() {
        List<OpenLoop.Window> w = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Histogram h = new Histogram(3);
            h.recordValueWithCount(2_600_000, 400);
            w.add(new OpenLoop.Window(
                    0,
                    1_000_000_000L,
                    1_750,
                    400,
                    400,
                    0,
                    0,
                    1_750,
                    1_650,
                    h,
                    h,
                    new Histogram(3),
                    new Histogram(3),
                    Map.of(),
                    -1));
        }
        assertThat(Steadiness.moving(w))
                .isEqualTo(
                        "a backlog stands: 1,650 requests not yet sent at the end (every connection busy), 1,750 late"
                                + " in all");
    }

    /**
     * A step over capacity falls behind for good: more late at the end of each of five windows, not kept up between
     * them; a backlog that stands, drains, or grew in only some windows is not falling behind.
     */
    @Test
    void aBacklogGrowingEverySecondIsFallingBehindAndNoOtherIs() {
        assertThat(Steadiness.fallingBehind(
                        windows(600, new long[] {570, 570, 570, 570, 570}, new double[] {20, 20, 20, 20, 20})))
                .isTrue();
        assertThat(Steadiness.fallingBehind(
                        windows(600, new long[] {500, 610, 500, 500, 500}, new double[] {20, 20, 20, 20, 20})))
                .as("one window drained some")
                .isFalse();
        assertThat(Steadiness.fallingBehind(
                        windows(300, new long[] {300, 301, 299, 300, 300}, new double[] {20, 20, 20, 20, 20})))
                .isFalse();
        assertThat(Steadiness.fallingBehind(
                        windows(600, new long[] {570, 570, 570, 570}, new double[] {20, 20, 20, 20})))
                .as("four seconds")
                .isFalse();
    }

    /** Answering more than offered is a backlog draining, whatever its latency does. */
    @Test
    void aDrainIsNotSteady() {
        List<OpenLoop.Window> w = windows(400, new long[] {400, 400, 400, 400, 400}, new double[] {20, 20, 20, 20, 20});
        List<OpenLoop.Window> draining = new ArrayList<>();
        long late = 2_000;
        for (OpenLoop.Window x : w) {
            draining.add(new OpenLoop.Window(
                    0,
                    x.nanos(),
                    late,
                    400,
                    800,
                    0,
                    0,
                    late - 400,
                    0,
                    x.latencyMicros(),
                    x.sendMicros(),
                    x.lateMicros(),
                    x.lagMicros(),
                    Map.of(),
                    -1));
            late -= 400;
        }
        assertThat(Steadiness.moving(draining))
                .isEqualTo("draining a backlog: 4,000 answered of 2,000 offered over the last 5 windows");
    }

    @Test
    void oneWindowThatJumpsCannotHide() {
        // a regression over five points with one jump cannot reject a zero slope; the jump is seen all the same
        assertThat(Steadiness.moving(
                        windows(300, new long[] {300, 300, 300, 300, 300}, new double[] {20, 21, 20, 3201, 21})))
                .matches("latency p50 jumped to 320[0-9]\\.[0-9] ms from 21\\.0 ms");
    }

    @Test
    void fewerThanFiveSecondsCannotTell() {
        assertThat(Steadiness.moving(windows(300, new long[] {300, 300}, new double[] {1, 1})))
                .isEqualTo("fewer than 5 seconds of load");
    }

    /**
     * Windows of {@code offered} each with {@code ended[i]} answered at {@code p50ms[i]}; the late carried from one to
     * the next.
     */
    private static List<OpenLoop.Window> windows(long offered, long[] ended, double[] p50ms) {
        List<OpenLoop.Window> w = new ArrayList<>();
        long late = 0;
        for (int i = 0; i < ended.length; i++) {
            Histogram h = new Histogram(3);
            h.recordValueWithCount(Math.round(p50ms[i] * 1000), Math.max(1, ended[i]));
            long lateAfter = Math.max(0, late + offered - ended[i]);
            w.add(new OpenLoop.Window(
                    0,
                    1_000_000_000L,
                    late,
                    offered,
                    ended[i],
                    0,
                    0,
                    lateAfter,
                    0,
                    h,
                    h,
                    new Histogram(3),
                    new Histogram(3),
                    Map.of(),
                    -1));
            late = lateAfter;
        }
        return w;
    }
}
