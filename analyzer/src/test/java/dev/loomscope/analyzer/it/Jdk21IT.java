package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Timeline;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
     * The carriers pins held together (what a study says when the scheduler added carriers past its parallelism) as the
     * JDK's own {@code jfr print} gives the pins: 8 tasks pinned 200 ms each on 4 carriers hold all 4 together.
     */
    @Test
    void theCarriersPinsHoldTogetherAreTheJdkToolsCount() throws Exception {
        String java = jdk21();
        Path out = dir.resolve("rec");
        pinningWorkload(
                java,
                out,
                List.of("-Djdk.virtualThreadScheduler.parallelism=4"),
                "flame=off,profile=off,trace-pinned=off",
                200);
        Path jfr = Fixtures.only(out, ".jfr");
        var facts = RecordingFacts.of(RecordingSource.file(jfr));
        var run = facts.runs.measured().get(0);
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
        // the JDK's tool's pins that begin in the run, cut at its end: the time each depth was held, by a sweep over
        // their ends (an end before a start at the same instant)
        List<long[]> ends = new ArrayList<>();
        for (JsonNode e : new ObjectMapper().readTree(printed.stdout()).at("/recording/events")) {
            long from = Timeline.epochNanos(
                    OffsetDateTime.parse(e.at("/values/startTime").asText()).toInstant());
            if (from >= run.startNanos() && from < run.endNanos()) {
                long to = Math.min(
                        run.endNanos(),
                        from + Duration.parse(e.at("/values/duration").asText()).toNanos());
                ends.add(new long[] {from, 1});
                ends.add(new long[] {to, -1});
            }
        }
        ends.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
        Map<Integer, Long> timeAt = new TreeMap<>();
        int open = 0;
        for (int k = 0; k < ends.size(); k++) {
            if (k > 0) {
                timeAt.merge(open, ends.get(k)[0] - ends.get(k - 1)[0], Long::sum);
            }
            open += (int) ends.get(k)[1];
        }
        long span = ends.get(ends.size() - 1)[0] - ends.get(0)[0];
        int jdkMost = 0;
        long atLeast = 0;
        for (int depth = ends.size() / 2; depth > 0 && jdkMost == 0; depth--) {
            atLeast += timeAt.getOrDefault(depth, 0L);
            jdkMost = atLeast >= RecordingFacts.CARRIERS_SHARE * span ? depth : 0;
        }
        assertThat(facts.carriersPinned())
                .as("the jdk's tool: %d pins in the run, %s ns at each depth", ends.size() / 2, timeAt)
                .isEqualTo(jdkMost)
                .isEqualTo(4);
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
