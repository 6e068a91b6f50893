package dev.loomscope.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a host installs it: checked against its SHA-256 file, extracted, made
 * read-only, and run from {@code bin/} with only a JDK, an empty HOME and no Maven: every command a
 * team runs where the service runs, against a recording the archive's own agent wrote and a running
 * JVM; nothing written into the install, the caches in the user's cache directory.
 */
class ReleaseIT {
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final String VERSION = System.getProperty("loomscope.version");
    private static final String NAME = "loomscope-" + VERSION;

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    record Run(int code, String out, String err) {
        String all() {
            return "exit " + code + "\n" + out + err;
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        for (Process p : started) {
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    void extractedReadOnlyEveryCommandRunsAndWritesOnlyToTheUsersCache() throws Exception {
        Path tar = TARGET.resolve(NAME + ".tar.gz");
        for (String archive : List.of(NAME + ".tar.gz", NAME + ".zip")) {
            Run check = exec(List.of("sha256sum", "-c", archive + ".sha256"), TARGET, Map.of(), 60);
            assertThat(check.code()).as(check.all()).isZero();
        }
        Path opt = Files.createDirectories(dir.resolve("opt"));
        Run extract = exec(List.of("tar", "xzf", tar.toString(), "-C", opt.toString()), dir, Map.of(), 120);
        assertThat(extract.code()).as(extract.all()).isZero();
        Path root = opt.resolve(NAME);
        assertThat(root.resolve("bin/loomscope")).isExecutable();
        assertThat(root.resolve("licenses/THIRD-PARTY.txt")).content().contains("picocli").contains("HdrHistogram").contains("async-profiler");
        // the zip holds what the tar holds
        assertThat(zipEntries(TARGET.resolve(NAME + ".zip"))).isEqualTo(files(opt));
        exec(List.of("chmod", "-R", "a-w", root.toString()), dir, Map.of(), 60);
        Map<String, String> before = tree(root);

        Path home = Files.createDirectories(dir.resolve("home"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Map<String, String> env = Map.of("HOME", home.toString(), "PATH", root.resolve("bin") + ":/usr/bin:/bin", "JAVA_HOME",
                System.getProperty("java.home"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        Run version = loomscope(List.of("--version"), work, env, 60);
        assertThat(version.code()).as(version.all()).isZero();
        assertThat(version.out()).startsWith("loomscope " + VERSION + " (commit ");

        // a recording by the archive's agent, on platform threads (what advise reads)
        Path recordings = work.resolve("recordings");
        Run recorded = exec(List.of(java, "--enable-native-access=ALL-UNNAMED", "-javaagent:" + root.resolve("lib/loomscope-agent.jar") + "=out=" + recordings
                + ",threads=platform,profile=off,flame=off", "-jar", root.resolve("lib/loomscope-workloads.jar").toString(), "sleep", "--threads", "platform",
                "--runs", "2", "--warmup", "1", "--tasks", "500", "--sleep-ms", "20"), work, env, 180);
        assertThat(recorded.code()).as(recorded.all()).isZero();
        Path jfr;
        try (Stream<Path> s = Files.list(recordings)) {
            jfr = s.filter(p -> p.toString().endsWith(".jfr") && !p.toString().endsWith(".async-profiler.jfr")).findFirst().orElseThrow();
        }
        Run summary = loomscope(List.of("summary", jfr.toString()), work, env, 120);
        assertThat(summary.code()).as(summary.all()).isZero();
        assertThat(summary.out()).contains("Key figures of ").containsPattern("thread kind +platform");
        Run advise = loomscope(List.of("advise", jfr.toString()), work, env, 120);
        assertThat(advise.code()).as(advise.all()).isZero();

        // a running JVM: the load client, attach with the archive's own agent, its threads, watch
        String service = "java -cp " + System.getProperty("loomscope.testClasses") + " " + Service.class.getName();
        Path log = work.resolve("service.log");
        Process running = new ProcessBuilder(List.of(java, "-cp", System.getProperty("loomscope.testClasses"), Service.class.getName(), "--port", "0"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(running);
        String port = awaitPort(running, log);
        String pid = Long.toString(running.pid());
        Run load = loomscope(List.of("load", "--url", "http://localhost:" + port + "/", "--rate", "50", "--windows", "1", "--window", "1s",
                "--min-warmup", "1s", "--max-warmup", "3s"), work, env, 120);
        assertThat(load.code()).as(load.all()).isZero();
        assertThat(load.out()).contains(": 50 answered (50.0/s), 0 errors");
        Path attached = work.resolve("attached");
        Run start = loomscope(List.of("attach", pid, "start", "out=" + attached + ",label=release,profile=off,flame=off"), work, env, 120);
        assertThat(start.code()).as(start.all()).isZero();
        Run stopped = loomscope(List.of("attach", pid, "stop"), work, env, 120);
        assertThat(stopped.code()).as(stopped.all()).isZero();
        try (Stream<Path> s = Files.list(attached)) {
            assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("release-" + pid) && n.endsWith(".jfr"));
        }
        Run threads = loomscope(List.of("attach", pid, "threads", "--interval", "0", "--dumps", work.toString()), work, env, 120);
        assertThat(threads.code()).as(threads.all()).isZero();
        Run watch = loomscope(List.of("watch", pid, "--duration", "3s", "--interval", "1s"), work, env, 120);
        assertThat(watch.code()).as(watch.all()).isZero();

        // a study of the service, each kind one JVM under the archive's agent
        Run study = loomscope(List.of("study", "--app", service + " --port {port} --threads {threads}", "--url", "http://localhost:{port}/",
                "--rate", "50", "--forks", "1", "--controls", "0", "--reruns", "0", "--keep-disturbed", "--min-warmup", "1s", "--max-warmup", "2s",
                "--windows", "2", "--window", "1s", "--out", work.resolve("report").toString()), work, env, 600);
        assertThat(study.code()).as(study.all()).isZero();
        assertThat(study.out()).contains("=> the study: ");
        assertThat(work.resolve("report/index.html")).isRegularFile();

        // the MCP server answers a client's first request
        assertThat(mcpInitialize(root, work, env)).contains("\"serverInfo\"").contains("\"name\":\"loomscope\"");

        assertThat(tree(root)).as("nothing written into the install").isEqualTo(before);
        try (Stream<Path> s = Files.walk(home)) {
            List<String> cached = s.map(p -> home.relativize(p).toString()).toList();
            assertThat(cached).as("the CLI's class-data archive in the user's cache").anyMatch(p -> p.matches("\\.cache/loomscope/loomscope-cli-\\d+.*\\.(aot|jsa)"));
            // and nothing else in HOME (the facts cache, which keeps recordings of 32 MB and more, goes beside it)
            assertThat(cached).allMatch(p -> p.isEmpty() || p.equals(".cache") || p.startsWith(".cache/loomscope"));
        }
    }

    /** {@code loomscope mcp}'s answer to an initialize request, its stdin then closed. */
    private String mcpInitialize(Path root, Path work, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of(root.resolve("bin/loomscope").toString(), "mcp", "--root", work.toString())).directory(work.toFile())
                .redirectError(work.resolve("mcp.err").toFile());
        pb.environment().putAll(env);
        Process mcp = pb.start();
        started.add(mcp);
        try (OutputStream in = mcp.getOutputStream()) {
            in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"release-test\",\"version\":\"1\"}}}\n").getBytes(StandardCharsets.UTF_8));
        }
        try (BufferedReader out = new BufferedReader(new InputStreamReader(mcp.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertThat(mcp.waitFor(60, TimeUnit.SECONDS)).as("mcp ends when its input does").isTrue();
            return line == null ? "(nothing; stderr: " + Files.readString(work.resolve("mcp.err")) + ")" : line;
        }
    }

    private static String awaitPort(Process p, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && p.isAlive()) {
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith("port ")) {
                    return line.substring(5).trim();
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the service did not start: " + Files.readString(log));
    }

    /** Each file and directory under {@code root}: its size and modification time (directories: their entries' names). */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> t = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                t.put(root.relativize(p).toString(), Files.isDirectory(p) ? "dir" : Files.size(p) + " " + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return t;
    }

    private static List<String> files(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }

    private static List<String> zipEntries(Path zip) throws IOException {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            return z.stream().filter(e -> !e.isDirectory()).map(e -> e.getName()).sorted().toList();
        }
    }

    /** The command as a user types it: {@code loomscope ARGS}, found on the PATH {@code env} gives. */
    private Run loomscope(List<String> args, Path work, Map<String, String> env, long seconds) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "exec loomscope \"$@\"", "sh"));
        cmd.addAll(args);
        return exec(cmd, work, env, seconds);
    }

    /** {@code cmd} in {@code work} with {@code env} in place of this JVM's environment, bounded by {@code seconds}. */
    private Run exec(List<String> cmd, Path work, Map<String, String> env, long seconds) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        if (!env.isEmpty()) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        Process p = pb.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(cmd + ": still running after " + seconds + " s: " + Files.readString(out) + Files.readString(err));
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
