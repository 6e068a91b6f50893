package dev.loomscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A workload's bottom line: the headline verdict, and only the per-unit figures whose own verdicts point the same way
 * as its cause.
 */
class BottomLineTest {
    private static final long SECOND = 1_000_000_000L;
    private static final List<Metric> HEADLINES = List.of(Metric.THROUGHPUT, Metric.LATENCY_P99);

    @Test
    void fewerContextSwitchesAUnitExplainMoreThroughputAndCpuThatDidNotMoveIsNotNamed() {
        // five JVMs a kind: virtual threads do a run's 1,000 units in 330 ms instead of 1,000 ms, with 0.1 switches a
        // unit instead of 2,
        // and the same CPU time a unit (the process's share of 2 hardware threads, over the shorter run)
        List<MetricResult> results = compare(5, 330, 100, 1000, 2000, 0.9, 0.3);
        String line = BottomLine.of("echo", results, HEADLINES, "virtual", "unit of work", null)
                .text();
        assertThat(line)
                .startsWith("=> echo: virtual better, throughput 3.0")
                .contains("x platform's (95% CI ")
                .contains("; because a unit of work: context switches 0.05")
                .doesNotContain("CPU");
        assertThat(line.length()).isLessThanOrEqualTo(BottomLine.MAX);
    }

    @Test
    void aWorseHeadlineLeadsWithTheComputedCauseAndAnUndecidedOneNamesNone() {
        // virtual threads slower, with more CPU a unit: CPU is the cause; the computed cause (a carrier ceiling) leads
        // when given
        List<MetricResult> worse = compare(5, 1500, 2000, 1000, 2000, 0.6, 0.2);
        assertThat(BottomLine.of(
                                "w",
                                worse,
                                HEADLINES,
                                "virtual",
                                "request",
                                () -> "10 ms pinned (2 carriers serve at most 200/s of 300/s)")
                        .text())
                .matches("=> w: virtual worse, throughput 0\\.6\\d*x platform's \\(95% CI 0\\.6\\d*-0\\.6\\d*x\\);"
                        + " because a request: 10 ms pinned \\(2 carriers serve at most 200/s of 300/s\\), CPU"
                        + " 4\\.\\d+x");
        // what does not fit in a line is left to the verdict lines above it
        assertThat(BottomLine.of("w", worse, HEADLINES, "virtual", "request", () -> "x".repeat(100))
                        .text())
                .endsWith("x".repeat(100));
        // two JVMs a kind cannot reach the rule's alpha: the ratio is given, the causes are not
        String undecided = BottomLine.of(
                        "w", compare(2, 330, 100, 1000, 2000, 0.9, 0.3), HEADLINES, "virtual", "unit of work", null)
                .text();
        assertThat(undecided)
                .startsWith("=> w: virtual not judged (too few JVMs), throughput 3.0")
                .doesNotContain("because");
        // nothing compared on both kinds: no line
        assertThat(BottomLine.of("w", worse, List.of(Metric.LATENCY_P99), "virtual", "request", null))
                .isNull();
    }

    /**
     * Throughput, context switches and CPU per unit of {@code jvms} JVMs a kind, each run 1,000 units; shares of a
     * 2-thread machine.
     */
    private static List<MetricResult> compare(
            int jvms,
            double virtualMillis,
            long virtualSwitches,
            double platformMillis,
            long platformSwitches,
            double virtualCpu,
            double platformCpu) {
        Map<String, List<RecordingFacts>> groups = new TreeMap<>();
        for (int fork = 1; fork <= jvms; fork++) {
            groups.computeIfAbsent("platform", k -> new ArrayList<>())
                    .add(jvm("platform", fork, platformMillis, platformSwitches, platformCpu));
            groups.computeIfAbsent("virtual", k -> new ArrayList<>())
                    .add(jvm("virtual", fork, virtualMillis, virtualSwitches, virtualCpu));
        }
        return Comparer.compare(
                groups,
                List.of(Metric.THROUGHPUT, Metric.CONTEXT_SWITCHES_PER_UNIT, Metric.CPU_TIME_PER_UNIT),
                "platform",
                false);
    }

    private static RecordingFacts jvm(String kind, int fork, double millis, long switches, double cpu) {
        List<WorkloadRun> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            double m = millis * (1 + 0.01 * ((fork + i) % 3)); // a JVM's runs differ a little, and JVMs from each other
            long start = (fork * 100L + i * 2L) * SECOND;
            runs.add(new WorkloadRun(
                    "w",
                    kind,
                    i,
                    false,
                    1000,
                    "units",
                    null,
                    m,
                    Double.NaN,
                    Double.NaN,
                    start,
                    start + (long) (m * 1e6),
                    switches,
                    0,
                    cpu * (1 + 0.01 * fork),
                    0,
                    0,
                    -1));
        }
        RecordingFacts f = RecordingFacts.ofRuns(RecordingSource.file(Path.of(kind + fork + ".jfr")), runs);
        f.summary.hardwareThreads = 2;
        return f;
    }
}
