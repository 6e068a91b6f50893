package dev.loomscope.analyzer.it;

import dev.loomscope.analyzer.cli.Main;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.ProfileFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Recordings made by real child JVMs under the real agent, for the analyzer's end-to-end tests. */
final class Fixtures {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path AGENT = ROOT.resolve("agent/target/loomscope-agent.jar");
    static final Path WORKLOADS = ROOT.resolve("workloads/target/loomscope-workloads.jar");
    static final Path CLI = Path.of("target/loomscope.jar").toAbsolutePath();

    private Fixtures() {}

    static Path only(Path dir, String suffix) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            // ".jfr": the recording (async-profiler's samples beside it are ProfileFile's, read with it)
            List<Path> l = s.filter(p -> p.getFileName().toString().endsWith(suffix)
                            && !(suffix.equals(".jfr") && ProfileFile.is(p)))
                    .toList();
            if (l.size() != 1) {
                throw new AssertionError("expected one " + suffix + " in " + dir + ": " + l);
            }
            return l.get(0);
        }
    }

    /** FixtureApp with {@code pins} pins and {@code gcs} GCs, recorded by the agent. */
    static Path fixture(Path dir, int pins, int gcs) throws Exception {
        Path out = dir.resolve("fixture");
        ChildJvm.Result r = ChildJvm.run(
                List.of(
                        "--enable-native-access=ALL-UNNAMED",
                        "-javaagent:" + AGENT + "=out=" + out
                                + ",label=fixture,threads=virtual,startup=before-main,pinned-threshold=10ms,"
                                + "trace-pinned=off,flame=off"),
                FixtureApp.class.getName(),
                List.of(Integer.toString(pins), Integer.toString(gcs)),
                dir,
                120);
        if (r.exitCode() != 0
                || r.stderr()
                        .lines()
                        .anyMatch(l -> l.startsWith("loomscope-agent:") && !l.contains("recording written"))) {
            throw new AssertionError("fixture failed: " + r);
        }
        return only(out, ".jfr");
    }

    /**
     * FixtureApp with {@code pins} pins and {@code gcs} GCs, recorded by JFR alone ({@code options}:
     * StartFlightRecording's beside the file name).
     */
    static Path plain(Path dir, String name, String options, int pins, int gcs) throws Exception {
        Path jfr = dir.resolve(name);
        ChildJvm.Result r = ChildJvm.run(
                List.of("-XX:StartFlightRecording:filename=" + jfr + options),
                FixtureApp.class.getName(),
                List.of(Integer.toString(pins), Integer.toString(gcs)),
                dir,
                120);
        if (r.exitCode() != 0) {
            throw new AssertionError("plain recording failed: " + r);
        }
        return jfr;
    }

    /**
     * {@code jvms} short sleep workloads on one thread kind, each its own JVM recorded by the agent (profile=off), into
     * {@code dir/kind-jvms}.
     */
    static Path sleepJvms(Path dir, String kind, int jvms) throws Exception {
        Path out = dir.resolve(kind + "-jvms");
        for (int i = 0; i < jvms; i++) {
            ChildJvm.Result r = ChildJvm.exec(
                    List.of(
                            ChildJvm.javaExecutable(),
                            "--enable-native-access=ALL-UNNAMED",
                            "-javaagent:" + AGENT + "=out=" + out + ",label=" + kind + i + ",threads=" + kind
                                    + ",profile=off,flame=off,trace-pinned=off",
                            "-jar",
                            WORKLOADS.toString(),
                            "sleep",
                            "--threads",
                            kind,
                            "--runs",
                            "2",
                            "--warmup",
                            "1",
                            "--tasks",
                            "500",
                            "--sleep-ms",
                            "20"),
                    dir,
                    120);
            if (r.exitCode() != 0) {
                throw new AssertionError("sleep workload failed: " + r);
            }
        }
        return out;
    }

    /** The sleep workload on one thread kind, recorded by the agent: loomscope.WorkloadRun events. */
    static Path sleep(Path dir, String kind) throws Exception {
        return sleep(dir, kind, "flame=off");
    }

    /** As {@link #sleep(Path, String)}, with the agent's {@code flame} option given (flame=cpu: a CPU profile too). */
    static Path sleep(Path dir, String kind, String flame) throws Exception {
        Path out = dir.resolve("sleep-" + kind + "-" + flame.replace('=', '-'));
        ChildJvm.Result r = ChildJvm.exec(
                List.of(
                        ChildJvm.javaExecutable(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-javaagent:" + AGENT + "=out=" + out + ",threads=" + kind + "," + flame + ",trace-pinned=off",
                        "-jar",
                        WORKLOADS.toString(),
                        "sleep",
                        "--threads",
                        kind,
                        "--runs",
                        "6",
                        "--warmup",
                        "1",
                        "--tasks",
                        "1000",
                        "--sleep-ms",
                        "20"),
                dir,
                120);
        if (r.exitCode() != 0) {
            throw new AssertionError("sleep workload failed: " + r);
        }
        return only(out, ".jfr");
    }

    /**
     * The rendezvous workload (a {@code variant}'s channel, 1,000,000 hand-offs a run, 1 warm-up + {@code runs}) on one
     * thread kind with a CPU profile, the agent's {@code profile} options given ("engine=jfr"), into {@code dir/out}:
     * its recording.
     */
    static Path rendezvous(
            Path dir, String out, String kind, String variant, String profile, int runs, String... jvmOptions)
            throws Exception {
        Path to = dir.resolve(out);
        List<String> cmd = new ArrayList<>(List.of(ChildJvm.javaExecutable(), "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of(
                "-javaagent:" + AGENT + "=out=" + to + ",threads=" + kind + ",flame=off,trace-pinned=off,profile=cpu,"
                        + profile,
                "-jar",
                WORKLOADS.toString(),
                "rendezvous",
                "--threads",
                kind,
                "--variant",
                variant,
                "--n",
                "1000000",
                "--runs",
                String.valueOf(runs),
                "--warmup",
                "1"));
        ChildJvm.Result r = ChildJvm.exec(cmd, dir, 120);
        if (r.exitCode() != 0) {
            throw new AssertionError("rendezvous workload failed: " + r);
        }
        return only(to, ".jfr");
    }

    /** The JFR disk repository of a JVM killed with SIGKILL while recording. */
    static Path killedRepository(Path dir) throws Exception {
        Path repo = dir.resolve("repo");
        Files.createDirectories(repo);
        Path log = dir.resolve("killed.log");
        List<String> cmd = new ArrayList<>(List.of(
                ChildJvm.javaExecutable(),
                "--enable-native-access=ALL-UNNAMED",
                "-XX:FlightRecorderOptions:repository=" + repo,
                "-javaagent:" + AGENT + "=out=" + dir.resolve("killed-out")
                        + ",startup=before-main,profile=off,trace-pinned=off,flame=off",
                "-cp",
                System.getProperty("java.class.path"),
                FixtureApp.class.getName(),
                "2",
                "2",
                "wait"));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        ChildJvm.awaitOutput(p, log, "waiting", 60);
        Thread.sleep(2500); // JFR flushes its chunk about once a second
        p.destroyForcibly().waitFor();
        return repo;
    }

    /** Runs the packaged CLI. */
    static ChildJvm.Result cli(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ChildJvm.javaExecutable(), "-jar", CLI.toString()));
        cmd.addAll(List.of(args));
        return ChildJvm.exec(cmd, dir, 300);
    }

    /** What a command run in this JVM returned and wrote. */
    record Run(int code, String out, String err) {}

    /** Runs the CLI's command line {@code args} in this JVM (as {@code loomscope ARGS} would). */
    static Run inProcess(List<String> args) {
        return inProcess(args, new StringWriter(), new StringWriter());
    }

    /**
     * As {@link #inProcess(List)}, writing into {@code out} and {@code err}, which hold what it wrote should it not
     * return.
     */
    static Run inProcess(List<String> args, StringWriter out, StringWriter err) {
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }
}
