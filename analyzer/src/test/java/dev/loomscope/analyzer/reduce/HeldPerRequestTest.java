package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loomscope.events.WorkWindowEvent;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The time a request holds a carrier, judged against the requests served around the looks: a start-up transient
 * (threads held at every look while few requests are served) is cut off and said, the rest gives the held time a
 * request, whatever the recording's whole span would.
 */
public class HeldPerRequestTest {
    private static final Instant T0 = Instant.parse("2026-12-06T00:00:00Z");
    private static final String HOLDING = "blocks holding a monitor";

    /**
     * 20 s of start-up, 20 requests a second with 4 threads held at every look, then 60 s of 100 requests a second with
     * one thread held at 4 looks of 5: 0.8 threads / 100 requests a second is 8 ms a request. The whole recording's
     * mean over its rate would say (0.2 x 4 + 0.8 x 0.8) threads at 80 requests a second: 18 ms.
     */
    @Test
    void aStartUpTransientIsCutOffAndTheSteadyRequestsJudged() {
        HeldMonitorReducer h = new HeldMonitorReducer();
        WorkReducer work = new WorkReducer();
        for (int sec = 0; sec < 80; sec++) {
            boolean startUp = sec < 20;
            work.add(window(T0.plusSeconds(sec + 1), startUp ? 20 : 100));
            for (int look = 0; look < 10; look++) {
                int i = sec * 10 + look;
                Instant t = T0.plusMillis(100L * i);
                h.add(new CannedEvent(
                        "loomscope.HeldMonitorSample",
                        t,
                        Duration.ofNanos(500_000),
                        Map.of("platformThreads", 20L, "interval", 100L)));
                long threads = startUp ? 4 : i % 5 == 4 ? 0 : 1;
                if (threads > 0) {
                    h.add(new CannedEvent(
                            "loomscope.HeldMonitor",
                            t.plusNanos(600_000),
                            Map.of(
                                    "sample",
                                    (long) i + 1,
                                    "what",
                                    HOLDING,
                                    "threads",
                                    threads,
                                    "site",
                                    "demo.Api.legacy(Api.java:39)",
                                    "stack",
                                    "java.lang.Thread.sleep0(Native Method)")));
                }
            }
        }
        HeldPerRequest.Span span = HeldPerRequest.span(h, work);
        assertThat(span).isNotNull();
        assertThat(span.fromNanos()).isEqualTo(nanos(T0.plusSeconds(20)));
        assertThat(span.leftOutSeconds()).isEqualTo(20.0);
        assertThat(span.leftOutMs())
                .isCloseTo(1000 * 4 / 20.0, within(1e-6)); // 4 threads at 20 requests a second: 200 ms a request
        assertThat(span.rate()).isCloseTo(100, within(1e-9));
        assertThat(span.windows()).isEqualTo(12);
        HeldPerRequest.Estimate e =
                HeldPerRequest.estimate(h, work, s -> s.what().equals(HOLDING), span);
        assertThat(e.ms()).isCloseTo(8.0, within(1e-6));
        // every window held the same: the windows cannot widen the interval, which holds the estimate
        assertThat(e.lowMs()).isCloseTo(8.0, within(1e-6));
        assertThat(e.highMs()).isCloseTo(8.0, within(1e-6));
        // the looks over the span alone say the same as the windows: 0.8 threads
        assertThat(h.mean(s -> s.what().equals(HOLDING), span.fromNanos(), span.toNanos())
                        .mean())
                .isCloseTo(0.8, within(1e-9));
        assertThat(h.samples(span.fromNanos(), span.toNanos())).isEqualTo(600);
    }

    /**
     * Windows that differ give an interval from their residuals about the ratio, Student's t with n - 1 degrees of
     * freedom.
     */
    @Test
    void windowsThatDifferWidenTheInterval() {
        HeldMonitorReducer h = new HeldMonitorReducer();
        WorkReducer work = new WorkReducer();
        long[] threads = {1, 2, 1, 2}; // per 5 s, at every look; 100 requests a second throughout
        for (int sec = 0; sec < 20; sec++) {
            work.add(window(T0.plusSeconds(sec + 1), 100));
            for (int look = 0; look < 10; look++) {
                int i = sec * 10 + look;
                Instant t = T0.plusMillis(100L * i);
                h.add(new CannedEvent(
                        "loomscope.HeldMonitorSample",
                        t,
                        Duration.ofNanos(500_000),
                        Map.of("platformThreads", 20L, "interval", 100L)));
                h.add(new CannedEvent(
                        "loomscope.HeldMonitor",
                        t.plusNanos(600_000),
                        Map.of(
                                "sample",
                                (long) i + 1,
                                "what",
                                HOLDING,
                                "threads",
                                threads[sec / 5],
                                "site",
                                "demo.Api.legacy(Api.java:39)",
                                "stack",
                                "java.lang.Thread.sleep0(Native Method)")));
            }
        }
        HeldPerRequest.Span span = HeldPerRequest.span(h, work);
        assertThat(span.leftOutSeconds()).isZero();
        assertThat(span.windowSeconds()).isEqualTo(2); // 20 s of looks: windows of an eighth of it, in whole seconds
        HeldPerRequest.Estimate e = HeldPerRequest.estimate(h, work, s -> true, span);
        // ten 2 s windows of 200 requests holding 2, 2, 3, 4, 4, 2, 2, 3, 4, 4 thread-seconds: 30 over 2,000 requests
        // is 15 ms a request;
        // residuals about 3: -1, -1, 0, 1, 1, -1, -1, 0, 1, 1
        assertThat(e.ms()).isCloseTo(15.0, within(1e-6));
        // se = sqrt(10/9 x 8) / 2,000 s; t(0.975, 9) = 2.262157162798205 (scipy.stats.t.ppf(0.975, 9))
        double half = 2.262157162798205 * Math.sqrt(10 / 9.0 * 8) / 2000 * 1000;
        assertThat(e.lowMs()).isCloseTo(15.0 - half, within(1e-6));
        assertThat(e.highMs()).isCloseTo(15.0 + half, within(1e-6));
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * The agent's work= window of the second that ended at {@code end}: {@code calls} calls of x::service, none timed.
     */
    public static CannedEvent window(Instant end, long calls) {
        return new CannedEvent(
                WorkWindowEvent.NAME,
                end,
                Duration.ZERO,
                Map.of(
                        "method",
                        "x::service",
                        "calls",
                        calls,
                        "timed",
                        0L,
                        "window",
                        1_000_000_000L,
                        "durations",
                        encode(new Histogram(
                                WorkWindowEvent.LOWEST_NANOS,
                                WorkWindowEvent.HIGHEST_NANOS,
                                WorkWindowEvent.SIGNIFICANT_DIGITS))));
    }

    private static String encode(Histogram h) {
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(b.array(), n));
    }
}
