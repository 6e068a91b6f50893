package dev.loomscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.agent.apps.PinningApp;
import dev.loomscope.events.LibraryEvent;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.hotapp.HotApp;
import dev.loomscope.recording.ProfileFile;
import dev.loomscope.serverapp.PoolApp;
import dev.loomscope.serverapp.ServersApp;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Runs the packaged agent on a real child JVM and opens what it wrote. */
class AgentIT {
    static final Path AGENT = Path.of("target/loomscope-agent.jar").toAbsolutePath();

    @TempDir
    Path dir;

    ChildJvm.Result run(String options, String how, String... jvmArgs) throws Exception {
        // no --enable-native-access: the agent is quiet without it
        List<String> jvm = new ArrayList<>(List.of(jvmArgs));
        jvm.add("-javaagent:" + AGENT + "=" + options);
        return ChildJvm.run(jvm, PinningApp.class.getName(), List.of(how), dir, 60);
    }

    List<Path> files(String suffix) throws IOException {
        Path out = dir.resolve("rec");
        if (!Files.isDirectory(out)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(out)) {
            // ".jfr": the recordings (async-profiler's samples beside them are dev.loomscope.recording.ProfileFile's)
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)
                            && !(suffix.equals(".jfr") && ProfileFile.is(p)))
                    .toList();
        }
    }

    /**
     * The test's class path without the agent's own classes: an app's class loader must see the agent jar's (or nothing
     * is changed).
     */
    static String appClassPath() {
        return String.join(
                File.pathSeparator,
                Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                        .filter(e -> !Path.of(e).endsWith(Path.of("agent", "target", "classes")))
                        .toList());
    }

    /** The recording the agent left in {@code out} (not its profile). */
    static Path recordingIn(Path out) throws IOException {
        try (Stream<Path> s = Files.list(out)) {
            return s.filter(f -> f.toString().endsWith(".jfr") && !ProfileFile.is(f))
                    .findFirst()
                    .orElseThrow();
        }
    }

    static Map<String, List<RecordedEvent>> read(Path jfr) throws IOException {
        Map<String, List<RecordedEvent>> byType = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            byType.computeIfAbsent(e.getEventType().getName(), k -> new ArrayList<>())
                    .add(e);
        }
        return byType;
    }

    static boolean hasFrame(RecordedEvent e, String type, String method) {
        return e.getStackTrace() != null
                && e.getStackTrace().getFrames().stream()
                        .anyMatch(f -> f.getMethod().getType().getName().equals(type)
                                && f.getMethod().getName().equals(method));
    }

    @Test
    void recordsEverythingTheAnalyzerNeedsWithTheProfileBesideIt() throws Exception {
        // three carriers: the run's record says the scheduler's parallelism, whatever the machine's cores
        ChildJvm.Result r =
                run("out=rec,label=virt,threads=virtual", "normal", "-Djdk.virtualThreadScheduler.parallelism=3");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        List<Path> jfrs = files(".jfr");
        assertThat(jfrs).hasSize(1);
        Path jfr = jfrs.get(0);
        assertThat(jfr.getFileName().toString()).matches("virt-\\d+-\\d{8}-\\d{6}\\.jfr");
        assertThat(Files.getPosixFilePermissions(jfr)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(files(".html")).hasSize(1);
        assertThat(files(".part")).isEmpty();

        Map<String, List<RecordedEvent>> ev = read(jfr);
        List<RecordedEvent> pins = ev.getOrDefault("jdk.VirtualThreadPinned", List.of());
        assertThat(pins).hasSizeGreaterThanOrEqualTo(3);
        assertThat(pins)
                .allSatisfy(p -> assertThat(p.getStackTrace().getFrames())
                        .anyMatch(f -> f.getMethod().getType().getName().startsWith(PinningApp.class.getName())));
        long switches = ev.get("loomscope.ContextSwitches").stream()
                .mapToLong(e -> e.getLong("voluntary") + e.getLong("involuntary"))
                .sum();
        assertThat(switches).isPositive();
        // no per-thread JDK events (they cost every thread start and exit); the agent counts the starts itself
        assertThat(ev)
                .doesNotContainKeys("jdk.ThreadStart", "jdk.ThreadEnd", "jdk.OldObjectSample", "jdk.ThreadCPULoad");
        long started = ev.get("loomscope.ContextSwitches").stream()
                .mapToLong(e -> e.getLong("platformThreadsStarted"))
                .sum();
        assertThat(started).isBetween((long) PinningApp.PLATFORM_THREADS, PinningApp.PLATFORM_THREADS + 20L);
        assertThat(ev.get("jdk.GarbageCollection")).hasSizeGreaterThanOrEqualTo(3);
        assertThat(ev.get("jdk.GCHeapSummary")).isNotEmpty();
        RecordedEvent info = ev.get("loomscope.RunInfo").get(0);
        assertThat(info.getString("label")).isEqualTo("virt");
        assertThat(info.getString("threadKind")).isEqualTo("virtual");
        assertThat(info.getInt("cpus")).isPositive();
        assertThat(info.getInt("carriers")).isEqualTo(3);
        String mode = info.getString("profilingMode");
        assertThat(mode).isIn("ctimer", "itimer");
        // async-profiler's samples in a file of their own beside it (appended, they would mislead the JDK's jfr tool)
        Path profile = ProfileFile.of(jfr);
        assertThat(Files.getPosixFilePermissions(profile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        Map<String, List<RecordedEvent>> samples = read(profile);
        assertThat(samples.getOrDefault("jdk.ExecutionSample", List.of())).isNotEmpty();
        assertThat(ev)
                .doesNotContainKeys("jdk.ExecutionSample", "jdk.InitialEnvironmentVariable", "jdk.NativeMethodSample");
        // async-profiler always writes system properties: their values are masked unless record-env=on
        assertThat(samples.getOrDefault("jdk.InitialSystemProperty", List.of()))
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p.getString("value")).matches("\\**"));
        assertThat(samples.getOrDefault("jdk.InitialSystemProperty", List.of()))
                .noneSatisfy(p -> assertThat(p.getString("value")).contains(System.getProperty("java.home")));
        assertThat(r.stderr())
                // JDK 22+: no restricted-method warning for getrusage or async-profiler's library
                .doesNotContain("WARNING")
                .contains("loomscope-agent: virtual thread pinned for")
                .contains("at " + PinningApp.class.getName())
                .contains("loomscope-agent: recording written to " + jfr + " (async-profiler's samples beside it: "
                        + profile.getFileName() + ")");
    }

    @Test
    void theApplicationStartsBesideTheRecordingAndOneThatEndsAtOnceStillGetsIt() throws Exception {
        ChildJvm.Result r = run("out=rec,flame=off", "at-once");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("agent state at main: starting");
        assertThat(read(files(".jfr").get(0))).containsKeys("loomscope.RunInfo", "loomscope.ContextSwitches");

        Files.walk(dir.resolve("rec"))
                .sorted(Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        ChildJvm.Result before = run("out=rec,flame=off,profile=off,startup=before-main", "at-once");
        assertThat(before.exitCode()).as(before.stderr()).isZero();
        assertThat(before.stdout()).contains("agent state at main: recording");
        assertThat(files(".jfr")).hasSize(1);
    }

    @Test
    void nativeAccessDeniedByTheUserIsLeftDeniedAndContextSwitchesComeFromProc() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 24, "--illegal-native-access is JDK 24+");
        ChildJvm.Result r = run("out=rec,flame=off", "normal", "--illegal-native-access=deny");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        // async-profiler's library is refused, as the user asked: JFR samples instead
        assertThat(r.stderr())
                .contains("Illegal native access")
                .contains("using JFR sampling")
                .doesNotContain("WARNING");
        assertThat(read(files(".jfr").get(0)).get("loomscope.ContextSwitches"))
                .allSatisfy(e -> assertThat(e.getString("source")).isEqualTo("proc"));
    }

    @Test
    void theLivePinTraceReadsNothingUntilAVirtualThreadRuns() throws Exception {
        ChildJvm.Result r = run("out=rec,flame=off,profile=off", "platform");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        // the agent looks for the carrier threads' group each second; the stream that parses every flush never opened
        assertThat(r.stdout()).contains("agent threads: [").doesNotContain("loomscope-agent-pinned-trace");
        // the agent's JMX bean, which watch and attach PID threads ask who owns the locks, is there (the recording uses
        // the MBean server)
        assertThat(r.stdout()).contains("agent's bean: true");
        assertThat(r.stderr()).doesNotContain("pinned for");
        assertThat(read(files(".jfr").get(0))).doesNotContainKey("jdk.VirtualThreadPinned");
    }

    @Test
    void aPlaceThatPinsAgainIsPrintedOnceAndItsRepeatsCounted() throws Exception {
        // every task of the pinning workload blocks inside a native frame (an FFM upcall), at one place: 24 pins
        ChildJvm.Result r = ChildJvm.exec(
                List.of(
                        ChildJvm.javaExecutable(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-javaagent:" + AGENT + "=out=rec,profile=off,flame=off",
                        "-jar",
                        OldJdkIT.WORKLOADS.toString(),
                        "pinning",
                        "--threads",
                        "virtual",
                        "--case",
                        "native",
                        "--tasks",
                        "8",
                        "--block-ms",
                        "30",
                        "--runs",
                        "3",
                        "--warmup",
                        "0"),
                dir,
                120);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        List<String> first = r.stderr()
                .lines()
                .filter(l -> l.startsWith("loomscope-agent: virtual thread pinned for"))
                .toList();
        assertThat(first).as(r.stderr()).hasSize(1);
        // the short trace reaches, below the application's frame, the call that went native (an FFM downcall whose
        // upcall blocked)
        assertThat(r.stderr())
                .containsPattern("\n    at"
                        + " dev\\.loomscope\\.workloads\\.pinning\\.NativeBlocker\\.blockInNativeFrame:\\d+ \\(called"
                        + " into native code\\)\n");
        List<String> again = r.stderr()
                .lines()
                .filter(l -> l.startsWith("loomscope-agent: pinned again "))
                .toList();
        assertThat(again).as(r.stderr()).isNotEmpty();
        long repeats = again.stream()
                .mapToLong(l -> Long.parseLong(l.replaceAll("loomscope-agent: pinned again ([\\d,]+) times?.*", "$1")
                        .replace(",", "")))
                .sum();
        assertThat(repeats).as(r.stderr()).isEqualTo(23);
    }

    @Test
    void aPinJustBeforeTheAppEndsIsTracedOnce() throws Exception {
        // the app ends before JFR's next flush and the agent's next look: the pin is read from the recording
        ChildJvm.Result r = run("out=rec,flame=off,profile=off", "quick");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stderr().lines().filter(l -> l.startsWith("loomscope-agent: virtual thread pinned for")))
                .hasSize(1);
        assertThat(r.stderr()).contains("at " + PinningApp.class.getName() + "$Init1.<clinit>");
        assertThat(files(".part")).isEmpty();
    }

    @Test
    void aPinAtTheEndIsReadFromTheLastChunkOnly() throws Exception {
        // the recording's first chunk ended seconds before the pin: only the last one is copied and read
        ChildJvm.Result r = run("out=rec,flame=off,profile=off", "late");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stderr().lines().filter(l -> l.startsWith("loomscope-agent: virtual thread pinned for")))
                .hasSize(1);
        assertThat(r.stderr())
                .contains("at " + PinningApp.class.getName() + "$Init1.<clinit>")
                .doesNotContain("not traced");
        assertThat(files(".part")).isEmpty();
        assertThat(files(".jfr")).hasSize(1);
    }

    @Test
    void blockingInsideANativeFrameThroughAnFfmUpcallIsRecordedAsPinned() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 22, "the FFM API is final from JDK 22");
        ChildJvm.Result r = ChildJvm.run(
                List.of(
                        "--enable-native-access=ALL-UNNAMED",
                        "-javaagent:" + AGENT + "=out=rec,label=native,flame=off"),
                // 2 s of pinning: the live trace prints pins while the app runs (JFR flushes once a second)
                "dev.loomscope.workloads.Main",
                List.of(
                        "pinning",
                        "--case",
                        "native",
                        "--tasks",
                        "4",
                        "--block-ms",
                        "25",
                        "--runs",
                        "40",
                        "--warmup",
                        "0"),
                dir,
                60);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        // pins where the workload blocks; a slow machine also records waits for class initialization elsewhere
        List<RecordedEvent> pins =
                read(files(".jfr").get(0)).getOrDefault("jdk.VirtualThreadPinned", List.of()).stream()
                        .filter(p -> hasFrame(p, "dev.loomscope.workloads.pinning.PinningWorkload", "block"))
                        .toList();
        assertThat(pins)
                .allSatisfy(p -> assertThat(hasFrame(p, "dev.loomscope.workloads.pinning.NativeBlocker", "compare"))
                        .as(p.toString())
                        .isTrue());
        List<RecordedEvent> nativePins = Runtime.version().feature() >= 24
                ? pins.stream()
                        .filter(p -> p.getString("pinnedReason")
                                .toLowerCase(Locale.ROOT)
                                .contains("native"))
                        .toList()
                : pins;
        assertThat(nativePins).hasSizeGreaterThanOrEqualTo(4);
        assertThat(r.stderr()).contains("loomscope-agent: virtual thread pinned for");
    }

    @Test
    void systemExitKeepsTheExitCodeAndTheRecording() throws Exception {
        ChildJvm.Result r = run("out=rec", "exit3");
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(files(".jfr")).hasSize(1);
        assertThat(read(files(".jfr").get(0))).containsKey("loomscope.RunInfo");
    }

    @Test
    void theCountsSinceTheLastPeriodAreInTheFileWhenJfrStopsTheRecording() throws Exception {
        // JFR's shutdown hook may stop the recording before the agent's runs: the last counts come with the chunk's
        // end. No period
        // falls inside the run (an hour), so the burst is in that last count however long a busy machine takes over it
        ChildJvm.Result r = run("out=rec,profile=off,flame=off,trace-pinned=off,ctxsw-period=1h", "jfr-stops");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<RecordedEvent> counts = read(files(".jfr").get(0)).get("loomscope.ContextSwitches");
        RecordedEvent last = counts.get(counts.size() - 1);
        assertThat(last.getLong("allocatedBytes"))
                .as(
                        "the last count, %s after the one before",
                        counts.size() > 1
                                ? Duration.between(counts.get(counts.size() - 2).getStartTime(), last.getStartTime())
                                : "none")
                .isGreaterThanOrEqualTo((long) PinningApp.BURST_MIB << 20);
        assertThat(r.stderr()).doesNotContain("Exception");
    }

    /** PinningApp under the agent with {@code options}, waiting to be stopped; its output goes to {@code log}. */
    Process waitingApp(String options, Path log) throws Exception {
        List<String> cmd = List.of(
                ChildJvm.javaExecutable(),
                "--enable-native-access=ALL-UNNAMED",
                "-javaagent:" + AGENT + "=" + options,
                "-cp",
                System.getProperty("java.class.path"),
                PinningApp.class.getName(),
                "wait");
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        ChildJvm.awaitOutput(p, log, "waiting", 60);
        return p;
    }

    @Test
    void sigtermKeepsTheRecording() throws Exception {
        Path log = dir.resolve("out.log");
        Process p = waitingApp("out=rec,profile=off", log);
        // the live trace prints the pins while the app still runs
        assertThat(ChildJvm.awaitOutput(p, log, "loomscope-agent: virtual thread pinned for", 60))
                .as(Files.readString(log))
                .isTrue();
        p.destroy(); // SIGTERM
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(files(".jfr")).as(Files.readString(log)).hasSize(1);
        assertThat(read(files(".jfr").get(0))).containsKey("jdk.VirtualThreadPinned");
    }

    @Test
    void jfrsDiskRepositoryIsPrivateUnderOutAndSurvivesKill9() throws Exception {
        Path log = dir.resolve("out.log");
        Process p = waitingApp("out=rec,profile=off,trace-pinned=off", log);
        try {
            Thread.sleep(1500); // JFR flushes its chunk about once a second
            Path base = dir.resolve("rec/jfr-repository");
            assertThat(Files.getPosixFilePermissions(base))
                    .as(Files.readString(log))
                    .isEqualTo(PosixFilePermissions.fromString("rwx------"));
            Path own; // this JVM's own directory: a random name, owner-only, whatever the pid
            try (Stream<Path> s = Files.list(base)) {
                own = s.filter(d -> d.getFileName().toString().startsWith("jvm-"))
                        .findFirst()
                        .orElseThrow();
            }
            assertThat(Files.getPosixFilePermissions(own)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
            Path repository;
            try (Stream<Path> s = Files.list(own)) {
                repository = s.filter(d -> d.getFileName().toString().endsWith("_" + p.pid()))
                        .findFirst()
                        .orElseThrow();
            }
            assertThat(Path.of(System.getProperty("java.io.tmpdir")).resolve(repository.getFileName()))
                    .doesNotExist();
            p.destroyForcibly().waitFor(); // kill -9: no hook runs
            List<Path> chunks;
            try (Stream<Path> s = Files.list(repository)) {
                chunks = s.filter(c -> c.getFileName().toString().endsWith(".jfr"))
                        .toList();
            }
            assertThat(chunks).isNotEmpty();
            byte[] head = Files.readAllBytes(chunks.get(0));
            assertThat(new String(head, 0, 3, StandardCharsets.ISO_8859_1)).isEqualTo("FLR");
            assertThat(head.length).isGreaterThan(1000);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void anOutWithSpacesOrOptionTextKeepsThePrivateRepositoryAndALinkIsNotFollowed() throws Exception {
        // a path that JFR.configure would split into options if it were passed as text
        ChildJvm.Result r = run("out=my recs preserve-repository=true dumppath=x,profile=off,flame=off", "normal");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr()).doesNotContain("stays in");
        assertThat(dir.resolve("my recs preserve-repository=true dumppath=x")).isDirectory();
        assertThat(dir.resolve("my recs preserve-repository=true dumppath=x/jfr-repository"))
                .doesNotExist(); // emptied and removed at exit
        assertThat(dir.resolve("x")).doesNotExist();
        // a link where the repository goes: not followed, its target's permissions untouched, and the app runs on
        Path target = Files.createDirectories(dir.resolve("elsewhere"));
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(dir.resolve("linked"));
        Files.createSymbolicLink(dir.resolve("linked/jfr-repository"), target);
        ChildJvm.Result linked = run("out=linked,profile=off,flame=off", "normal");
        assertThat(linked.exitCode()).isZero();
        assertThat(linked.stderr()).contains("is not a directory (a link or a file is not followed)");
        assertThat(Files.getPosixFilePermissions(target)).isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
        try (Stream<Path> s = Files.list(target)) {
            assertThat(s.toList()).isEmpty();
        }
    }

    /**
     * A tmpfs of {@code size} mounted at {@code dir/name} (unmounted by the caller); the test is skipped where none can
     * be mounted.
     */
    Path tmpfs(String name, String size) throws Exception {
        Path at = Files.createDirectories(dir.resolve(name));
        ChildJvm.Result mount =
                ChildJvm.exec(List.of("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString()), dir, 30);
        Assumptions.assumeTrue(mount.exitCode() == 0, "cannot mount a tmpfs here (needs root): " + mount.stderr());
        return at;
    }

    /**
     * On a 2 MB file system JFR would fill the disk and shut the JVM down: the agent records nothing, says why, and the
     * app keeps its exit code.
     */
    @Test
    void aNearlyFullDiskIsNotFilledAndTheAppKeepsItsExitCode() throws Exception {
        Path small = tmpfs("small", "2m");
        try {
            Files.write(small.resolve("filler"), new byte[1850 * 1024]); // about 150 KB left
            ChildJvm.Result r = run("out=" + small.resolve("rec"), "exit3");
            assertThat(r.exitCode()).as(r.stderr()).isEqualTo(3);
            assertThat(r.stderr())
                    .containsPattern(
                            "loomscope-agent: not recording: only \\d+ KB free where out= is \\(.*small/rec\\)")
                    .doesNotContain("recording written")
                    .doesNotContain("irrecoverable");
            try (Stream<Path> s = Files.walk(small.resolve("rec"))) {
                assertThat(s.filter(Files::isRegularFile).toList())
                        .as("nothing left behind")
                        .isEmpty();
            }
        } finally {
            ChildJvm.exec(List.of("umount", small.toString()), dir, 30);
        }
    }

    /**
     * A disk that something else fills to the last byte while the app records, in both start modes: the agent stops the
     * recording before JFR finds no space (its reserve gives JFR room for its last chunk), keeps what it has, and the
     * app lives on to its own exit code.
     */
    @ParameterizedTest
    @ValueSource(strings = {"background", "before-main"})
    void aDiskFilledToTheLastByteWhileRecordingStopsTheRecordingNotTheApp(String startup) throws Exception {
        Path small = tmpfs("filling", "100m");
        try {
            Path log = dir.resolve("filling.log");
            Process p = new ProcessBuilder(
                            ChildJvm.javaExecutable(),
                            "--enable-native-access=ALL-UNNAMED",
                            "-javaagent:" + AGENT + "=out=" + small.resolve("rec")
                                    + ",profile=off,flame=off,trace-pinned=off,startup=" + startup,
                            "-cp",
                            System.getProperty("java.class.path"),
                            PinningApp.class.getName(),
                            "linger")
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            ChildJvm.awaitOutput(p, log, "lingering", 60);
            // another process fills the disk until it can write no more
            try (var out = Files.newOutputStream(small.resolve("filler"))) {
                byte[] block = new byte[1 << 20];
                while (true) {
                    out.write(block);
                }
            } catch (IOException full) {
                // no space left: what the test wants
            }
            ChildJvm.awaitOutput(p, log, "recording written", 60);
            Files.createFile(dir.resolve("stop"));
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String out = Files.readString(log);
            assertThat(p.exitValue()).as(out).isEqualTo(7);
            assertThat(out)
                    .containsPattern(
                            "loomscope-agent: only \\d+ KB left where the recording goes \\(.*\\): recording stopped so"
                                    + " that JFR cannot fill the disk and stop the application; what it recorded until"
                                    + " now is kept")
                    .doesNotContain("rrecoverable");
            try (Stream<Path> s = Files.walk(small.resolve("rec"))) {
                List<Path> left = s.filter(Files::isRegularFile).toList();
                assertThat(left)
                        .as("the reserve given back, no part file: " + out)
                        .noneMatch(f -> f.getFileName().toString().startsWith(DiskGuard.RESERVE_NAME)
                                || f.toString().endsWith(".part"));
                List<Path> jfr = left.stream()
                        .filter(f -> f.toString().endsWith(".jfr")
                                && !ProfileFile.is(f)
                                && f.getParent().equals(small.resolve("rec")))
                        .toList();
                assertThat(jfr).as(out).hasSize(1);
                assertThat(read(jfr.get(0))).containsKey("loomscope.RunInfo").containsKey("jdk.VirtualThreadPinned");
            }
        } finally {
            ChildJvm.exec(List.of("umount", small.toString()), dir, 30);
        }
    }

    /**
     * work= on a method called in a tight loop: every call counted, a bounded cost a call (said once as a hot method),
     * and a recording that grows by a window a second, not an event a call; the same on JDK 25 and JDK 21.
     */
    @Test
    void aHotWorkMethodIsCountedInWindowsAndTheRecordingStaysSmall() throws Exception {
        List<String> javas = new ArrayList<>(List.of(ChildJvm.javaExecutable()));
        ChildJvm.jdk21().ifPresent(javas::add);
        for (String java : javas) {
            Path out = dir.resolve("hot-" + javas.indexOf(java));
            String classPath = appClassPath();
            ChildJvm.Result r = ChildJvm.exec(
                    List.of(
                            java,
                            "-javaagent:" + AGENT + "=out=" + out + ",profile=off,flame=off,startup=before-main,work="
                                    + HotApp.class.getName() + "::step",
                            "-cp",
                            classPath,
                            HotApp.class.getName()),
                    dir,
                    300);
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            Path jfr = recordingIn(out);
            assertThat(Files.size(jfr)).as(java).isLessThan(2L << 20);
            long calls = 0;
            long timed = 0;
            for (RecordedEvent e : read(jfr).getOrDefault("loomscope.WorkWindow", List.of())) {
                assertThat(e.getString("method")).isEqualTo(HotApp.class.getName() + "::step");
                calls += e.getLong("calls");
                timed += e.getLong("timed");
            }
            assertThat(calls).as(java).isEqualTo(HotApp.CALLS);
            assertThat(timed)
                    .as("one call in 64 timed once it is hot")
                    .isLessThan(calls / 2)
                    .isPositive();
            assertThat(read(jfr)).doesNotContainKey("jdk.MethodTrace").doesNotContainKey("loomscope.Work");
        }
    }

    /**
     * With no work= given, the requests of the servers the agent knows are counted: embedded Tomcat (a servlet that
     * forwards, so runs twice a request), Jetty 12 and the JDK's HttpServer (a handler passing each exchange to
     * another) each once a request, timed, on JDK 25 and JDK 21.
     */
    @Test
    void theServersRequestsAreCountedWithNoOption() throws Exception {
        List<String> javas = new ArrayList<>(List.of(ChildJvm.javaExecutable()));
        ChildJvm.jdk21().ifPresent(javas::add);
        for (String java : javas) {
            Path out = dir.resolve("servers-" + javas.indexOf(java));
            String classPath = appClassPath();
            ChildJvm.Result r = ChildJvm.exec(
                    List.of(
                            java,
                            "-javaagent:" + AGENT + "=out=" + out + ",profile=off,flame=off,startup=before-main",
                            "-cp",
                            classPath,
                            ServersApp.class.getName()),
                    dir,
                    300);
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            int n = ServersApp.REQUESTS;
            assertThat(r.stdout())
                    .as(java)
                    .contains("tomcat " + n, "jetty " + n, "jdk " + n, "vertx " + n, "vertx-http1 " + n);
            assertThat(r.stderr())
                    .as("the default names nothing the user must fix")
                    .doesNotContain("work=");
            Path jfr = recordingIn(out);
            Map<String, Long> calls = new TreeMap<>();
            Map<String, Long> timed = new TreeMap<>();
            for (RecordedEvent e : read(jfr).getOrDefault("loomscope.WorkWindow", List.of())) {
                calls.merge(e.getString("method"), e.getLong("calls"), Long::sum);
                timed.merge(e.getString("method"), e.getLong("timed"), Long::sum);
            }
            Map<String, Long> expected = Map.of(
                    "org.apache.catalina.connector.CoyoteAdapter::service",
                    (long) n,
                    "org.eclipse.jetty.server.Server::handle",
                    (long) n,
                    ServersApp.class.getName() + "$Outer::handle",
                    (long) n);
            // an event loop's entries: counted, not timed; HTTP/1.1's and HTTP/2's apart (the JDK's client's first
            // request upgrades to h2c)
            List<String> vertx = List.of(
                    "io.vertx.core.http.impl.Http1xServerRequest::handleBegin",
                    "io.vertx.core.http.impl.Http2ServerRequest::dispatch");
            assertThat(calls.get(vertx.get(0)) + calls.get(vertx.get(1)))
                    .as(java + " " + calls)
                    .isEqualTo(2L * n);
            assertThat(calls.get(vertx.get(0))).as(java + " " + calls).isGreaterThanOrEqualTo(n);
            vertx.forEach(calls::remove);
            vertx.forEach(m -> assertThat(timed.remove(m)).as(m).isZero());
            assertThat(calls).as(java).isEqualTo(new TreeMap<>(expected));
            assertThat(timed).as(java).isEqualTo(new TreeMap<>(expected));
        }
    }

    /**
     * A known library's release is recorded as the application loads it: HikariCP 7.0.2 (a release with the yield spin
     * advise warns of), its version from its jar's name, once in the recording's one chunk; a program without one has
     * no loomscope.Library event.
     */
    @Test
    void aKnownLibraryIsRecordedWithItsVersion() throws Exception {
        Path out = dir.resolve("library");
        ChildJvm.Result r = ChildJvm.exec(
                List.of(
                        ChildJvm.javaExecutable(),
                        "-javaagent:" + AGENT + "=out=" + out + ",profile=off,flame=off",
                        "-cp",
                        appClassPath(),
                        PoolApp.class.getName()),
                dir,
                120);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).contains("pool fixture");
        List<RecordedEvent> libraries = read(recordingIn(out)).getOrDefault(LibraryEvent.NAME, List.of());
        assertThat(libraries).hasSize(1);
        assertThat(libraries.get(0).getString("library")).isEqualTo("HikariCP");
        assertThat(libraries.get(0).getString("version")).isEqualTo("7.0.2");
        assertThat(libraries.get(0).getString("location")).endsWith("HikariCP-7.0.2.jar");
        Path none = dir.resolve("no-library");
        ChildJvm.Result plain = ChildJvm.exec(
                List.of(
                        ChildJvm.javaExecutable(),
                        "-javaagent:" + AGENT + "=out=" + none + ",profile=off,flame=off",
                        "-cp",
                        appClassPath(),
                        ServersApp.class.getName()),
                dir,
                300);
        assertThat(plain.exitCode()).as(plain.stderr()).isZero();
        assertThat(read(recordingIn(none))).doesNotContainKey(LibraryEvent.NAME);
    }

    /**
     * A work= filter that names no method of the app, or a JDK class, is said: at start and at exit, never silently.
     */
    @Test
    void aWorkFilterThatTimesNothingIsSaid() throws Exception {
        ChildJvm.Result r = run(
                "out=rec,profile=off,flame=off,work=com.example.Nope::handle;java.lang.String::length;a::b::c",
                "quick");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stderr())
                .contains("loomscope-agent: work=: 'java.lang.String::length' is a JDK class, which the agent does not"
                        + " time")
                .contains("loomscope-agent: work=: 'a::b::c' is not Class::method, Class, @Annotation or requests; left"
                        + " out")
                .containsPattern(
                        "loomscope-agent: work=com.example.Nope::handle;java.lang.String::length;a::b::c: no method of"
                                + " the classes this JVM loaded matches it, so no call was recorded");
    }

    /**
     * Containers on one volume: three JVMs, each pid 1 in a pid namespace of its own, started together with the same
     * out=. Each leaves a whole recording of its own (JFR's repository named by time and pid would be shared; the
     * recordings' names too).
     */
    @Test
    void threeJvmsAsPidOneOnOneOutEachLeaveAWholeRecording() throws Exception {
        ChildJvm.Result probe = ChildJvm.exec(List.of("unshare", "-p", "-f", "--mount-proc", "true"), dir, 30);
        Assumptions.assumeTrue(
                probe.exitCode() == 0, "cannot make pid namespaces here (needs root and unshare): " + probe.stderr());
        Path shared = dir.resolve("volume");
        List<Process> jvms = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            List<String> cmd = new ArrayList<>(List.of(
                    "unshare",
                    "-p",
                    "-f",
                    "--mount-proc",
                    ChildJvm.javaExecutable(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-javaagent:" + AGENT + "=out=" + shared + ",label=app,profile=off,flame=off,trace-pinned=off",
                    "-cp",
                    System.getProperty("java.class.path"),
                    PinningApp.class.getName(),
                    "normal"));
            jvms.add(new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("pid1-" + i + ".log").toFile())
                    .start());
        }
        for (int i = 0; i < 3; i++) {
            assertThat(jvms.get(i).waitFor(120, TimeUnit.SECONDS)).isTrue();
            String log = Files.readString(dir.resolve("pid1-" + i + ".log"));
            assertThat(jvms.get(i).exitValue()).as(log).isZero();
            assertThat(log)
                    .contains("recording written")
                    .doesNotContain("Data loss")
                    .doesNotContain("is missing");
        }
        List<Path> recordings;
        try (Stream<Path> s = Files.list(shared)) {
            recordings = s.filter(f -> f.getFileName().toString().endsWith(".jfr") && !ProfileFile.is(f))
                    .sorted()
                    .toList();
        }
        assertThat(recordings)
                .hasSize(3)
                .allSatisfy(r -> assertThat(r.getFileName().toString()).startsWith("app-1-"));
        for (Path r : recordings) {
            Map<String, List<RecordedEvent>> events = read(r);
            assertThat(events).as(r.toString()).containsKey("loomscope.RunInfo").containsKey("jdk.VirtualThreadPinned");
        }
    }

    /**
     * An app that sets System.err to null: the agent still says where the recording went, on the JVM's stderr, and no
     * exception escapes.
     */
    @Test
    void anAppWithoutSystemErrGetsNoExceptionFromTheAgent() throws Exception {
        ChildJvm.Result r = run("out=rec,profile=off,flame=off", "noerr");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stderr())
                .contains("loomscope-agent: recording written")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
        assertThat(files(".jfr")).hasSize(1);
    }

    @Test
    void outOfMemoryErrorThatEndsTheAppKeepsTheRecording() throws Exception {
        ChildJvm.Result r = run("out=rec,profile=off", "oom", "-Xmx96m");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("OutOfMemoryError");
        assertThat(files(".jfr")).hasSize(1);
        assertThat(read(files(".jfr").get(0))).containsKey("loomscope.RunInfo");
    }

    @Test
    void badOptionIsNamedAndTheAppRunsOn() throws Exception {
        ChildJvm.Result r = run("out=rec,colour=blue,interval=fast", "normal");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).contains("app done");
        assertThat(r.stderr())
                .contains("loomscope-agent: unknown option 'colour' ignored (valid: out, label,")
                .contains("loomscope-agent: bad value 'fast' for interval (expected a duration above 0 such as 10ms);"
                        + " using 10ms");
        assertThat(files(".jfr")).hasSize(1);
    }

    @Test
    void helpPrintsTheOptionsAndRecordsNothing() throws Exception {
        ChildJvm.Result r = run("out=rec,help", "normal");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).contains("app done");
        assertThat(r.stderr()).contains("pinned-threshold").contains("record nothing");
        assertThat(files(".jfr")).isEmpty();
        assertThat(files(".html")).isEmpty();
    }

    @Test
    void unwritableDirectoryIsReportedAtStartAndTheAppRunsOn() throws Exception {
        ChildJvm.Result r = run("out=/proc/loomscope-cannot-write", "normal");
        assertThat(r.exitCode()).isZero();
        assertThat(r.stdout()).contains("app done");
        List<String> lines =
                r.stderr().lines().filter(l -> l.startsWith("loomscope-agent:")).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0))
                .startsWith("loomscope-agent: not recording: cannot write to /proc/loomscope-cannot-write");
        assertThat(r.stderr()).doesNotContain("Exception");
    }

    @Test
    void jfrEngineSamplesWithJfrAndLeavesAsyncProfilerUnloaded() throws Exception {
        ChildJvm.Result r = run("out=rec,engine=jfr,flame=off", "normal");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        Map<String, List<RecordedEvent>> ev = read(files(".jfr").get(0));
        assertThat(ev.get("loomscope.RunInfo").get(0).getString("profilingMode"))
                .isEqualTo("jfr");
        assertThat(ev.getOrDefault("jdk.ExecutionSample", List.of())).isNotEmpty();
        assertThat(ev).doesNotContainKeys("jdk.NativeMethodSample");
        // async-profiler, when it runs, writes system properties of its own (masked): none here
        assertThat(ev).doesNotContainKeys("jdk.InitialSystemProperty");
        assertThat(r.stderr()).doesNotContain("loomscope-agent: profiling with").doesNotContain("async-profiler");
    }

    @Test
    void recordEnvIsOptIn() throws Exception {
        ChildJvm.Result r = run("out=rec,profile=off,record-env=on,flame=off", "normal");
        assertThat(r.exitCode()).isZero();
        assertThat(read(files(".jfr").get(0))).containsKey("jdk.InitialEnvironmentVariable");
        assertThat(files(".html")).isEmpty();
    }

    @Test
    void aJfcOfTheUsersOwnKeepsItsPerThreadEvents() throws Exception {
        Path jfc = Path.of(System.getProperty("java.home"), "lib", "jfr", "default.jfc");
        ChildJvm.Result r = run("out=rec,profile=off,flame=off,settings=" + jfc, "normal");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        Map<String, List<RecordedEvent>> ev = read(files(".jfr").get(0));
        assertThat(ev.get("jdk.ThreadStart")).hasSizeGreaterThanOrEqualTo(PinningApp.PLATFORM_THREADS);
        assertThat(ev).containsKeys("jdk.ThreadEnd", "jdk.ThreadCPULoad", "loomscope.RunInfo");
    }

    /**
     * The pin trace is bounded: at most 20 new stacks between two summaries, the rest counted (JDK 21, where
     * synchronized pins).
     */
    @Test
    void thePinTracePrintsABoundedNumberOfStacks() throws Exception {
        String java = ChildJvm.jdk21().orElse(null);
        Assumptions.assumeTrue(java != null, "no JDK 21 here (LOOMSCOPE_JDK21)");
        ChildJvm.Result r = ChildJvm.exec(
                List.of(
                        java,
                        "-javaagent:" + AGENT + "=out=rec,profile=off,flame=off,startup=before-main",
                        "-cp",
                        System.getProperty("java.class.path"),
                        PinningApp.class.getName(),
                        "many-places"),
                dir,
                120);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        long stacks = r.stderr()
                .lines()
                .filter(l -> l.contains("virtual thread pinned for"))
                .count();
        assertThat(stacks).as(r.stderr()).isEqualTo(PinnedTracer.NEW_PER_REPORT);
        assertThat(r.stderr())
                .containsPattern(
                        "loomscope-agent: \\d+ more places pinned for the first time, not printed \\(at most 20 a"
                                + " summary");
    }
}
