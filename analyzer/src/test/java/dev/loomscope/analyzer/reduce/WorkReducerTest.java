package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.recording.RecordingSource;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import jdk.jfr.Recording;
import org.HdrHistogram.Histogram;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's windows of work= calls, read from a recording this JVM writes: a damaged window is left out and said. */
class WorkReducerTest {
    @TempDir
    Path dir;

    static void window(long calls, String durations) {
        WorkWindowEvent e = new WorkWindowEvent();
        e.method = "demo.Api::io";
        e.calls = calls;
        e.timed = calls;
        e.window = 1_000_000_000L;
        e.durations = durations;
        e.commit();
    }

    @Test
    void aWindowWhoseHistogramCannotBeReadIsLeftOutAndSaid() throws Exception {
        Histogram h = new Histogram(
                WorkWindowEvent.LOWEST_NANOS, WorkWindowEvent.HIGHEST_NANOS, WorkWindowEvent.SIGNIFICANT_DIGITS);
        for (int i = 1; i <= 100; i++) {
            h.recordValue(i * 1_000_000L); // 1..100 ms
        }
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        String encoded = Base64.getEncoder().encodeToString(Arrays.copyOf(b.array(), n));
        Path file = dir.resolve("work.jfr");
        try (Recording r = new Recording()) {
            r.enable(WorkWindowEvent.class);
            r.start();
            window(100, encoded);
            window(7, "not a histogram");
            r.stop();
            r.dump(file);
        }
        RecordingFacts f = RecordingFacts.of(RecordingSource.file(file));
        assertThat(f.work.count()).isEqualTo(100);
        assertThat(f.work.undecodable()).isEqualTo(7);
        assertThat(f.work.quantileMillis(0.5)).isCloseTo(50.0, Offset.offset(0.5)); // 2 significant digits
        assertThat(f.warnings)
                .anyMatch(w -> w.endsWith(
                        file.toAbsolutePath() + ": 7 calls in loomscope.WorkWindow events whose histogram cannot be"
                                + " read (damage): left out of calls a second and latency"));
    }
}
