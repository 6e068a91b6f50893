package dev.loomscope.flamegraphs.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.OtlpProfiles;
import dev.loomscope.recording.RecordingSpan;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OTLP profile as OpenTelemetry's own classes read it ({@link OtlpProfiles}). */
class OtlpWriterTest {
    @TempDir
    Path dir;

    List<String> read(Path profile) throws Exception {
        return OtlpProfiles.read(profile, dir);
    }

    @Test
    void openTelemetrysClassesReadTheSamplesTheirStacksThreadKindAndVirtualThreadId() throws Exception {
        SampleGraph g = PprofWriterTest.graph();
        byte[] two = {SampleGraph.JIT_COMPILED, SampleGraph.JIT_COMPILED};
        g.add(new String[] {"java.lang.VirtualThread.run", "app.Cell.run"}, two, 4, true, 42);
        g.add(new String[] {"java.lang.VirtualThread.run", "app.Cell.run"}, two, 2, true, 43);
        Path profile = dir.resolve("cpu.otlp");
        try (OutputStream out = Files.newOutputStream(profile)) {
            OtlpWriter.write(
                    g,
                    "cpu",
                    10_000_000,
                    RecordingSpan.of(1_700_000_000_000_000_000L, 1_700_000_002_500_000_000L),
                    null,
                    null,
                    out);
        }
        assertThat(read(profile))
                .containsExactly(
                        "platform|-|3|app.Cell.step;app.Cell.run;java.lang.Thread.run",
                        "platform|-|5|app.Other.work;java.lang.Thread.run",
                        "virtual|-|7|app.Cell.step;app.Cell.run;java.lang.VirtualThread.run",
                        "virtual|42|4|app.Cell.run;java.lang.VirtualThread.run",
                        "virtual|43|2|app.Cell.run;java.lang.VirtualThread.run",
                        "type=cpu unit=count time=1700000000000000000 duration=2500000000 period=10000000");
    }

    @Test
    void includeAndExcludeKeepTheStacksTheHtmlGraphKeeps() throws Exception {
        Path profile = dir.resolve("kept.otlp");
        try (OutputStream out = Files.newOutputStream(profile)) {
            OtlpWriter.write(
                    PprofWriterTest.graph(),
                    "wall",
                    0,
                    new RecordingSpan(),
                    Pattern.compile("app\\.Cell\\..*"),
                    Pattern.compile(".*VirtualThread.*"),
                    out);
        }
        assertThat(read(profile))
                .containsExactly(
                        "platform|-|3|app.Cell.step;app.Cell.run;java.lang.Thread.run",
                        "type=wall unit=count time=0 duration=0 period=0");
    }
}
