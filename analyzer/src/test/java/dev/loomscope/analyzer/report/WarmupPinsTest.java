package dev.loomscope.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.reduce.CannedEvent;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report says where pins fell outside the measured runs, which its per-run charts draw as none. */
class WarmupPinsTest {
    @TempDir
    Path dir;

    @Test
    void pinsInAWarmUpAreSaidAboveThePerRunCharts() throws Exception {
        Instant t0 = Instant.parse("2026-11-23T12:00:00Z");
        long ns = t0.toEpochMilli() * 1_000_000;
        RecordingFacts f = RecordingFacts.empty(RecordingSource.file(dir.resolve("virtual.jfr")), false);
        f.summary.span(RecordingSpan.of(ns, ns + 10_000_000_000L));
        f.runs.addAll(List.of(
                new WorkloadRun(
                        "w",
                        "virtual",
                        0,
                        true,
                        100,
                        "units",
                        null,
                        1000,
                        1,
                        2,
                        ns + 1_000_000_000L,
                        ns + 2_000_000_000L,
                        0,
                        0,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        -1),
                new WorkloadRun(
                        "w",
                        "virtual",
                        1,
                        false,
                        100,
                        "units",
                        null,
                        1000,
                        1,
                        2,
                        ns + 3_000_000_000L,
                        ns + 4_000_000_000L,
                        0,
                        0,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        -1)));
        // two pins in the warm-up, one in the measured run
        for (long ms : new long[] {1200, 1700, 3500}) {
            f.dispatch(new CannedEvent("jdk.VirtualThreadPinned", t0.plusMillis(ms), Duration.ofMillis(50), Map.of()));
        }
        Path index = HtmlReport.write(
                dir.resolve("report"), Map.of("virtual", List.of(f)), List.of(), HtmlReport.Extras.NONE);
        assertThat(Files.readString(index))
                .contains(
                        "virtual: 2 of its 3 pins fell outside the measured runs (warm-up, start-up, between runs): the"
                                + " per-run charts leave them out; the Pinning section has them all");
    }
}
