package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Timeline;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent, the workloads and the study on JDK 21 ({@link ChildJvm#jdk21}: {@code .ci/run} fetches one), where
 * synchronized still pins a virtual thread and most services run virtual threads today.
 */
class Jdk21IT {
    @TempDir
    Path dir;

    static String jdk21() {
        var java = ChildJvm.jdk21();
        Assumptions.assumeTrue(java.isPresent(), "no JDK 21 here (LOOMSCOPE_JDK21, or .ci/jdk21)");
        return java.get();
    }

    @Test
    void synchronizedPinsAreRecordedAndShown() throws Exception {
        String java = jdk21();
        Path out = dir.resolve("rec");
        pinningWorkload(java, out, List.of(), "flame=off,trace-pinned=off", 20);
        Path jfr = Fixtures.only(out, ".jfr");
        ChildJvm.Result summary = Fixtures.cli(dir, "summary", jfr.toString());
        assertThat(summary.stdout()).contains("21.0.");
        ChildJvm.Result pinning = Fixtures.cli(dir, "pinning", jfr.toString(), "--format", "csv");
        assertThat(pinning.exitCode()).as(pinning.stderr()).isZero();
        // every task blocked inside synchronized: each pinned, grouped at the workload's frame
        assertThat(pinning.stdout()).contains("PinningWorkload");
        ChildJvm.Result gate = Fixtures.cli(dir, "pinning", jfr.toString(), "--fail-on-pinning");
        assertThat(gate.exitCode()).as(gate.stdout() + gate.stderr()).isEqualTo(1);
    }

    /**
     * The carriers pins held at one instant (what a study says when the scheduler added carriers past its parallelism)
     * as the JDK's own {@code jfr print} gives the pins: 8 tasks pinned 200 ms each on 4 carriers hold all 4 at once.
     */
    @Test
    void theCarriersPinsHoldAtOnceAreTheJdkToolsCount() throws Exception {
        String java = jdk21();
        Path out = dir.resolve("rec");
        pinningWorkload(
                java,
                out,
                List.of("-Djdk.virtualThreadScheduler.parallelism=4"),
                "flame=off,profile=off,trace-pinned=off",
                200);
        Path jfr = Fixtures.only(out, ".jfr");
        Path tool = Path.of(ChildJvm.javaExecutable()).resolveSibling("jfr");
        ChildJvm.Result printed = ChildJvm.exec(
                List.of(
                        tool.toString(),
                        "print",
                        "--json",
                        "--events",
                        JdkEvents.VIRTUAL_THREAD_PINNED,
                        jfr.toString()),
                dir,
                120);
        assertThat(printed.exitCode()).as(printed.stderr()).isZero();
        // the JDK's tool's pins, counted by a sweep over their ends (an end before a start at the same instant)
        List<long[]> ends = new ArrayList<>();
        for (JsonNode e : new ObjectMapper().readTree(printed.stdout()).at("/recording/events")) {
            Instant start =
                    OffsetDateTime.parse(e.at("/values/startTime").asText()).toInstant();
            long from = Timeline.epochNanos(start);
            ends.add(new long[] {from, 1});
            ends.add(new long[] {
                from + Duration.parse(e.at("/values/duration").asText()).toNanos(), -1
            });
        }
        ends.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
        int open = 0;
        int jdkMost = 0;
        for (long[] x : ends) {
            open += (int) x[1];
            jdkMost = Math.max(jdkMost, open);
        }
        var facts = RecordingFacts.of(RecordingSource.file(jfr));
        int ours = facts.pinning.allInTime().mostAtOnce(Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(ours)
                .as("the jdk's tool: %d pins, %d at once", ends.size() / 2, jdkMost)
                .isEqualTo(jdkMost);
        assertThat(ours).isEqualTo(4);
    }

    @Test
    void theStudyRunsOnJdk21() throws Exception {
        String java = jdk21();
        Path report = dir.resolve("report");
        ChildJvm.Result r = Fixtures.cli(
                dir,
                "study",
                "--workload",
                "sleep",
                "--runs",
                "2",
                "--warmup",
                "0",
                "--forks",
                "2",
                "--tasks",
                "300",
                "--reruns",
                "0",
                "--keep-disturbed",
                "--java",
                java,
                "--out",
                report.toString(),
                "--keep");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("sleep: virtual vs platform: run time median");
        assertThat(Files.readString(report.resolve("index.html"))).contains("sleep");
        Path recordings = report.resolve("recordings");
        ChildJvm.Result summary = Fixtures.cli(dir, "summary", recordings.toString(), "--format", "csv");
        assertThat(summary.exitCode()).as(summary.stderr()).isZero();
        assertThat(summary.stdout()).contains("21.0.");
    }

    /**
     * The pinning workload on JDK 21 under the agent ({@code agentOptions}, recording to {@code out}): 8 virtual
     * threads each blocking {@code blockMs} inside synchronized, one run.
     */
    private void pinningWorkload(String java, Path out, List<String> jvmOptions, String agentOptions, int blockMs)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of(
                "-javaagent:" + Fixtures.AGENT + "=out=" + out + "," + agentOptions,
                "-jar",
                Fixtures.WORKLOADS.toString(),
                "pinning",
                "--threads",
                "virtual",
                "--case",
                "synchronized",
                "--tasks",
                "8",
                "--block-ms",
                Integer.toString(blockMs),
                "--runs",
                "1",
                "--warmup",
                "0"));
        ChildJvm.Result r = ChildJvm.exec(cmd, dir, 120);
        assertThat(r.exitCode()).as(r.toString()).isZero();
    }
}
