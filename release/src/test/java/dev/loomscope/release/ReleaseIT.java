package dev.loomscope.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
 * The release archive as a host installs it: checked against its SHA-256 file, extracted, made read-only, and run from
 * {@code bin/} with only a JDK, an empty HOME and no Maven: every command a team runs where the service runs, against a
 * recording the archive's own agent wrote and a running JVM; nothing written into the install, the caches in the user's
 * cache directory.
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
        for (String archive : List.of(NAME + ".tar.gz", NAME + ".zip")) {
            Run check = exec(List.of("sha256sum", "-c", archive + ".sha256"), TARGET, Map.of(), 60);
            assertThat(check.code()).as(check.all()).isZero();
        }
        Path root = extract(Files.createDirectories(dir.resolve("opt")));
        Map<String, String> before = tree(root);
        try (Stream<Path> s = Files.walk(root.resolve("licenses/texts"))) {
            // the license and notice files the bundled libraries' jars ship, beside the list of their licenses
            List<String> texts = s.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString())
                    .toList();
            assertThat(texts).anyMatch(p -> p.matches("licenses/texts/jackson-core-[^/]+/META-INF/NOTICE"));
            assertThat(texts).anyMatch(p -> p.matches("licenses/texts/HdrHistogram-[^/]+/META-INF/LICENSE.txt"));
        }

        Path home = Files.createDirectories(dir.resolve("home"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Map<String, String> env = Map.of(
                "HOME",
                home.toString(),
                "PATH",
                root.resolve("bin") + ":/usr/bin:/bin",
                "JAVA_HOME",
                System.getProperty("java.home"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();

        Run version = loomscope(List.of("--version"), work, env, 60);
        assertThat(version.code()).as(version.all()).isZero();
        assertThat(version.out()).startsWith("loomscope " + VERSION + " (commit ");

        // a recording by the archive's agent, on platform threads (what advise reads)
        Path recordings = work.resolve("recordings");
        Run recorded = exec(
                List.of(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-javaagent:" + root.resolve("lib/loomscope-agent.jar") + "=out=" + recordings
                                + ",threads=platform,profile=off,flame=off",
                        "-jar",
                        root.resolve("lib/loomscope-workloads.jar").toString(),
                        "sleep",
                        "--threads",
                        "platform",
                        "--runs",
                        "2",
                        "--warmup",
                        "1",
                        "--tasks",
                        "500",
                        "--sleep-ms",
                        "20"),
                work,
                env,
                180);
        assertThat(recorded.code()).as(recorded.all()).isZero();
        Path jfr;
        try (Stream<Path> s = Files.list(recordings)) {
            jfr = s.filter(p -> p.toString().endsWith(".jfr") && !p.toString().endsWith(".async-profiler.jfr"))
                    .findFirst()
                    .orElseThrow();
        }
        Run summary = loomscope(List.of("summary", jfr.toString()), work, env, 120);
        assertThat(summary.code()).as(summary.all()).isZero();
        assertThat(summary.out()).contains("Key figures of ").containsPattern("thread kind +platform");
        Run advise = loomscope(List.of("advise", jfr.toString()), work, env, 120);
        assertThat(advise.code()).as(advise.all()).isZero();

        // a running JVM: the load client, attach with the archive's own agent, its threads, watch
        String service = "java -cp " + System.getProperty("loomscope.testClasses") + " " + Service.class.getName();
        Path log = work.resolve("service.log");
        Process running = new ProcessBuilder(List.of(
                        java,
                        "-cp",
                        System.getProperty("loomscope.testClasses"),
                        Service.class.getName(),
                        "--port",
                        "0"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(running);
        String port = awaitPort(running, log);
        String pid = Long.toString(running.pid());
        Run load = loomscope(
                List.of(
                        "load",
                        "--url",
                        "http://localhost:" + port + "/",
                        "--rate",
                        "50",
                        "--windows",
                        "1",
                        "--window",
                        "1s",
                        "--min-warmup",
                        "1s",
                        "--max-warmup",
                        "3s"),
                work,
                env,
                120);
        assertThat(load.code()).as(load.all()).isZero();
        // the server answers every request: none an error (how many fall late at the window's end depends on the
        // machine)
        assertThat(load.out()).contains("1 window, 1.0 s: 50 offered").contains(", 0 errors");
        Path attached = work.resolve("attached");
        Run start = loomscope(
                List.of("attach", pid, "start", "out=" + attached + ",label=release,profile=off,flame=off"),
                work,
                env,
                120);
        assertThat(start.code()).as(start.all()).isZero();
        Run stopped = loomscope(List.of("attach", pid, "stop"), work, env, 120);
        assertThat(stopped.code()).as(stopped.all()).isZero();
        try (Stream<Path> s = Files.list(attached)) {
            assertThat(s.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("release-" + pid) && n.endsWith(".jfr"));
        }
        Run threads = loomscope(
                List.of("attach", pid, "threads", "--interval", "0", "--dumps", work.toString()), work, env, 120);
        assertThat(threads.code()).as(threads.all()).isZero();
        Run watch = loomscope(List.of("watch", pid, "--duration", "3s", "--interval", "1s"), work, env, 120);
        assertThat(watch.code()).as(watch.all()).isZero();

        // a study of the service, each kind one JVM under the archive's agent
        Run study = loomscope(
                List.of(
                        "study",
                        "--app",
                        service + " --port {port} --threads {threads}",
                        "--url",
                        "http://localhost:{port}/",
                        "--rate",
                        "50",
                        "--forks",
                        "1",
                        "--controls",
                        "0",
                        "--reruns",
                        "0",
                        "--keep-disturbed",
                        "--min-warmup",
                        "1s",
                        "--max-warmup",
                        "2s",
                        "--windows",
                        "2",
                        "--window",
                        "1s",
                        "--out",
                        work.resolve("report").toString()),
                work,
                env,
                600);
        assertThat(study.code()).as(study.all()).isZero();
        assertThat(study.out()).contains("=> the study: ");
        assertThat(work.resolve("report/index.html")).isRegularFile();

        // the MCP server answers a client's first request
        assertThat(mcpInitialize(root, work, env)).contains("\"serverInfo\"").contains("\"name\":\"loomscope\"");

        assertThat(tree(root)).as("nothing written into the install").isEqualTo(before);
        try (Stream<Path> s = Files.walk(home)) {
            List<String> cached = s.map(p -> home.relativize(p).toString()).toList();
            assertThat(cached)
                    .as("the CLI's class-data archive in the user's cache")
                    .anyMatch(p -> p.matches("\\.cache/loomscope/loomscope-cli-\\d+.*\\.(aot|jsa)"));
            // and nothing else in HOME (the facts cache, which keeps recordings of 32 MB and more, goes beside it)
            assertThat(cached).allMatch(p -> p.isEmpty() || p.equals(".cache") || p.startsWith(".cache/loomscope"));
        }
    }

    /**
     * As root, from the install: a JVM of another user (nobody, its temporary directory its own) and one in another PID
     * and mount namespace (its /tmp a file system of its own, the jar it runs in it): attach start, stop and threads
     * and watch (the agent's recording too) reach both, the agent loaded from a copy each can read, what each writes
     * read back here; run as another user, one line says why not and what to run.
     */
    @Test
    void asRootItReachesAJvmOfAnotherUserAndOneInAnotherNamespace() throws Exception {
        assumeTrue(
                exec(List.of("id", "-u"), dir, Map.of(), 30).out().strip().equals("0"),
                "run as root: attaching to another user's JVM needs it");
        // a container runtime may deny new namespaces even to root: then there is no container to reach here
        assumeTrue(
                exec(
                                        List.of(
                                                "unshare",
                                                "--pid",
                                                "--mount",
                                                "--net",
                                                "--fork",
                                                "--mount-proc",
                                                "true"),
                                        dir,
                                        Map.of(),
                                        30)
                                .code()
                        == 0,
                "this machine lets no process make new namespaces (unshare)");
        // a directory other users can read: the install and the jar nobody's JVM runs
        Path shared = Files.createTempDirectory(
                Path.of("/tmp"),
                "loomscope-release-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        try {
            Path root = extract(Files.createDirectories(shared.resolve("opt")));
            Path work = Files.createDirectories(dir.resolve("work"));
            Map<String, String> env = Map.of(
                    "HOME",
                    Files.createDirectories(dir.resolve("home")).toString(),
                    "PATH",
                    root.resolve("bin") + ":/usr/bin:/bin",
                    "JAVA_HOME",
                    System.getProperty("java.home"));
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Path jar = root.resolve("lib/loomscope-workloads.jar");
            List<String> sleep = List.of(
                    "sleep",
                    "--threads",
                    "virtual",
                    "--tasks",
                    "200",
                    "--sleep-ms",
                    "20",
                    "--runs",
                    "100000",
                    "--warmup",
                    "0");

            Path own = Files.createDirectories(shared.resolve("nobody"));
            Files.createDirectories(own.resolve("tmp"));
            Files.createDirectories(own.resolve("rec"));
            exec(List.of("chown", "-R", "65534:65534", own.toString()), dir, Map.of(), 30);
            List<String> asNobody = new ArrayList<>(List.of(
                    "setpriv",
                    "--reuid=65534",
                    "--regid=65534",
                    "--clear-groups",
                    java,
                    "-Djava.io.tmpdir=" + own.resolve("tmp"),
                    "-jar",
                    jar.toString()));
            asNobody.addAll(sleep);
            long nobody = start(asNobody, own, shared.resolve("nobody.log")).pid();

            long inside = contained(List.of("--pid", "--mount"), java, jar, sleep, shared.resolve("contained.log"));

            for (long pid : List.of(nobody, inside)) {
                String p = Long.toString(pid);
                String out = pid == nobody ? own.resolve("rec").toString() : "/tmp/rec";
                Run start = loomscope(
                        List.of("attach", p, "start", "out=" + out + ",label=reached,profile=off,flame=off"),
                        work,
                        env,
                        120);
                assertThat(start.code()).as(start.all()).isZero();
                assertThat(start.out()).contains("recording (for ");
                Run agent = loomscope(
                        List.of("watch", p, "--agent", "--duration", "2s", "--interval", "1s"), work, env, 120);
                assertThat(agent.code()).as(agent.all()).isZero();
                assertThat(agent.out()).contains("carriers ");
                Run stop = loomscope(List.of("attach", p, "stop"), work, env, 120);
                assertThat(stop.code()).as(stop.all()).isZero();
                Path recorded = pid == nobody ? own.resolve("rec") : Path.of("/proc", p, "root/tmp/rec");
                if (pid == inside) {
                    assertThat(stop.out())
                            .contains("in another mount namespace: from here, under /proc/" + p + "/root");
                }
                Path jfr;
                try (Stream<Path> files = Files.list(recorded)) {
                    jfr = files.filter(f -> f.getFileName().toString().matches("reached-.*\\.jfr")
                                    && !f.toString().endsWith(".async-profiler.jfr"))
                            .findFirst()
                            .orElseThrow(() -> new AssertionError("no recording in " + recorded + ": " + stop.all()));
                }
                Run summary = loomscope(List.of("summary", jfr.toString()), work, env, 120);
                assertThat(summary.code()).as(summary.all()).isZero();
                assertThat(summary.out()).contains("Key figures of reached-");

                Run threads = loomscope(
                        List.of("attach", p, "threads", "--interval", "0", "--dumps", work.toString()), work, env, 120);
                assertThat(threads.code()).as(threads.all()).isZero();
                try (Stream<Path> files = Files.list(work)) {
                    Path dump = files.filter(f -> f.getFileName().toString().matches("threads-" + p + "-.*\\.json"))
                            .findFirst()
                            .orElseThrow();
                    assertThat(Files.getOwner(dump).getName())
                            .as("the dump is this user's")
                            .isEqualTo("root");
                }
                Run watch = loomscope(
                        List.of("watch", p, "--duration", "3s", "--interval", "1s", "--dump-every", "1s"),
                        work,
                        env,
                        120);
                assertThat(watch.code()).as(watch.all()).isZero();
            }
            // nobody's own temporary directory, where nobody could rename what root puts, got nothing: the agent's copy
            // went to /tmp
            // (sticky, root's), in a directory of root's no one else may write; the replies and dumps went with their
            // directories
            try (Stream<Path> left = Files.list(own.resolve("tmp"))) {
                assertThat(left.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("loomscope-"));
            }
            try (Stream<Path> tmp = Files.list(Path.of("/tmp"))) {
                List<Path> copies = tmp.filter(f -> f.getFileName().toString().startsWith("loomscope-agent-0-"))
                        .toList();
                assertThat(copies)
                        .isNotEmpty()
                        .allSatisfy(d -> assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(d)))
                                .isEqualTo("rwxr-xr-x"));
                assertThat(copies)
                        .allSatisfy(d -> assertThat(Files.getOwner(d).getName()).isEqualTo("root"));
            }

            // a JVM in another network namespace too: its management agent is not reachable from here, and watch says
            // so in one line
            String apart = Long.toString(
                    contained(List.of("--pid", "--mount", "--net"), java, jar, sleep, shared.resolve("isolated.log")));
            Run unreachable = loomscope(List.of("watch", apart, "--duration", "2s"), work, env, 120);
            assertThat(unreachable.code()).as(unreachable.all()).isEqualTo(2);
            assertThat(unreachable.err().strip())
                    .startsWith(
                            "loomscope watch: process " + apart + " runs in another network namespace (a container)")
                    .doesNotContain("\n");

            // not root: one line, what to run instead
            Run refused = exec(
                    List.of(
                            "setpriv",
                            "--reuid=65534",
                            "--regid=65534",
                            "--clear-groups",
                            root.resolve("bin/loomscope").toString(),
                            "attach",
                            Long.toString(inside),
                            "status"),
                    work,
                    Map.of(
                            "HOME",
                            "/nonexistent",
                            "PATH",
                            "/usr/bin:/bin",
                            "JAVA_HOME",
                            System.getProperty("java.home")),
                    120);
            assertThat(refused.code()).as(refused.all()).isEqualTo(2);
            assertThat(refused.err().strip())
                    .isEqualTo("loomscope attach: process " + inside
                            + " runs as user root, and a JVM is attached to by its own user or root: run the same"
                            + " command as root (sudo loomscope ...)");
        } finally {
            stop();
            exec(List.of("rm", "-rf", shared.toString()), dir, Map.of(), 60);
        }
    }

    /**
     * The workload {@code jar} run by {@code java} in new {@code namespaces} (a container): the namespace's shell holds
     * the jar open, mounts a /tmp of its own (where the JVM's attach files and its temporary directory then lie, as in
     * a container) and runs the JVM from a copy there; the JVM's process id as this machine numbers it.
     */
    private long contained(List<String> namespaces, String java, Path jar, List<String> args, Path log)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of("unshare"));
        cmd.addAll(namespaces);
        cmd.addAll(List.of(
                "--fork",
                "--kill-child",
                "--mount-proc",
                "sh",
                "-c",
                "exec 3<\"$1\" && mount -t tmpfs tmpfs /tmp && cat <&3 >/tmp/app.jar && exec 3<&- && shift && exec"
                        + " \"$0\" -jar /tmp/app.jar \"$@\"",
                java,
                jar.toString()));
        cmd.addAll(args);
        Process unshare = start(cmd, jar.getParent(), log);
        return unshare.children()
                .findFirst()
                .orElseThrow(() -> new AssertionError("no JVM under unshare"))
                .pid();
    }

    /** {@code cmd} started in {@code work}, its output to {@code log}; returned once it has begun its runs. */
    private Process start(List<String> cmd, Path work, Path log) throws Exception {
        Process p = new ProcessBuilder(cmd)
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(p);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline
                && p.isAlive()
                && !Files.readString(log).contains("run 1/")) {
            Thread.sleep(100);
        }
        assertThat(Files.readString(log)).as(String.join(" ", cmd)).contains("run 1/");
        return p;
    }

    /**
     * The tar.gz extracted into {@code opt} and made read-only (the zip checked to hold the same files): the install's
     * directory.
     */
    private Path extract(Path opt) throws Exception {
        Run extract = exec(
                List.of("tar", "xzf", TARGET.resolve(NAME + ".tar.gz").toString(), "-C", opt.toString()),
                dir,
                Map.of(),
                120);
        assertThat(extract.code()).as(extract.all()).isZero();
        Path root = opt.resolve(NAME);
        assertThat(root.resolve("bin/loomscope")).isExecutable();
        assertThat(zipEntries(TARGET.resolve(NAME + ".zip"))).isEqualTo(files(opt));
        exec(List.of("chmod", "-R", "a-w", root.toString()), dir, Map.of(), 60);
        return root;
    }

    /** {@code loomscope mcp}'s answer to an initialize request, its stdin then closed. */
    private String mcpInitialize(Path root, Path work, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                        List.of(root.resolve("bin/loomscope").toString(), "mcp", "--root", work.toString()))
                .directory(work.toFile())
                .redirectError(work.resolve("mcp.err").toFile());
        pb.environment().putAll(env);
        Process mcp = pb.start();
        started.add(mcp);
        try (OutputStream in = mcp.getOutputStream()) {
            in.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                            + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                            + "\"clientInfo\":{\"name\":\"release-test\",\"version\":\"1\"}}}\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(mcp.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertThat(mcp.waitFor(60, TimeUnit.SECONDS))
                    .as("mcp ends when its input does")
                    .isTrue();
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

    /**
     * Each file and directory under {@code root}: its size and modification time (directories: their entries' names).
     */
    private static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> t = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) {
                t.put(
                        root.relativize(p).toString(),
                        Files.isDirectory(p)
                                ? "dir"
                                : Files.size(p) + " "
                                        + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return t;
    }

    private static List<String> files(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString())
                    .sorted()
                    .toList();
        }
    }

    private static List<String> zipEntries(Path zip) throws IOException {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            return z.stream()
                    .filter(e -> !e.isDirectory())
                    .map(e -> e.getName())
                    .sorted()
                    .toList();
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
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(work.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        if (!env.isEmpty()) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        Process p = pb.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(
                    cmd + ": still running after " + seconds + " s: " + Files.readString(out) + Files.readString(err));
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
