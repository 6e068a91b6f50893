package dev.loomscope.analyzer.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.CannedEvent;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.events.WorkEvent;
import dev.loomscope.load.ClientRow;
import dev.loomscope.load.stats.LatencyHistograms;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** What the client saw of each JVM, and why a JVM has no figures: said, never a wrong reason. */
class ClientLineTest {
    /**
     * One JVM's windows: a warm-up and three measured windows of 100 requests at 20 ms, the client's own lateness at
     * p99 {@code lagMs}.
     */
    private static RecordingFacts windows(double lagMs, boolean histograms) {
        return windows(lagMs, histograms, -1);
    }

    private static RecordingFacts windows(double lagMs, boolean histograms, int connections) {
        Histogram h = new Histogram(LatencyHistograms.HIGHEST_MICROS, 3);
        for (int i = 0; i < 100; i++) {
            h.recordValue(20_000);
        }
        String encoded = histograms ? LatencyHistograms.encode(h) : null;
        List<WorkloadRun> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            long start = i * 1_000_000_000L;
            out.add(new WorkloadRun(
                    "GET / at 100/s",
                    "virtual",
                    i,
                    i == 0,
                    100,
                    "requests",
                    "GET / rate=100/s",
                    1000,
                    20,
                    20,
                    start,
                    start + 1_000_000_000L,
                    -1,
                    -1,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    -1,
                    new ClientRow(
                            20,
                            100,
                            0,
                            "loomscope load",
                            0,
                            encoded,
                            encoded,
                            null,
                            lagMs,
                            "GET /",
                            100,
                            connections)));
        }
        return RecordingFacts.ofRuns(RecordingSource.file(Path.of("virtual" + lagMs + ".jfr")), out);
    }

    /**
     * A cold JVM's backlog draining in its measured windows: 100 offered and 160 answered in each, the 927/s of
     * 675/s in small; never the ground of a bottom line, and said whose it was.
     */
    @Test
    void aJvmDrainingABacklogIsSaidAndNoBottomLineRestsOnIt() {
        Histogram h = new Histogram(LatencyHistograms.HIGHEST_MICROS, 3);
        h.recordValueWithCount(2_000_000, 160);
        String encoded = LatencyHistograms.encode(h);
        List<WorkloadRun> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            long start = i * 1_000_000_000L;
            out.add(new WorkloadRun(
                    "GET / at 100/s",
                    "virtual",
                    i,
                    i == 0,
                    160,
                    "requests",
                    null,
                    1000,
                    2000,
                    2000,
                    start,
                    start + 1_000_000_000L,
                    -1,
                    -1,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    -1,
                    new ClientRow(
                            2000, 100, 0, "loomscope load", 0, encoded, encoded, null, 0.1, null, Double.NaN, -1)));
        }
        RecordingFacts draining = RecordingFacts.ofRuns(RecordingSource.file(Path.of("virtual-draining.jfr")), out);
        assertThat(draining.runs.client().drained()).isTrue();
        assertThat(windows(0.2, true).runs.client().drained()).isFalse(); // 100 of 100
        assertThat(Draining.of(Map.of(
                        "virtual", List.of(draining, windows(0.2, true)), "platform", List.of(windows(0.2, true)))))
                .startsWith("virtual: 1 of 2 JVMs answered above the offered rate in their measured windows (a backlog"
                        + " from their warm-up draining");
        assertThat(Draining.of(Map.of("virtual", List.of(windows(0.2, true)), "platform", List.of(windows(0.2, true)))))
                .isNull();
    }

    @Test
    void aJvmWhoseClientLaggedInEveryWindowHasNoFiguresAndTheLineSaysWhy() {
        assertThat(ClientLine.of("virtual", List.of(windows(0.2, true))))
                .startsWith("virtual 100/s answered of 100/s, p50 20.0 ms, p99 n/a (1,000 requests a JVM needed)");
        assertThat(ClientLine.of("virtual", List.of(windows(12, true))))
                .isEqualTo(
                        "virtual no figures (the load client itself lagged in 3 of 3 measured windows (its sends late"
                                + " by over 5 ms at p99), left out as its own, not the service's: the machine was too"
                                + " busy for this rate)");
        assertThat(ClientLine.of("virtual", List.of(windows(0.2, false))))
                .contains("no figures (the windows hold no histograms");
        assertThat(ClientLine.of("virtual", List.of(windows(0.2, true), windows(12, true))))
                .endsWith("; 1 JVM without figures left out (the load client itself lagged in 3 of 6 measured windows"
                        + " (its sends late by over 5 ms at p99), left out as its own, not the service's: the machine"
                        + " was too busy for this rate)");
        // nor has it any figure of the windows: not the whole recording's, which holds the warm-up (here the handler's
        // calls work= timed, 50 in its first second)
        RecordingFacts lagged = windows(12, true);
        for (int i = 0; i < 50; i++) {
            CannedEvent call = new CannedEvent(
                    WorkEvent.NAME, Instant.ofEpochSecond(0, i * 20_000_000L), Duration.ofMillis(20), Map.of());
            lagged.dispatch(call);
            lagged.summary.add(call); // the recording's span
        }
        assertThat(lagged.work.count()).isEqualTo(50);
        for (Metric m : List.of(Metric.THROUGHPUT, Metric.LATENCY_P99)) {
            assertThat(m.extract().apply(lagged)).as(m.name()).isEmpty();
            assertThat(m.extract().apply(windows(0.2, true))).as(m.name()).hasSize(3);
        }
    }

    /**
     * 100 requests a second, each 20 ms from its send, hold 2 connections on average (Little's law): all of 2, a
     * fraction of 100.
     */
    @Test
    void aJvmWhoseClientHadEveryConnectionBusyIsSaidToHaveHadThem() {
        assertThat(ClientLine.of("virtual", List.of(windows(0.2, true, 2))))
                .contains(", 1 of 1 JVMs with every one of the client's 2 connections busy (requests waited in the"
                        + " client for one: more --connections tells whether they or the service set the rate)");
        assertThat(ClientLine.of("virtual", List.of(windows(0.2, true, 100)))).doesNotContain("busy");
        assertThat(ClientLine.of("virtual", List.of(windows(0.2, true)))).doesNotContain("busy");
    }

    /**
     * The same windows, the handler's own time (the agent's work=) known: 20 ms of the 20 ms from the send, the
     * connections may be the limit; 5 ms of it (5.01 as HdrHistogram keeps it), the requests waited in the service, and
     * more connections would not raise the rate.
     */
    @Test
    void everyConnectionBusyWhileTheServiceQueuedIsSaidToBeTheServices() {
        for (int handlerMs : new int[] {20, 5}) {
            RecordingFacts f = windows(0.2, true, 2);
            for (int i = 0; i < 300; i++) {
                f.dispatch(new CannedEvent(
                        WorkEvent.NAME,
                        Instant.ofEpochSecond(1, i * 1_000_000L),
                        Duration.ofMillis(handlerMs),
                        Map.of()));
                // slow calls in the warm-up window: outside the measured windows the busy connections are of, so not
                // the handler's time here
                f.dispatch(new CannedEvent(
                        WorkEvent.NAME,
                        Instant.ofEpochSecond(0, 100_000_000L + i * 1_000_000L),
                        Duration.ofMillis(100),
                        Map.of()));
            }
            String line = ClientLine.of("virtual", List.of(f));
            if (handlerMs == 20) {
                assertThat(line)
                        .contains("(requests waited in the client for one: more --connections tells whether they or the"
                                + " service set the rate)");
            } else {
                assertThat(line)
                        .contains("(requests waited in the client for one, held by the service: 20.0 ms a request from"
                                + " its send (the mean) against 5.01 ms in the handler at p99, so the requests waited"
                                + " in it for a thread or a carrier, and more connections would lengthen that wait)");
            }
        }
    }

    /** Windows of 100 requests make no p99 alone (1,000 do): said under the verdicts, with the window that would. */
    @Test
    void windowsTooShortForAP99AreSaidWithTheWindowThatWouldDo() {
        assertThat(ClientLine.fewForP99("GET / at 100/s", List.of(List.of(windows(0.2, true))), 100))
                .isEqualTo("GET / at 100/s: its latency p99 verdicts compare windows of 100 requests, fewer than the"
                        + " 1,000 with which a window's p99 is a figure alone (10 above it): each window's is near its"
                        + " largest, and the interval holds their spread; --window 10s offers 1,000 or more at 100/s");
        assertThat(ClientLine.fewForP99("GET / at 100/s", List.of(List.of(windows(0.2, false))), 100))
                .isNull(); // no histograms: nothing known
    }
}
