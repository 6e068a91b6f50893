package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stuck JVMs found: the {@code stuck} workload on JDK 25 (the build's) and on JDK 21 (where synchronized pins;
 * {@link ChildJvm#jdk21}), its thread dumps read by {@code loomscope threads}, taken by {@code loomscope attach PID
 * threads}, and written by the agent on its own when the scheduler stalls while the application runs on.
 */
class ThreadsIT {
    @TempDir
    Path dir;

    final List<Process> started = new ArrayList<>();

    static Fixtures.Run loomscope(String... args) {
        return Fixtures.inProcess(List.of(args));
    }

    static String jdk21() {
        var java = ChildJvm.jdk21();
        Assumptions.assumeTrue(java.isPresent(), "no JDK 21 here (LOOMSCOPE_JDK21, or .ci/jdk21)");
        return java.get();
    }

    /** A dump of the stuck case taken by the workload itself. */
    Path dump(String java, String kase) throws Exception {
        Path f = dir.resolve(kase + "-" + Math.abs(java.hashCode()) + ".json");
        ChildJvm.Result r = ChildJvm.exec(
                List.of(java, "-jar", Fixtures.WORKLOADS.toString(), "stuck", "--case", kase, "--dump", f.toString()),
                dir,
                60);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).contains("stuck: " + kase + " (pid ").contains("thread dump written to " + f);
        return f;
    }

    /**
     * The stuck workload's {@code kase} on {@code java} with {@code jvmOptions}, held 120 s, once it says it is stuck
     * (its output in {@code log}); added to {@code started} to be stopped.
     */
    static Process stuck(String java, String kase, Path log, List<String> jvmOptions, List<Process> started)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", Fixtures.WORKLOADS.toString(), "stuck", "--case", kase, "--hold", "120"));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(p);
        assertThat(ChildJvm.awaitOutput(p, log, "stuck: " + kase, 30))
                .as(Files.readString(log))
                .isTrue();
        return p;
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : started) {
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    void deadlocksAndStarvationOnJdk25() throws Exception {
        String java = ChildJvm.javaExecutable();
        Fixtures.Run monitor = loomscope("threads", dump(java, "monitor").toString());
        assertThat(monitor.code()).as(monitor.out()).isEqualTo(1);
        assertThat(monitor.out())
                .containsPattern("deadlock: \"left\" #\\d+ \\(virtual, at StuckService\\.nested"
                        + " \\(StuckService\\.java:\\d+\\)\\) waits for java\\.lang\\.Object@\\w+ held by \"right\""
                        + " #\\d+; \"right\" #\\d+ .* held by \"left\" #\\d+");
        Fixtures.Run clinit = loomscope("threads", dump(java, "clinit").toString());
        assertThat(clinit.code()).as(clinit.out()).isEqualTo(1);
        assertThat(clinit.out())
                .contains("carrier starvation: every carrier (2 of 2) is held by a virtual thread that cannot go on")
                .contains("pinned in the class initializer StuckService$Registry.<clinit>")
                .contains("while 10 virtual thread(s) wait to run");
        // synchronized no longer pins on 25: the sync case does not stick, and the dump says nothing is stuck
        Fixtures.Run sync = loomscope("threads", dump(java, "sync").toString());
        assertThat(sync.code()).as(sync.out()).isZero();
        assertThat(sync.out()).contains("nothing stuck");
    }

    @Test
    void starvationOnJdk21FromOneDumpAndADeadlockFromTwo() throws Exception {
        String java = jdk21();
        for (String kase : List.of("sync", "clinit")) {
            Fixtures.Run r = loomscope("threads", dump(java, kase).toString());
            assertThat(r.code()).as(kase + ": " + r.out()).isEqualTo(1);
            assertThat(r.out())
                    .contains("21.0.")
                    .contains("carrier starvation: every carrier (2 of 2) is held")
                    .contains("JDK 21 thread dumps record no thread states, locks or carriers");
        }
        // a monitor deadlock: one JDK 21 dump cannot tell it; attach takes two and what did not move holds both
        // carriers
        Path log = dir.resolve("stuck.log");
        Process p = new ProcessBuilder(
                        java, "-jar", Fixtures.WORKLOADS.toString(), "stuck", "--case", "monitor", "--hold", "60")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(p);
        ChildJvm.awaitOutput(p, log, "stuck: monitor", 30);
        Path dumps = Files.createDirectories(dir.resolve("dumps"));
        Fixtures.Run r =
                loomscope("attach", Long.toString(p.pid()), "threads", "--dumps", dumps.toString(), "--interval", "1s");
        assertThat(r.code()).as(r.err() + r.out()).isEqualTo(1);
        try (Stream<Path> s = Files.list(dumps)) {
            assertThat(s.map(f -> f.getFileName().toString()).sorted().toList())
                    .hasSize(2)
                    .allMatch(n -> n.startsWith("threads-" + p.pid() + "-"));
        }
        assertThat(r.err()).contains("thread dump written to " + dumps);
        assertThat(r.out())
                .contains("Threads that did not move between two dumps")
                .containsPattern("\"left\" #\\d+ did not move between the two dumps")
                .containsPattern("\"right\" #\\d+ did not move between the two dumps");
    }

    /**
     * A ReentrantLock deadlock among virtual threads, which JDK 21-25 dumps cannot show (they do not record a lock's
     * owner): attach threads asks the agent around each dump and finds the cycle; without it, the locks none of whose
     * waiters got them between the two dumps are named.
     */
    @Test
    void aReentrantLockDeadlockIsFoundThroughTheAgentOnJdk25And21() throws Exception {
        for (String java : List.of(ChildJvm.javaExecutable(), jdk21())) {
            Path log = dir.resolve("lock-" + started.size() + ".log");
            Process p = stuck(java, "lock", log, List.of(), started);
            Path dumps = Files.createDirectories(dir.resolve("lock-dumps-" + started.size()));
            Fixtures.Run r = loomscope(
                    "attach", Long.toString(p.pid()), "threads", "--dumps", dumps.toString(), "--interval", "1s");
            assertThat(r.code()).as(r.err() + r.out()).isEqualTo(1);
            assertThat(r.err())
                    .containsPattern(
                            "the owners of \\d+ java\\.util\\.concurrent lock wait\\(s\\) written into the dump");
            // the agent loaded once: it answered the looks after the first over JMX (the JVM warns of each agent loaded
            // at run time)
            assertThat(Files.readString(log).split("A Java agent has been loaded dynamically", -1))
                    .hasSize(2);
            assertThat(r.out())
                    .containsPattern(
                            "deadlock: \"left\" #\\d+ \\(virtual, at ReentrantLock\\.lock.* via StuckService\\.locked"
                                    + " \\(StuckService\\.java:\\d+\\)\\) waits for"
                                    + " java\\.util\\.concurrent\\.locks\\.ReentrantLock\\$NonfairSync@\\w+ held by"
                                    + " \"right\" #\\d+; \"right\" #\\d+ .* held by \"left\" #\\d+");
            // the dumps keep the owners, as JDK 26 writes them: threads finds the deadlock in the files alone
            List<String> files;
            try (Stream<Path> s = Files.list(dumps)) {
                files = s.map(Path::toString).sorted().toList();
            }
            assertThat(Files.readString(Path.of(files.get(1))))
                    .contains("\"loomscopeParkOwners\"")
                    .contains("\"owner\"");
            Fixtures.Run again = loomscope("threads", files.get(0), files.get(1));
            assertThat(again.code()).as(again.out()).isEqualTo(1);
            assertThat(again.out()).containsPattern("deadlock: \"left\" #\\d+ .* held by \"right\"");
            // without the agent: no cycle, but both locks, and the ten waiters behind one of them, did not move in the
            // second between the dumps
            Path bare = Files.createDirectories(dir.resolve("bare-dumps-" + started.size()));
            Fixtures.Run without = loomscope(
                    "attach",
                    Long.toString(p.pid()),
                    "threads",
                    "--dumps",
                    bare.toString(),
                    "--interval",
                    "1s",
                    "--no-lock-owners");
            assertThat(without.code()).as(without.out()).isZero();
            assertThat(without.err()).doesNotContain("owners of");
            // (JDK 21 names no lock object: its waiters are told by where they wait, "left" and "right" both in
            // StuckService.locked)
            assertThat(without.out())
                    .containsPattern(
                            "ReentrantLock.*: none of its [12] waiter\\(s\\) \\([^)]*\"left\" #\\d+[^)]*\\) got it in"
                                    + " the [\\d.]+ s between two dumps, waiting at ReentrantLock\\.lock.* via"
                                    + " StuckService\\.locked .*; its owner is not recorded")
                    .containsPattern("ReentrantLock.*: none of its (10|11) waiter\\(s\\)");
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    void theAgentDumpsAStalledSchedulerOnItsOwnAndTheAppRunsOn() throws Exception {
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {ChildJvm.javaExecutable(), "clinit"});
        ChildJvm.jdk21().ifPresent(j21 -> cases.add(new String[] {j21, "sync"}));
        for (String[] c : cases) {
            Path out = Files.createDirectories(dir.resolve("rec-" + c[1]));
            ChildJvm.Result r = ChildJvm.exec(
                    List.of(
                            c[0],
                            "-javaagent:" + Fixtures.AGENT + "=out=" + out + ",stall=2s,trace-pinned=off,flame=off",
                            "-jar",
                            Fixtures.WORKLOADS.toString(),
                            "stuck",
                            "--case",
                            c[1],
                            // long enough that the report (two dumps a second apart, each seconds long on a busy
                            // machine) ends before the application: one still running at its exit misses the
                            // recording, which JFR's own hook writes as the JVM ends
                            "--hold",
                            "10"),
                    dir,
                    90);
            // the application ran on to its own end
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.stdout()).contains("stuck: held 10 s; exiting");
            List<String> notices = r.stderr()
                    .lines()
                    .filter(l -> l.contains("no virtual thread got a carrier"))
                    .toList();
            assertThat(notices).as(r.stderr()).hasSize(1);
            assertThat(notices.get(0))
                    .startsWith("loomscope-agent: no virtual thread got a carrier for 2.")
                    .contains("'loomscope threads ")
                    .endsWith("tells what holds them; the application runs on");
            List<Path> dumps;
            try (Stream<Path> s = Files.list(out)) {
                dumps = s.filter(f -> f.getFileName().toString().endsWith(".threads.json"))
                        .sorted()
                        .toList();
            }
            assertThat(dumps).as(c[1]).hasSize(2);
            for (Path d : dumps) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(d)))
                        .isEqualTo("rw-------");
            }
            Fixtures.Run threads =
                    loomscope("threads", dumps.get(0).toString(), dumps.get(1).toString());
            assertThat(threads.code()).as(threads.out()).isEqualTo(1);
            assertThat(threads.out()).contains("carrier starvation: every carrier (2 of 2) is held");
            // the recording says so too, and the report of it shows the dumps beside it
            Path jfr = Fixtures.only(out, ".jfr");
            List<RecordedEvent> stalls = RecordingFile.readAllEvents(jfr).stream()
                    .filter(e -> e.getEventType().getName().equals("loomscope.SchedulerStall"))
                    .toList();
            assertThat(stalls).hasSize(1);
            assertThat(stalls.get(0).getInt("carriers")).isEqualTo(2);
            assertThat(stalls.get(0).getString("dumps"))
                    .contains(dumps.get(0).toString())
                    .contains(dumps.get(1).toString());
            Fixtures.Run report = loomscope(
                    "report",
                    jfr.toString(),
                    "-o",
                    dir.resolve("report-" + c[1]).toString());
            assertThat(report.code()).as(report.err()).isZero();
            assertThat(Files.readString(dir.resolve("report-" + c[1]).resolve("index.html")))
                    .contains("<section id='threads'><h2>Thread dumps</h2>")
                    .contains("carrier starvation: every carrier (2 of 2)");
        }
    }

    /**
     * No stall where there is none: carriers busy with virtual threads that compute and yield, all moving (JDK 25), and
     * a JVM stopped by SIGSTOP for longer than stall= and then let go.
     */
    @Test
    void busyCarriersAndAStoppedJvmAreNoStall() throws Exception {
        Path out = Files.createDirectories(dir.resolve("rec-busy"));
        ChildJvm.Result busy = ChildJvm.exec(
                List.of(
                        ChildJvm.javaExecutable(),
                        "-javaagent:" + Fixtures.AGENT + "=out=" + out
                                + ",stall=2s,trace-pinned=off,flame=off,profile=off",
                        "-jar",
                        Fixtures.WORKLOADS.toString(),
                        "stuck",
                        "--case",
                        "busy",
                        "--waiters",
                        "2000",
                        "--hold",
                        "8"),
                dir,
                90);
        assertThat(busy.exitCode()).as(busy.toString()).isZero();
        assertThat(busy.stderr()).doesNotContain("got a carrier");
        Path stopped = Files.createDirectories(dir.resolve("rec-stopped"));
        Process p = new ProcessBuilder(
                        ChildJvm.javaExecutable(),
                        "-javaagent:" + Fixtures.AGENT + "=out=" + stopped
                                + ",stall=2s,trace-pinned=off,flame=off,profile=off",
                        "-jar",
                        Fixtures.WORKLOADS.toString(),
                        "stuck",
                        "--case",
                        "busy",
                        "--waiters",
                        "20",
                        "--hold",
                        "12")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("stopped.log").toFile())
                .start();
        Thread.sleep(3000);
        assertThat(ChildJvm.exec(List.of("kill", "-STOP", Long.toString(p.pid())), dir, 10)
                        .exitCode())
                .isZero();
        Thread.sleep(6000);
        assertThat(ChildJvm.exec(List.of("kill", "-CONT", Long.toString(p.pid())), dir, 10)
                        .exitCode())
                .isZero();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String log = Files.readString(dir.resolve("stopped.log"));
        assertThat(p.exitValue()).as(log).isZero();
        assertThat(log).doesNotContain("got a carrier");
        try (Stream<Path> s = Files.list(stopped)) {
            assertThat(s.filter(f -> f.toString().endsWith(".threads.json")).toList())
                    .isEmpty();
        }
    }

    /**
     * A thread name the JDK cannot write as JSON (a control character): attach threads falls back to the plain-text
     * dump and reads it.
     */
    @Test
    void aNameTheJdkCannotWriteAsJsonGivesPlainTextDumps() throws Exception {
        Process p = new ProcessBuilder(
                        ChildJvm.javaExecutable(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        HostileApp.class.getName(),
                        "bell\u0007name",
                        "30000")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            Thread.sleep(2500); // past its CPU burn: the named thread sleeps
            Path dumps = Files.createDirectories(dir.resolve("hostile-dumps"));
            Fixtures.Run r = loomscope(
                    "attach", Long.toString(p.pid()), "threads", "--dumps", dumps.toString(), "--interval", "1s");
            assertThat(r.code()).as(r.err() + r.out()).isZero();
            assertThat(r.err()).contains("could not write a JSON thread dump").contains("a plain-text one instead");
            try (Stream<Path> s = Files.list(dumps)) {
                List<Path> written = s.sorted().toList();
                assertThat(written).hasSize(2).allMatch(f -> f.toString().endsWith(".txt"));
                for (Path f : written) {
                    assertThat(Files.size(f)).isPositive();
                }
            }
            assertThat(r.out()).contains("\"bell\\u0007name\" #").doesNotContain("\u0007");
        } finally {
            p.destroy();
        }
    }
}
