package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.ProfileFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loomscope attach} against real running JVMs. */
class AttachIT {
    @TempDir
    Path dir;

    final List<Process> started = new ArrayList<>();

    static Fixtures.Run attach(String... args) {
        List<String> all = new ArrayList<>(List.of("attach"));
        all.addAll(List.of(args));
        all.addAll(List.of("--agent", Fixtures.AGENT.toString()));
        return Fixtures.inProcess(all);
    }

    /** The sleep workload, running long enough to be attached to; returns once it has begun its runs. */
    Process target(String java) throws Exception {
        Path log = Files.createTempFile(dir, "target", ".log");
        Process p = new ProcessBuilder(
                        java,
                        "-jar",
                        Fixtures.WORKLOADS.toString(),
                        "sleep",
                        "--threads",
                        "virtual",
                        "--tasks",
                        "500",
                        "--sleep-ms",
                        "20",
                        "--runs",
                        "100000",
                        "--warmup",
                        "0")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(p);
        ChildJvm.awaitOutput(p, log, "run 1/", 60);
        return p;
    }

    @AfterEach
    void stopTargets() throws Exception {
        for (Process p : started) {
            p.destroyForcibly().waitFor();
        }
    }

    /**
     * The event types of a recording and of async-profiler's samples beside it (the profile file: every snapshot has
     * one too).
     */
    Set<String> types(Path jfr) throws Exception {
        Set<String> t = new TreeSet<>();
        assertThat(ProfileFile.of(jfr)).isRegularFile();
        for (Path p : List.of(jfr, ProfileFile.of(jfr))) {
            for (RecordedEvent e : RecordingFile.readAllEvents(p)) {
                t.add(e.getEventType().getName());
            }
        }
        return t;
    }

    List<Path> files(Path out, String suffix) throws Exception {
        try (Stream<Path> s = Files.list(out)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)
                            && !(suffix.equals(".jfr") && ProfileFile.is(p)))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void startStatusDumpStopInARunningJvm() throws Exception {
        String pid = Long.toString(target(ChildJvm.javaExecutable()).pid());
        Path out = dir.resolve("rec");

        Fixtures.Run status = attach(pid, "status");
        assertThat(status.code()).isZero();
        assertThat(status.out()).contains("not recording");

        Fixtures.Run start = attach(pid, "start", "out=" + out + ",label=attached,threads=virtual,trace-pinned=off");
        assertThat(start.code()).as(start.err()).isZero();
        assertThat(start.out())
                .contains("loomscope attach: " + pid + ": recording (for ")
                .contains("label attached");

        Fixtures.Run again = attach(pid, "start");
        assertThat(again.code()).isEqualTo(1);
        assertThat(again.err()).contains("already recording");

        Thread.sleep(2000);
        Fixtures.Run dump = attach(pid, "dump");
        assertThat(dump.code()).as(dump.err()).isZero();
        assertThat(dump.out()).contains("snapshot: ").contains("still recording");
        List<Path> snapshots = files(out, ".jfr");
        assertThat(snapshots).hasSize(1);
        assertThat(snapshots.get(0).getFileName().toString())
                .matches("attached-" + pid + "-\\d{8}-\\d{6}-snapshot-\\d{6}\\.jfr");
        assertThat(types(snapshots.get(0)))
                .contains("loomscope.RunInfo", "loomscope.WorkloadRun", "jdk.ExecutionSample");

        Thread.sleep(1000);
        Fixtures.Run stop = attach(pid, "stop");
        assertThat(stop.code()).as(stop.err()).isZero();
        assertThat(stop.out()).contains("stopped: ");
        // attached to a JVM that had run for seconds: what came before is not in the recording, and every count of pins
        // says so
        assertThat(stop.out() + stop.err())
                .containsPattern(
                        "the recording began \\d+\\.\\d+ s after the JVM started: what the application did before");
        List<Path> jfrs = files(out, ".jfr");
        assertThat(jfrs).hasSize(2);
        Path fin = jfrs.stream()
                .filter(p -> !p.toString().contains("snapshot"))
                .findFirst()
                .orElseThrow();
        assertThat(types(fin))
                .contains(
                        "loomscope.RunInfo",
                        "loomscope.ContextSwitches",
                        "loomscope.WorkloadRun",
                        "jdk.ExecutionSample");
        Fixtures.Run pins = Fixtures.inProcess(List.of("pinning", fin.toString()));
        assertThat(pins.out())
                .containsPattern("began \\d+\\.\\d+ s after the JVM started: pins before that \\(at class loading and"
                        + " start-up\\) are not in it");
        assertThat(files(out, ".html")).hasSize(2);
        assertThat(files(out, ".part")).isEmpty();
        assertThat(out.resolve("jfr-repository"))
                .as("JFR's repository given back, nothing but recordings under out=")
                .doesNotExist();

        assertThat(attach(pid, "status").out()).contains("not recording");
        Fixtures.Run stopAgain = attach(pid, "stop");
        assertThat(stopAgain.code()).isEqualTo(1);
        assertThat(stopAgain.err()).contains("not recording");

        // a second recording in the same JVM
        assertThat(attach(pid, "start", "out=" + out + ",label=second,profile=off,flame=off")
                        .code())
                .isZero();
        assertThat(attach(pid, "stop").code()).isZero();
        assertThat(files(out, ".jfr")).hasSize(3);
        assertThat(out.resolve("jfr-repository")).doesNotExist();
    }

