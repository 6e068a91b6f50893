package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A load run's life on a server whose answer is known: its ramp, and what a stop leaves of it. */
class LoadRunTest {
    /**
     * 8 workers holding a request 10 ms serve 800 a second: a ramp of 3 s to 200/s rises by 50/s, 100/s and 150/s, a
     * second each, every step kept up; the ramp writes no rows, so the results hold the rate's warm-up and windows
     * only. With one worker of 100 ms (10/s), the ramp to 80/s ends at its first step, 20/s, which it does not keep up
     * with.
     */
    @Test
    void aRampRisesToTheFirstRateAndEndsAtAStepNotKeptUp() throws Exception {
        try (KnownAnswerServer server = new KnownAnswerServer(8, 10, false)) {
            LoadSpec spec = Spec.of(server.url())
                    .rate(200.0)
                    .ramp(Duration.ofSeconds(3))
                    .build();
            StringWriter text = new StringWriter();
            StringWriter rows = new StringWriter();
            new LoadRun(spec, new PrintWriter(text, true), rows).run();
            for (int step = 1; step <= 3; step++) {
                assertThat(text.toString())
                        .as(text.toString())
                        .containsPattern("GET / at 200/s, test: ramp to 200/s, step " + step + " of 3: " + 50 * step
                                + "/s for 1 s: \\d+ offered, \\d+ answered, 0 errors, \\d late at its end; latency p50"
                                + " [\\d.]+ ms\n");
            }
            assertThat(text.toString()).doesNotContain("not kept up");
            assertThat(rows.toString())
                    .contains("GET / at 200/s")
                    .doesNotContain("at 50/s")
                    .doesNotContain("at 100/s")
                    .doesNotContain("at 150/s");
        }
        try (KnownAnswerServer server = new KnownAnswerServer(1, 100, false)) {
            LoadSpec spec = Spec.of(server.url())
                    .rate(80.0)
                    .warmup(Duration.ZERO, Duration.ZERO)
                    .windows(1, Duration.ofMillis(500))
                    .ramp(Duration.ofSeconds(3))
                    .build();
            StringWriter text = new StringWriter();
            new LoadRun(spec, new PrintWriter(text, true), null).run();
            assertThat(text.toString())
                    .as(text.toString())
                    .containsPattern("ramp to 80/s, step 1 of 3: 20/s for 1 s: .*; not kept up: the ramp ends here\n")
                    .doesNotContain("step 2 of 3");
        }
    }

    /**
     * Before a capacity search, the ramp doubles from the search's first rate, 100/s, until the service falls behind: 8
     * workers of 10 ms serve 800/s, so 100, 200 and 400/s are kept up and the ramp ends at 800/s or 1,600/s, before its
     * sixth step.
     */
    @Test
    void aRampBeforeASearchDoublesUntilTheServiceFallsBehind() throws Exception {
        try (KnownAnswerServer server = new KnownAnswerServer(8, 10, false)) {
            LoadSpec spec = Spec.of(server.url())
                    .search("p99=800ms")
                    .connections(100)
                    .ramp(Duration.ofSeconds(3))
                    .build();
            StoppedRun stopped = StoppedRun.of(spec, "ramp ends here");
            String text = stopped.text();
            for (int step = 1; step <= 3; step++) {
                assertThat(text.toString())
                        .as(text.toString())
                        .containsPattern(
                                "GET /, test: ramp before the search, step " + step + " of at most 6: " + (50 << step)
                                        + "/s for 1 s: \\d+ offered, \\d+ answered, 0 errors, \\d+ late at its end;"
                                        + " latency p50 [\\d.]+ ms\n");
            }
            assertThat(text.toString())
                    .as(text.toString())
                    .containsPattern(
                            "step [45] of at most 6: (800|1600)/s for 1 s: .*; not kept up: the ramp ends here\n")
                    .doesNotContain("step 6 of");
        }
    }

    /**
     * As many spinning processes as the machine has cores beside a load watching the service's pid: its summary says
     * the machine was busy, with other processes' share of its CPU.
     */
    @Test
    void aBusyMachineIsSaidInTheSummary() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc here");
        List<Process> hogs = new ArrayList<>();
        try (KnownAnswerServer server = new KnownAnswerServer(8, 10, false)) {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                hogs.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
            }
            LoadSpec spec = Spec.of(server.url())
                    .rate(50.0)
                    .windows(2, Duration.ofSeconds(1))
                    .appPid(ProcessHandle.current().pid())
                    .build();
            StringWriter text = new StringWriter();
            new LoadRun(spec, new PrintWriter(text, true), null).run();
            assertThat(text.toString())
                    .as(text.toString())
                    .containsPattern("A BUSY MACHINE: other processes took \\d+% of its CPU in the median window"
                            + " \\(over 20%, where a study runs a JVM again\\)");
        } finally {
            hogs.forEach(Process::destroyForcibly);
        }
    }

    /**
     * A stop (Ctrl-C) in the middle of the measured windows: the one in progress dropped, those before it summed up as
     * a whole run's are, and said to be fewer than asked; the run then ends.
     */
    @Test
    void aStopAmidTheWindowsSumsUpThoseMeasured() throws Exception {
        try (KnownAnswerServer server = new KnownAnswerServer(8, 10, false)) {
            LoadSpec spec = Spec.of(server.url())
                    .rate(100.0)
                    .windows(20, Duration.ofMillis(500))
                    .build();
            StoppedRun stopped = StoppedRun.of(spec, "window 2:");
            String text = stopped.text();
            List<LoadRun.Summary> done = stopped.summaries();
            assertThat(done).as(text.toString()).hasSize(1);
            int windows = done.get(0).windows();
            assertThat(windows).as(text.toString()).isBetween(2, 19);
            assertThat(text.toString())
                    .contains("GET / at 100/s: stopped after " + windows + " of 20 measured windows; their summary:")
                    .containsPattern("GET / at 100/s: " + windows + " windows, [\\d.]+ s: [\\d,]+ offered");
            assertThat(done.get(0).client().answered() + done.get(0).client().errors())
                    .as(text.toString())
                    .isGreaterThanOrEqualTo(windows * 50L - 5);
        }
    }
}
