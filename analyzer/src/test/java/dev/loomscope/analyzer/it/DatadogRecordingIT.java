package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording of another JFR writer, Datadog's Java profiler (ddprof 1.22, on JDK 21: on JDK 25 that version takes the
 * JVM down), read by every command. Its writer leaves an empty constant pool of a type its metadata does not define, at
 * which the JDK's own {@code jfr print} stops.
 */
class DatadogRecordingIT {
    @TempDir
    Path dir;

    @Test
    void everyCommandReadsIt() throws Exception {
        String java = Jdk21IT.jdk21();
        Path jfr = dir.resolve("ddprof.jfr");
        ChildJvm.Result r = ChildJvm.exec(
                List.of(java, "-cp", System.getProperty("java.class.path"), DatadogApp.class.getName(), jfr.toString()),
                dir,
                120);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(jfr).isNotEmptyFile();

        ChildJvm.Result summary = Fixtures.cli(dir, "summary", jfr.toString(), "--format", "csv");
        assertThat(summary.exitCode()).as(summary.stderr()).isZero();
        assertThat(summary.stdout())
                .contains("datadog.ExecutionSample")
                .contains("datadog.MethodSample")
                .contains("21.0.")
                .contains("after the JVM started");
        for (String command : List.of("rules", "gc", "heap", "ctxsw")) {
            ChildJvm.Result c = Fixtures.cli(dir, command, jfr.toString());
            assertThat(c.exitCode()).as(command + ": " + c.stderr()).isZero();
            assertThat(c.stdout() + c.stderr()).as(command).doesNotContain("damaged");
        }
        ChildJvm.Result pinning = Fixtures.cli(dir, "pinning", jfr.toString(), "--fail-on-pinning");
        assertThat(pinning.exitCode())
                .as("no pin events: not recorded, so the gate fails")
                .isEqualTo(2);

        // its CPU samples are the cpu graph: the virtual threads' computing, under the virtual root
        ChildJvm.Result cpu = Fixtures.cli(
                dir,
                "flame",
                jfr.toString(),
                "--split-kind",
                "--collapsed",
                "-o",
                dir.resolve("cpu.txt").toString());
        assertThat(cpu.exitCode()).as(cpu.stderr()).isZero();
        List<String> stacks = Files.readAllLines(dir.resolve("cpu.txt"));
        long spinning = samples(stacks, "DatadogApp.spin");
        assertThat(spinning).isGreaterThan(50);
        assertThat(samples(stacks.stream().filter(l -> l.startsWith("virtual")).toList(), "DatadogApp.spin"))
                .isGreaterThan(spinning / 2);
        ChildJvm.Result wall = Fixtures.cli(
                dir,
                "flame",
                jfr.toString(),
                "--event",
                "wall",
                "--collapsed",
                "-o",
                dir.resolve("wall.txt").toString());
        assertThat(wall.exitCode()).as(wall.stderr()).isZero();
        assertThat(samples(Files.readAllLines(dir.resolve("wall.txt")), "")).isGreaterThan(spinning);
    }

    /** Samples of the collapsed stacks holding {@code frame}. */
    static long samples(List<String> collapsed, String frame) {
        return collapsed.stream()
                .filter(l -> l.contains(frame))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
