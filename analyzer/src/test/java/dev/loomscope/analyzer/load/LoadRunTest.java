package dev.loomscope.analyzer.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A load run's life on a server whose answer is known: what a stop leaves of it. */
class LoadRunTest {
    /**
     * A stop (Ctrl-C) in the middle of the measured windows: the one in progress dropped, those
     * before it summed up as a whole run's are, and said to be fewer than asked; the run then ends.
     */
    @Test
    void aStopAmidTheWindowsSumsUpThoseMeasured() throws Exception {
        try (KnownAnswerServer server = new KnownAnswerServer(8, 10, false)) {
            LoadSpec spec = new LoadSpec(List.of(Requests.of(Target.of(server.url()))), List.of(100.0), 10, Duration.ofSeconds(10), Duration.ZERO,
                    Duration.ofSeconds(1), 20, Duration.ofMillis(500), "test", 0, null, false);
            StringWriter text = new StringWriter();
            LoadRun run = new LoadRun(spec, new PrintWriter(text, true), null);
            java.util.concurrent.CompletableFuture<List<LoadRun.Summary>> summaries = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return run.run();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            for (long deadline = System.nanoTime() + 60_000_000_000L; !text.toString().contains("window 2:") && System.nanoTime() < deadline;) {
                Thread.sleep(50);
            }
            run.stop();
            run.awaitEnd(20_000);
            List<LoadRun.Summary> done = summaries.get(1, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(done).as(text.toString()).hasSize(1);
            int windows = done.get(0).windows();
            assertThat(windows).as(text.toString()).isBetween(2, 19);
            assertThat(text.toString()).contains("GET / at 100/s: stopped after " + windows + " of 20 measured windows; their summary:")
                    .containsPattern("GET / at 100/s: " + windows + " windows, [\\d.]+ s: [\\d,]+ offered");
            assertThat(done.get(0).ok() + done.get(0).errors()).as(text.toString()).isGreaterThanOrEqualTo(windows * 50L - 5);
        }
    }
}