    @Test
    void badRequestsAreOneLineAndExitTwo() throws Exception {
        String pid = Long.toString(target(ChildJvm.javaExecutable()).pid());
        Process notJava = new ProcessBuilder("sleep", "60").start();
        started.add(notJava);
        List<List<String>> bad = List.of(
                List.of("abc", "status"),
                List.of("999999999", "status"),
                List.of(pid),
                List.of(pid, "frobnicate"),
                List.of(pid, "stop", "label=x"),
                List.of(Long.toString(notJava.pid()), "status"));
        for (List<String> args : bad) {
            Fixtures.Run r = attach(args.toArray(String[]::new));
            assertThat(r.code()).as(args + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(r.err()).startsWith("loomscope attach: ").doesNotContain("Exception");
        }
    }

    @Test
    void aJvmOlderThan21IsRefusedWithItsVersion() throws Exception {
        Path jar17 = null;
        if (Files.isDirectory(Path.of("/usr/lib/jvm"))) {
            try (Stream<Path> s = Files.list(Path.of("/usr/lib/jvm"))) {
                jar17 = s.filter(d -> d.getFileName().toString().matches(".*\\b17\\b.*"))
                        .map(d -> d.resolve("bin/jar"))
                        .filter(Files::isExecutable)
                        .findFirst()
                        .orElse(null);
            }
        }
        Assumptions.assumeTrue(jar17 != null, "no JDK 17 in /usr/lib/jvm");
        // a JDK 17 JVM that waits: the jar tool listing a jar from its (open, empty) standard input
        Process old = new ProcessBuilder(jar17.toString(), "t").start();
        started.add(old);
        Thread.sleep(1500);
        Fixtures.Run r = attach(Long.toString(old.pid()), "status");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("runs Java 17").contains("needs JDK 21 or newer");
        Fixtures.Run threads = attach(Long.toString(old.pid()), "threads");
        assertThat(threads.code()).as(threads.err()).isEqualTo(2);
        assertThat(threads.err()).contains("runs Java 17; JSON thread dumps need JDK 21 or newer");
        Fixtures.Run watch = Fixtures.inProcess(List.of("watch", Long.toString(old.pid()), "--duration", "1s"));
        assertThat(watch.code()).as(watch.err()).isEqualTo(2);
        assertThat(watch.err().strip())
                .isEqualTo("loomscope watch: process " + old.pid() + ": runs Java 17; watch needs JDK 21 or newer");
    }
}
