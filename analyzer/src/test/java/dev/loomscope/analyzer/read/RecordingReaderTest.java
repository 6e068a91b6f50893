package dev.loomscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.loomscope.analyzer.reduce.Flames;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.flamegraphs.render.SampleKind;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.RecordingSource;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parts of a recording read in parallel for a reduction that merges (a flame graph) give what reading them one
 * after the other gives: the same samples, the same warnings in the same order, and the same error naming the first
 * damaged part. Real recordings of async-profiler.
 */
class RecordingReaderTest {
    @TempDir
    Path dir;

    private static final FlameOptions CPU = FlameOptions.of(SampleKind.CPU);

    /** A recording of the corpus of other writers' files, expanded into {@code dir}. */
    private Path corpus(String name) throws Exception {
        Path plain = dir.resolve(Path.of(name).getFileName().toString().replace(".gz", ""));
        try (InputStream in = new GZIPInputStream(
                getClass().getResourceAsStream("/corpus/" + (name.contains("/") ? name : "peers/" + name)))) {
            Files.copy(in, plain);
        }
        return plain;
    }

    /** The samples of {@code source}'s parts read one after the other into one aggregate, and its warnings. */
    private static FlameSamples inOrder(RecordingSource source, List<String> warnings) {
        FlameSamples samples = new FlameSamples(CPU, false);
        RecordingReader.events(source, samples.eventTypes(), warnings::add, samples::add, samples::counted);
        return samples;
    }

    @Test
    void partsReadInParallelGiveTheSamplesAndWarningsOfPartsReadInOrder() throws Exception {
        Path profiler = corpus("async-profiler.jfr.gz");
        Path kafka = corpus("cortex-dev-01__kafka-0__cpu__0.jfr.gz");
        // a part cut short: a warning of its own, naming that part
        byte[] bytes = Files.readAllBytes(corpus("cortex-dev-01__kafka-0__cpu_lock_alloc__0.jfr.gz"));
        Path cut = Files.write(dir.resolve("cut.jfr"), Arrays.copyOf(bytes, bytes.length - 1000));
        // Datadog's profiler's checkpoints, which do not chain: a warning the reading of each says, naming it
        Path datadog = corpus("datadog/AZ0slzG9AADg9z1ELwL5qgAA.jfr.gz");
        Path datadogToo = corpus("datadog/AZ0slzKIAADGHszqgs61zAAA.jfr.gz");
        RecordingSource source = new RecordingSource(profiler, List.of(profiler, datadog, kafka, datadogToo, cut));

        List<String> sequentialWarnings = new ArrayList<>();
        FlameSamples sequential = inOrder(source, sequentialWarnings);
        List<String> parallelWarnings = new ArrayList<>();
        FlameSamples parallel = Flames.of(source, CPU, false, false, parallelWarnings::add);

        assertThat(sequential.graph("x").total()).isPositive();
        assertThat(parallel.graph("x").total()).isEqualTo(sequential.graph("x").total());
        assertThat(parallel.graph("x").frames()).isEqualTo(sequential.graph("x").frames());
        assertThat(sequentialWarnings).hasSize(3);
        assertThat(sequentialWarnings.get(0))
                .contains(cut.toString()); // said when the parts are made ready, before any is read
        assertThat(sequentialWarnings.get(1)).contains(datadog.toString());
        assertThat(sequentialWarnings.get(2)).contains(datadogToo.toString());
        assertThat(parallelWarnings).isEqualTo(sequentialWarnings);
    }

    @Test
    void theFirstDamagedPartIsNamedAsWhenPartsAreReadInOrder() throws Exception {
        Path profiler = corpus("async-profiler.jfr.gz");
        Path kafka = corpus("cortex-dev-01__kafka-0__cpu__0.jfr.gz");
        Path first = damaged(kafka, "first-damaged.jfr");
        Path second = damaged(profiler, "second-damaged.jfr");
        RecordingSource source = new RecordingSource(profiler, List.of(profiler, first, kafka, second));

        Throwable sequential = catchThrowable(() -> inOrder(source, new ArrayList<>()));
        Throwable parallel = catchThrowable(() -> Flames.of(source, CPU, false, false, w -> {}));

        assertThat(sequential).isInstanceOf(BadDataException.class).hasMessageContaining(first.toString());
        assertThat(parallel).isInstanceOf(BadDataException.class).hasMessage(sequential.getMessage());
    }

    /**
     * A copy of {@code recording} with 64 bytes overwritten a third of the way into the file (inside a chunk's events:
     * the parser, not the scan, finds it).
     */
    private Path damaged(Path recording, String name) throws Exception {
        byte[] bytes = Files.readAllBytes(recording);
        Arrays.fill(bytes, bytes.length / 3, bytes.length / 3 + 64, (byte) 0xff);
        return Files.write(dir.resolve(name), bytes);
    }
}
