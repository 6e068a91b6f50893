package dev.loomscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.load.ClientRow;
import dev.loomscope.load.stats.LatencyHistograms;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A recording's latency is each request once: the percentile of its measured windows' histograms merged, not the median
 * of the windows' percentiles, which hides one slow second in three.
 */
class RecordingLatencyTest {
    /** A measured window of 1,000 requests at {@code ms}, its own percentiles {@code ms}; its histogram kept or not. */
    private static WorkloadRun window(int index, double ms, boolean histogram) {
        Histogram h = new Histogram(LatencyHistograms.HIGHEST_MICROS, 3);
        h.recordValueWithCount((long) (ms * 1e3), 1000);
        String encoded = histogram ? LatencyHistograms.encode(h) : null;
        long start = index * 1_000_000_000L;
        return new WorkloadRun(
                "GET / at 1000/s",
                "virtual",
                index,
                false,
                1000,
                "requests",
                null,
                1000,
                ms,
                ms,
                start,
                start + 1_000_000_000L,
                -1,
                -1,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                -1,
                new ClientRow(ms, 1000, 0, "loomscope load", 0, encoded, encoded, null, 0.1, null, Double.NaN, -1));
    }

    private static RecordingFacts jvm(boolean histograms) {
        List<WorkloadRun> runs = new ArrayList<>();
        double[] ms = {10, 10, 100};
        for (int i = 0; i < ms.length; i++) {
            runs.add(window(i, ms[i], histograms));
        }
        return RecordingFacts.ofRuns(RecordingSource.file(Path.of("virtual.jfr")), runs);
    }

    @Test
    void theRecordingsLatencyIsOfItsMergedWindowsEachRequestOnce() {
        RecordingFacts f = jvm(true);
        // 2,000 requests at 10 ms and 1,000 at 100 ms: p50 10 ms, p99 100 ms (HdrHistogram's 3 digits); the windows'
        // p99s' median is 10
        assertThat(Metric.LATENCY_P50.valueOfRecording(f)).isCloseTo(10, within(0.02));
        assertThat(Metric.LATENCY_P99.valueOfRecording(f)).isCloseTo(100, within(0.1));
        assertThat(Metric.LATENCY_P999.valueOfRecording(f))
                .as("3,000 requests are too few for a p99.9")
                .isNull();
        // each window keeps its own value: what the comparison resamples
        assertThat(Metric.LATENCY_P99.extract().apply(f))
                .extracting(Metric.Value::value)
                .containsExactly(10.0, 10.0, 100.0);
    }

    @Test
    void windowsWithoutHistogramsGiveTheMedianOfTheirValues() {
        assertThat(Metric.LATENCY_P99.valueOfRecording(jvm(false))).isEqualTo(10.0);
    }
}
