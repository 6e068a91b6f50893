package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap figures against what the JVM itself says, on a thread-per-task run (a platform thread per task, each gone
 * before JFR's allocation sampler sees most of it): the allocation rate counts what the tasks allocated, the heap fill
 * rate what the GC log's collections show the heap took, and the after-GC levels are the collections' alone.
 */
class MetricsIT {
    @TempDir
    Path dir;

    /**
     * {@code [123456789ns] ... GC(3) Pause Young (Normal) (G1 Evacuation Pause) 120M->4M(256M) 2.345ms}: the line's
     * time (uptime in nanoseconds: stretches between collections last some 50 ms here, too short for the default
     * millisecond decoration), before, after, pause.
     */
    static final Pattern PAUSE =
            Pattern.compile("\\[(\\d+)ns\\].*GC\\((\\d+)\\) Pause Young.* (\\d+)M->(\\d+)M\\(\\d+M\\) (\\d+\\.\\d+)ms");

    @Test
    void heapFiguresMatchTheJvmsOwnAccount() throws Exception {
        Path out = dir.resolve("rec");
        Path log = dir.resolve("gc.log");
        ChildJvm.Result r = ChildJvm.run(
                List.of(
                        "-Xmx256m",
                        "-XX:+UseG1GC",
                        "-Xlog:gc:file=" + log + ":uptimenanos",
                        "-javaagent:" + Fixtures.AGENT + "=out=" + out
                                + ",profile=off,flame=off,trace-pinned=off,startup=before-main"),
                ThreadPerTaskApp.class.getName(),
                List.of(),
                dir,
                180);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        long allocatedByTasks = Long.parseLong(r.stdout().replaceAll("(?s).*allocated by tasks (\\d+).*", "$1"));
        RecordingFacts f = Analysis.of(List.of(RecordingSource.file(Fixtures.only(out, ".jfr"))))
                .get(0);

        // the program's allocation: the tasks' bytes (the JVM and the agent add a little), though the sampler saw a
        // fraction of them
        double allocated = Metric.named("allocation rate").valueOfRecording(f) * (1 << 20) * f.summary.spanSeconds();
        assertThat(allocated)
                .as("bytes allocated over the recording against the tasks' %d", allocatedByTasks)
                .isBetween(0.95 * allocatedByTasks, 1.25 * allocatedByTasks);

        // what the heap took between collections, from the GC log: young pauses' before minus the previous one's after,
        // over the time between;
        // the collections the recording holds (the JDK's parser says which), not the JVM's start-up before it
        Set<Long> recorded = new HashSet<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(Fixtures.only(out, ".jfr"))) {
            if (e.getEventType().getName().equals("jdk.GarbageCollection")) {
                recorded.add(e.getLong("gcId"));
            }
        }
        List<double[]> pauses = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = PAUSE.matcher(line);
            if (m.find() && recorded.contains(Long.parseLong(m.group(2)))) {
                double end = Long.parseLong(m.group(1)) / 1e9;
                double pause = Double.parseDouble(m.group(5)) / 1000;
                pauses.add(
                        new double[] {end - pause, end, Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4))
                        });
            }
        }
        assertThat(pauses.size()).as("young collections in the GC log").isGreaterThanOrEqualTo(3);
        double bytes = 0;
        double seconds = 0;
        for (int i = 1; i < pauses.size(); i++) {
            bytes += (pauses.get(i)[2] - pauses.get(i - 1)[3]) * (1 << 20);
            seconds += pauses.get(i)[0] - pauses.get(i - 1)[1];
        }
        double logRate = bytes / seconds / (1 << 20);
        double fill = Metric.named("heap fill rate").valueOfRecording(f);
        assertThat(fill)
                .as("heap fill rate (MiB/s) against the GC log's %.1f", logRate)
                .isBetween(0.9 * logRate, 1.1 * logRate);
        // a platform thread per task wastes the rest of its TLAB: the heap fills faster than the tasks allocate
        assertThat(fill)
                .isGreaterThanOrEqualTo(0.9 * Metric.named("allocation rate").valueOfRecording(f));

        // heap used after GC: the collections' (as many as the log has, within what JFR's span holds), never
        // async-profiler's
        assertThat(f.heap.afterUsed().count()).isBetween(pauses.size() - 2, pauses.size() + 2);
        assertThat(f.heap.afterUsed().max() / (1 << 20))
                .isLessThanOrEqualTo(
                        pauses.stream().mapToDouble(p -> p[3]).max().orElseThrow() + 1);
    }

    /**
     * {@code sleep platform run 2/4: 251.3 ms, 7960 tasks/s, ..., process CPU 80.2 ms}: the runner's line, its CPU time
     * from the JVM's own MXBean.
     */
    static final Pattern RUN =
            Pattern.compile("^sleep \\w+ run (\\d+)/\\d+: .*process CPU ([\\d.]+) ms", Pattern.MULTILINE);

    /**
     * CPU time a unit against the process CPU time the workload reads from its JVM's MXBean around each run
     * (loomscope's comes from /proc shares of the machine and the recording's hardware threads); platform threads
     * started a unit against the program's own design, a new platform thread per task.
     */
    @Test
    void cpuTimeAndThreadStartsPerUnitMatchTheProgramsOwnAccount() throws Exception {
        for (String kind : List.of("platform", "virtual")) {
            Path out = dir.resolve("rec-" + kind);
            ChildJvm.Result r = ChildJvm.exec(
                    List.of(
                            ChildJvm.javaExecutable(),
                            "-javaagent:" + Fixtures.AGENT + "=out=" + out + ",profile=off,flame=off,trace-pinned=off",
                            "-jar",
                            Fixtures.WORKLOADS.toString(),
                            "sleep",
                            "--threads",
                            kind,
                            "--runs",
                            "4",
                            "--warmup",
                            "1",
                            "--tasks",
                            "3000",
                            "--sleep-ms",
                            "5"),
                    dir,
                    180);
            assertThat(r.exitCode()).as(r.toString()).isZero();
            RecordingFacts f = Analysis.of(List.of(RecordingSource.file(Fixtures.only(out, ".jfr"))))
                    .get(0);
            Matcher m = RUN.matcher(r.stdout());
            double theirs = 0;
            while (m.find()) {
                theirs += Double.parseDouble(m.group(2));
            }
            Metric cpu = Metric.named("cpu time per unit");
            double ours = f.runs.measured().stream()
                    .mapToDouble(run -> cpu.valueInRun(f, run) * run.units())
                    .sum();
            // /proc counts in ticks of 10 ms on each side of each run
            assertThat(ours)
                    .as("%s: CPU ms over the measured runs against the MXBean's %.1f (%s)", kind, theirs, r.stdout())
                    .isCloseTo(theirs, Assertions.within(Math.max(80, 0.2 * theirs)));
            double starts = Metric.named("platform threads started per unit").valueOfRecording(f);
            if (kind.equals("platform")) {
                assertThat(starts).as("a platform thread per task").isBetween(0.95, 1.05);
            } else {
                assertThat(starts)
                        .as("virtual threads start no platform thread a task")
                        .isLessThan(0.01);
            }
        }
    }
}
