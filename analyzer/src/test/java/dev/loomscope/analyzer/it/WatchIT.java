package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.tools.attach.VirtualMachine;
import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import jdk.jfr.consumer.RecordingFile;
import jdk.management.jfr.FlightRecorderMXBean;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope watch} on real running JVMs of JDK 21 and 25: the reproductions it must see ({@link WatchedApp}:
 * pins, a yield spin on every carrier, thousands of virtual threads parked on a pool of 16), the plain lines checked as
 * text and the JSON lines as data, and the JVM left as it was found (no recording of the watcher's left in it, also
 * after a watcher is killed).
 */
class WatchIT {
    @TempDir
    Path dir;

    final List<Process> started = new ArrayList<>();

    static Fixtures.Run watch(String... args) {
        List<String> all = new ArrayList<>(List.of("watch"));
        all.addAll(List.of(args));
        return Fixtures.inProcess(all);
    }

    /**
     * {@code loomscope watch args} in a JVM of its own, running on: its output to {@code out}, its errors to
     * {@code err} (null: to {@code out} too).
     */
    Process watcher(Path out, Path err, String... args) throws Exception {
        List<String> cmd =
                new ArrayList<>(List.of(ChildJvm.javaExecutable(), "-jar", Fixtures.CLI.toString(), "watch"));
        cmd.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(cmd).redirectOutput(out.toFile());
        Process w = (err == null ? b.redirectErrorStream(true) : b.redirectError(err.toFile())).start();
        started.add(w);
        return w;
    }

    /** {@link WatchedApp} in {@code mode} on {@code java}, once it says it runs. */
    Process app(String java, String mode, String... jvmOptions) throws Exception {
        Path log = Files.createTempFile(dir, mode, ".log");
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), WatchedApp.class.getName(), mode));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        started.add(p);
        assertThat(ChildJvm.awaitOutput(p, log, "ready", 60))
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

    /** The JVM's recordings as jcmd lists them. */
    static String recordings(Process p) throws Exception {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        return ChildJvm.exec(List.of(jcmd, Long.toString(p.pid()), "JFR.check"), Path.of("."), 60)
                .stdout();
    }

    /** The JVM's recordings by name, with their maximum age in seconds, as its FlightRecorder MXBean tells. */
    static Map<String, Long> maxAges(Process p) throws Exception {
        var vm = VirtualMachine.attach(Long.toString(p.pid()));
        try (var c = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()))) {
            var jfr = ManagementFactory.newPlatformMXBeanProxy(
                    c.getMBeanServerConnection(), "jdk.management.jfr:type=FlightRecorder", FlightRecorderMXBean.class);
            Map<String, Long> ages = new TreeMap<>();
            jfr.getRecordings().forEach(r -> ages.put(r.getName(), r.getMaxAge()));
            return ages;
        } finally {
            vm.detach();
        }
    }

    /** A plain tick line; one over several intervals (a watcher that fell behind) says how many seconds it covers. */
    static final Pattern TICK =
            Pattern.compile("\\d\\d:\\d\\d:\\d\\d(?: \\(the last (\\d+) s: watch fell behind\\))? \\| (.*)");

    static List<String> ticks(String out) {
        return out.lines().filter(l -> TICK.matcher(l).matches()).toList();
    }

    /** The seconds a plain tick line covers (at an interval of 1 s). */
    static long seconds(String tick) {
        Matcher m = TICK.matcher(tick);
        assertThat(m.matches()).as(tick).isTrue();
        return m.group(1) == null ? 1 : Long.parseLong(m.group(1));
    }

    /** The seconds JSON ticks cover, together. */
    static double seconds(List<JsonNode> ticks) {
        return ticks.stream().mapToDouble(t -> t.get("seconds").asDouble()).sum();
    }

    static List<JsonNode> json(String out) throws Exception {
        ObjectMapper m = new ObjectMapper();
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.strip().lines().toList()) {
            nodes.add(m.readTree(line));
        }
        return nodes;
    }

    /** The lines of one type ("tick", "alarm") of watch's JSON output. */
    static List<JsonNode> ofType(List<JsonNode> lines, String type) {
        return lines.stream().filter(n -> n.get("type").asText().equals(type)).toList();
    }

    /** The one alarm among watch's JSON lines (fails, showing {@code out}, when there is none or more). */
    static JsonNode onlyAlarm(List<JsonNode> lines, String out) {
        List<JsonNode> alarms = ofType(lines, "alarm");
        assertThat(alarms).as(out).hasSize(1);
        return alarms.get(0);
    }

    @Test
    void pinsOnJdk21AreShownByFrameWithTheirShareAndRecordedIfAsked() throws Exception {
        Process p = app(ThreadsIT.jdk21(), "pin");
        Path jfr = dir.resolve("watched.jfr");
        Fixtures.Run r = watch(
                Long.toString(p.pid()),
                "--duration",
                "6s",
                "--record",
                jfr.toString(),
                "--pin-rate",
                "20",
                "--dump-every",
                "0");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err())
                .contains("loomscope watch: process " + p.pid()
                        + " (JDK 21), every 1 s for 6 s (each line shown once the JVM's stream has passed the end of"
                        + " its interval")
                .contains("recorded to " + jfr);
        List<String> ticks = ticks(r.out());
        assertThat(ticks.stream().mapToLong(WatchIT::seconds).sum()).as(r.out()).isEqualTo(6);
        assertThat(ticks)
                .noneMatch(l -> l.contains("carriers")); // JDK 21 has no scheduler MXBean: the header says so, once
        assertThat(r.err())
                .containsOnlyOnce("carriers: parallelism ")
                .contains("needs the scheduler's MXBean of JDK 24+")
                .containsOnlyOnce("no requests a second or service time on the lines");
        // four virtual threads take turns sleeping 5 ms inside one monitor: up to 200 pins a second, one carrier pinned
        // all the time
        assertThat(ticks)
                .anyMatch(l -> l.matches(".*pins \\d{2,3}\\.\\d/s pinned \\d+% of carrier time, most at"
                        + " dev\\.loomscope\\.analyzer\\.it\\.WatchedApp\\.sleepHoldingTheLock \\(\\d+, .*"));
        assertThat(r.out())
                .containsPattern(
                        "ALARM pinning since \\d\\d:\\d\\d:\\d\\d: [\\d.,]+ pins/s, \\d+% of \\d+ carriers' time pinned"
                                + " \\(limits 20/s, 20%\\); where:"
                                + " dev\\.loomscope\\.analyzer\\.it\\.WatchedApp\\.sleepHoldingTheLock.*; next: replace"
                                + " the synchronized around the blocking call with a"
                                + " java.util.concurrent.locks.ReentrantLock")
                .contains("    at java.lang.Thread.sleep");
        assertThat(r.out())
                .containsOnlyOnce("ALARM pinning")
                .doesNotContain("ALARM yield-spin")
                .doesNotContain("ALARM pool-ceiling");
        // and the closing line names it, where a log's reader finds what the watch came to
        assertThat(r.err())
                .containsPattern("loomscope watch: done: 1 alarm raised: pinning since \\d\\d:\\d\\d:\\d\\d at"
                        + " dev\\.loomscope\\.analyzer\\.it\\.WatchedApp\\.sleepHoldingTheLock");
        // the pins the lines counted, held to the JDK's parser on the recording of the same stream: every pin shown is
        // in it, and
        // what it has beyond them ended after the last interval shown (at most the lag, 2 s, at up to 200 pins a
        // second)
        long shown = 0;
        for (String l : ticks) {
            Matcher m = Pattern.compile("pins ([\\d,]+)\\.\\d/s").matcher(l);
            assertThat(m.find()).as(l).isTrue();
            // a rate over the seconds the line covers
            shown += Long.parseLong(m.group(1).replace(",", "")) * seconds(l);
        }
        long recorded = RecordingFile.readAllEvents(jfr).stream()
                .filter(e -> e.getEventType().getName().equals("jdk.VirtualThreadPinned"))
                .count();
        assertThat(shown).isPositive().isLessThanOrEqualTo(recorded).isGreaterThanOrEqualTo(recorded - 600);
        // what was watched, kept: a recording every command reads, its pins at the same frame
        ChildJvm.Result pins = Fixtures.cli(dir, "pinning", jfr.toString());
        assertThat(pins.exitCode()).as(pins.toString()).isZero();
        assertThat(pins.stdout()).contains("WatchedApp.sleepHoldingTheLock");
        assertThat(recordings(p)).as("the watcher's recording closed").contains("No available recordings");
    }

    /**
     * One home for every figure: the pins, pinned time, collections, their pauses and the virtual threads started that
     * watch's lines show, added up, against what {@code summary} reads in the recording of the same stream
     * ({@code --record}).
     */
    @Test
    void theLinesAddUpToWhatSummaryReadsInTheRecordingOfTheSameStream() throws Exception {
        Process p = app(ThreadsIT.jdk21(), "churn", "-Xmx64m");
        Path jfr = dir.resolve("agree.jfr");
        Fixtures.Run r = watch(
                Long.toString(p.pid()),
                "--duration",
                "6s",
                "--format",
                "json",
                "--record",
                jfr.toString(),
                "--dump-every",
                "0",
                "--thread-events");
        assertThat(r.code()).as(r.err()).isZero();
        List<JsonNode> ticks = ofType(json(r.out()), "tick");
        // each figure under its metric's column on the lines, and its name in summary's table
        List<Metric> figures = List.of(
                Metric.PINNED_COUNT,
                Metric.PINNED_TIME,
                Metric.GC_COUNT,
                Metric.GC_PAUSE_TOTAL,
                Metric.VIRTUAL_THREADS_STARTED);
        Map<Metric, Double> shown = new HashMap<>();
        for (Metric f : figures) {
            shown.put(
                    f,
                    ticks.stream()
                            .mapToDouble(t -> t.get(f.column()).asDouble())
                            .sum());
        }
        assertThat(ticks.get(ticks.size() - 1).get("end_of_recording").asBoolean())
                .as("the last line shows the recording's rest")
                .isTrue();
        ChildJvm.Result s = Fixtures.cli(dir, "summary", jfr.toString(), "--format", "json");
        assertThat(s.exitCode()).as(s.toString()).isZero();
        Map<String, Double> read = new TreeMap<>();
        for (JsonNode table : new ObjectMapper().readTree(s.stdout()).path("tables")) {
            if (table.get("name").asText().equals("summary")) {
                table.get("rows")
                        .forEach(row -> read.put(
                                row.get("figure").asText(), row.get("value").asDouble()));
            }
        }
        for (Metric f : figures) {
            assertThat(shown.get(f))
                    .as("%s added up over %d lines (%s)", f.column(), ticks.size(), r.out())
                    .isPositive();
            assertThat(shown.get(f))
                    .as("%s added up against summary's %s", f.column(), f.name())
                    .isCloseTo(read.get(f.name()), Offset.offset(1e-6 * read.get(f.name())));
        }
    }

    /**
     * Twice as many virtual threads spinning as carriers: who waits for a carrier, JDK 25's scheduler says (more
     * mounted and queued than carriers), JDK 21's thread dumps (every carrier running a virtual thread in two).
     */
    @Test
    void aYieldSpinOnEveryCarrierIsAnAlarmNamingItsCallerOnJdk21And25() throws Exception {
        for (String java : List.of(ThreadsIT.jdk21(), ChildJvm.javaExecutable())) {
            Process p = app(java, "spin");
            Fixtures.Run r =
                    watch(Long.toString(p.pid()), "--duration", "10s", "--format", "json", "--dump-every", "2s");
            assertThat(r.code()).as(r.err()).isZero();
            List<JsonNode> lines = json(r.out());
            JsonNode spin = onlyAlarm(lines, r.out());
            assertThat(spin.get("alarm").asText()).isEqualTo("yield-spin");
            assertThat(spin.get("what").asText())
                    .containsPattern(
                            java.equals(ChildJvm.javaExecutable())
                                    ? "virtual threads wanted the \\d+ carriers"
                                    : "every carrier ran a virtual thread in \\d+ thread dumps in a row");
            assertThat(spin.get("where").asText())
                    .matches("dev\\.loomscope\\.analyzer\\.it\\.WatchedApp\\.waitForAConnection:\\d+"
                            + " \\(Thread\\.yield\\)");
            assertThat(spin.get("stack").toString()).contains("java.lang.Thread.yield");
            List<JsonNode> ticks = ofType(lines, "tick");
            assertThat(seconds(ticks)).as(r.out()).isEqualTo(10.0);
            long spinning = ticks.stream()
                    .mapToLong(t -> t.get("spin_samples").asLong())
                    .sum();
            long virtual = ticks.stream()
                    .mapToLong(t -> t.get("virtual_thread_cpu_samples").asLong())
                    .sum();
            assertThat(spinning).isPositive().isGreaterThanOrEqualTo(virtual / 2);
            if (java.equals(ChildJvm.javaExecutable())) {
                // JDK 24+: the scheduler's MXBean, every carrier mounted by the spinning virtual threads
                assertThat(ticks)
                        .allMatch(t -> t.get("parallelism").asInt()
                                == t.get("pool_size").asInt());
                assertThat(ticks)
                        .anyMatch(t ->
                                t.get("mounted").asInt() == t.get("parallelism").asInt());
            } else {
                assertThat(ticks).allMatch(t -> t.get("mounted").isNull());
            }
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    void thousandsParkedOnASmallPoolAreAPoolCeilingAlarmOnJdk21And25() throws Exception {
        for (String java : List.of(ThreadsIT.jdk21(), ChildJvm.javaExecutable())) {
            boolean asJson = started.size() > 0; // the second: JSON lines, which the dumps' analysis must not break
            Process p = app(java, "pool");
            Path dumps = Files.createDirectories(dir.resolve("dumps-" + started.size()));
            Fixtures.Run r = asJson
                    ? watch(
                            Long.toString(p.pid()),
                            "--duration",
                            "3s",
                            "--dump-every",
                            "1s",
                            "--dump-on-alarm",
                            dumps.toString(),
                            "--format",
                            "json")
                    : watch(
                            Long.toString(p.pid()),
                            "--duration",
                            "3s",
                            "--dump-every",
                            "1s",
                            "--dump-on-alarm",
                            dumps.toString());
            assertThat(r.code()).as(r.err()).isZero();
            if (asJson) {
                List<JsonNode> lines = json(r.out()); // every line a JSON object
                JsonNode alarm = onlyAlarm(lines, r.out());
                assertThat(alarm.get("what").asText())
                        .matches("2,9\\d\\d virtual threads parked at one place \\(limit 1,000\\).*");
                assertThat(alarm.get("next").asText()).startsWith("the pool or lock is now the ceiling");
                assertThat(lines)
                        .anyMatch(n -> n.get("type").asText().equals("threadDumps")
                                && n.get("files").size() == 2);
                assertThat(r.err()).contains("Semaphore.acquire"); // the dumps' analysis, on stderr
            } else {
                assertThat(r.out())
                        .containsPattern(
                                "ALARM pool-ceiling since \\d\\d:\\d\\d:\\d\\d: 2,9\\d\\d virtual threads parked at one"
                                        + " place \\(limit 1,000\\)")
                        .containsPattern("where: Semaphore\\.acquire.* via WatchedApp\\.lambda\\$main\\$0"
                                + " \\(WatchedApp\\.java:\\d+\\)");
                assertThat(r.out()).containsOnlyOnce("ALARM pool-ceiling");
                assertThat(r.out()).contains("Semaphore.acquire");
            }
            // --dump-on-alarm: two dumps kept and analysed as 'threads' does
            try (var files = Files.list(dumps)) {
                assertThat(files.map(f -> f.getFileName().toString()).toList())
                        .hasSize(2)
                        .allMatch(n -> n.matches("threads-" + p.pid() + "-pool-ceiling-\\d{8}-\\d{6}-[ab]\\.json"));
            }
            assertThat(recordings(p)).contains("No available recordings");
            p.destroyForcibly().waitFor();
        }
    }

    /**
     * A ReentrantLock deadlock among virtual threads (the stuck workload): without the agent, a lock-stuck alarm for
     * each lock none of whose waiters got it between two dumps; with the agent in the JVM, the deadlock itself, the
     * agent asked over JMX who owns the locks (nothing loaded).
     */
    @Test
    void aReentrantLockDeadlockIsAnAlarmOnJdk25And21() throws Exception {
        for (String java : List.of(ChildJvm.javaExecutable(), ThreadsIT.jdk21())) {
            Process p = ThreadsIT.stuck(java, "lock", Files.createTempFile(dir, "lock", ".log"), List.of(), started);
            Fixtures.Run r =
                    watch(Long.toString(p.pid()), "--duration", "6s", "--dump-every", "2s", "--format", "json");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.err())
                    .contains("who owns java.util.concurrent locks: asked of the loomscope agent where it runs in the"
                            + " JVM");
            List<JsonNode> alarms = ofType(json(r.out()), "alarm");
            assertThat(alarms)
                    .as(r.out())
                    .hasSize(2)
                    .allMatch(a -> a.get("alarm").asText().equals("lock-stuck"));
            assertThat(alarms)
                    .allMatch(a -> a.get("where")
                            .asText()
                            .matches("ReentrantLock\\.lock.* via StuckService\\.(locked|lambda\\$deadlock\\$\\d+) .*"))
                    .allMatch(a -> a.get("next").asText().startsWith("see what its owner does"));
            p.destroyForcibly().waitFor();

            Path out = Files.createDirectories(dir.resolve("agent-lock-" + started.size()));
            Path agentLog = Files.createTempFile(dir, "lock-agent", ".log");
            Process q = ThreadsIT.stuck(
                    java,
                    "lock",
                    agentLog,
                    List.of("-javaagent:" + Fixtures.AGENT + "=out=" + out
                            + ",startup=before-main,trace-pinned=off,flame=off,profile=off"),
                    started);
            Fixtures.Run a = watch(Long.toString(q.pid()), "--duration", "4s", "--dump-every", "2s");
            assertThat(a.code()).as(a.err()).isZero();
            assertThat(a.out())
                    .containsOnlyOnce("ALARM deadlock")
                    .doesNotContain("ALARM lock-stuck")
                    .containsPattern(
                            "ALARM deadlock since \\d\\d:\\d\\d:\\d\\d: 2 threads each wait for a lock the next one"
                                    + " holds: \"(left|right)\" #\\d+ \\(virtual\\) waits for"
                                    + " java\\.util\\.concurrent\\.locks\\.ReentrantLock\\$NonfairSync@\\w+, held by"
                                    + " \"(right|left)\" #\\d+; .*; where: ReentrantLock\\.lock.* via"
                                    + " StuckService\\.locked .*; next: each thread holds a lock the next one waits"
                                    + " for");
            // asked over JMX: nothing loaded, and the JVM says nothing of an agent loaded at run time
            assertThat(Files.readString(agentLog)).doesNotContain("loaded dynamically");
            q.destroyForcibly().waitFor();
        }
    }

    @Test
    void carriersComputingForGoodBeforeAGrowingQueueAreACpuMonopolyAlarmNamingWhatTheyRunOnJdk25() throws Exception {
        Process p = app(ChildJvm.javaExecutable(), "queue");
        Fixtures.Run r = watch(Long.toString(p.pid()), "--duration", "8s", "--format", "json", "--dump-every", "0");
        assertThat(r.code()).as(r.err()).isZero();
        List<JsonNode> lines = json(r.out());
        // the cause, not only that the queue grew: the queue-growth alarm is the monopoly's
        JsonNode monopoly = onlyAlarm(lines, r.out());
        assertThat(monopoly.get("alarm").asText()).isEqualTo("cpu-monopoly");
        assertThat(monopoly.get("what").asText())
                .matches("\\d+ virtual threads have each been on the CPU for 1 s or more \\(the longest \\d+\\.\\d s,"
                        + " no gap over 250 ms in their samples\\), as many as the \\d+ carriers: every carrier held by"
                        + " a computation while other virtual threads wait");
        assertThat(monopoly.get("where").asText())
                .matches("dev\\.loomscope\\.analyzer\\.it\\.WatchedApp\\.compute:\\d+");
        // the figures it was raised on, as the scheduler's MXBean gave them: every carrier mounted, the queue longer at
        // each refresh
        List<JsonNode> ticks = ofType(lines, "tick");
        assertThat(seconds(ticks)).as(r.out()).isEqualTo(8.0);
        assertThat(ticks)
                .allMatch(t -> t.get("mounted").asInt() == t.get("parallelism").asInt());
        assertThat(ticks.get(ticks.size() - 1).get("queued").asLong())
                .isGreaterThan(ticks.get(ticks.size() / 2).get("queued").asLong())
                .isGreaterThanOrEqualTo(100);
    }

    @Test
    void aKilledWatchersRecordingIsBoundedAndTheNextWatchClosesIt() throws Exception {
        Process p = app(ChildJvm.javaExecutable(), "pin");
        Path log = dir.resolve("watcher.log");
        Process watcher = watcher(log, null, Long.toString(p.pid()));
        ChildJvm.awaitOutput(watcher, log, "carriers", 60);
        watcher.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs
        assertThat(recordings(p)).contains("name=loomscope-watch-" + watcher.pid());
        assertThat(maxAges(p))
                .as("left bounded")
                .containsExactly(Map.entry("loomscope-watch-" + watcher.pid(), 30L)); // seconds
        Fixtures.Run again = watch(Long.toString(p.pid()), "--duration", "1s", "--dump-every", "0");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(recordings(p)).contains("No available recordings");
        // a JVM that ends before watch does takes its recording with it: --record says it wrote nothing, rather than
        // that it did
        Path kept = dir.resolve("kept.jfr");
        new Thread(() -> {
                    try {
                        Thread.sleep(4000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    p.destroy();
                })
                .start();
        Fixtures.Run ended = watch(Long.toString(p.pid()), "--record", kept.toString(), "--dump-every", "0");
        assertThat(ended.code()).as(ended.err()).isEqualTo(2);
        assertThat(ended.err())
                .contains("loomscope watch: process " + p.pid() + " ended")
                .contains(kept + ": not written: process " + p.pid() + " ended before watch did")
                .doesNotContain("recorded to");
        assertThat(kept).doesNotExist();
    }

    @Test
    void withAgentTheAgentsOwnRecordingIsReadAndRunsOnUntouched() throws Exception {
        // JDK 21 under the agent's defaults (async-profiler samples the CPU, into a file of its own): the pins from the
        // agent's recording
        Path out = dir.resolve("agent-out");
        Process p = app(
                ThreadsIT.jdk21(),
                "pin",
                "-javaagent:" + Fixtures.AGENT + "=out=" + out + ",startup=before-main,trace-pinned=off,flame=off");
        Fixtures.Run r =
                watch(Long.toString(p.pid()), "--agent", "--duration", "4s", "--pin-rate", "20", "--dump-every", "0");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err())
                .contains("loomscope watch: streaming the loomscope agent's recording, read from "
                        + out.resolve("jfr-repository"))
                .contains("pins from 1 ms, no CPU samples streamed (the agent samples with async-profiler");
        List<String> ticks = ticks(r.out());
        assertThat(ticks.stream().mapToLong(WatchIT::seconds).sum()).as(r.out()).isEqualTo(4);
        assertThat(ticks)
                .anyMatch(l -> l.matches(".*pins \\d{2,3}\\.\\d/s pinned \\d+% of carrier time, most at"
                        + " dev\\.loomscope\\.analyzer\\.it\\.WatchedApp\\.sleepHoldingTheLock .*"));
        assertThat(r.out()).containsOnlyOnce("ALARM pinning").doesNotContain("spinning");
        assertThat(maxAges(p).keySet())
                .as("no recording of the watcher's; the agent's runs on")
                .containsExactly("loomscope");
        // the agent's recording, untouched by the reading: written when the application ends, its pins at the same
        // frame
        p.destroy();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Path jfr;
        try (var files = Files.list(out)) {
            jfr = files.filter(
                            f -> f.toString().endsWith(".jfr") && !f.toString().endsWith(".async-profiler.jfr"))
                    .findFirst()
                    .orElseThrow();
        }
        ChildJvm.Result pins = Fixtures.cli(dir, "pinning", jfr.toString());
        assertThat(pins.exitCode()).as(pins.toString()).isZero();
        assertThat(pins.stdout()).contains("WatchedApp.sleepHoldingTheLock");
        // JDK 25 with engine=jfr: the agent's CPU samples are JFR's, streamed, and the yield-spin alarm is raised from
        // them
        Process s = app(
                ChildJvm.javaExecutable(),
                "spin",
                "-javaagent:" + Fixtures.AGENT + "=out=" + dir.resolve("agent-out-25")
                        + ",engine=jfr,startup=before-main,trace-pinned=off,flame=off");
        Fixtures.Run spin =
                watch(Long.toString(s.pid()), "--agent", "--duration", "8s", "--format", "json", "--dump-every", "0");
        assertThat(spin.code()).as(spin.err()).isZero();
        assertThat(spin.err()).contains("CPU samples by jdk.ExecutionSample every 10 ms");
        JsonNode alarm = onlyAlarm(json(spin.out()), spin.out());
        assertThat(alarm.get("alarm").asText()).isEqualTo("yield-spin");
        assertThat(alarm.get("where").asText())
                .matches("dev\\.loomscope\\.analyzer\\.it\\.WatchedApp\\.waitForAConnection:\\d+ \\(Thread\\.yield\\)");
        assertThat(maxAges(s).keySet()).containsExactly("loomscope");
    }

    /**
     * The agent's work= windows reach the watcher's own recording as well: a unit a second and its service time on the
     * lines without --agent (churn's garbage maker pauses 20 ms a round, the unit named here).
     */
    @Test
    void theAgentsWorkWindowsAreOnTheLinesOfAWatchersOwnRecording() throws Exception {
        Process p = app(
                ChildJvm.javaExecutable(),
                "churn",
                "-javaagent:" + Fixtures.AGENT + "=out=" + dir.resolve("agent-work")
                        + ",startup=before-main,trace-pinned=off,flame=off,profile=off,held-monitors=off"
                        + ",work=dev.loomscope.analyzer.it.WatchedApp::pause");
        Fixtures.Run r = watch(Long.toString(p.pid()), "--duration", "5s", "--format", "json", "--dump-every", "0");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err())
                .contains("requests a second and service time from the loomscope agent's work= windows")
                .doesNotContain("no requests a second");
        List<JsonNode> ticks = ofType(json(r.out()), "tick");
        assertThat(ticks)
                .as(r.out())
                .anyMatch(t -> t.get("work_calls").asLong() > 0
                        && t.get(Metric.SERVICE_TIME_P50.column()).asDouble() >= 19
                        && t.get(Metric.SERVICE_TIME_P50.column()).asDouble() < 200);
    }

    /**
     * An agent attached while the watcher runs: its work= windows reach the watcher's stream, which asked for them from
     * the start, and the lines carry requests from the first that came, said once.
     */
    @Test
    void anAgentAttachedWhileWatchingPutsItsWorkWindowsOnTheLinesFromThen() throws Exception {
        Process p = app(ChildJvm.javaExecutable(), "churn");
        Path out = dir.resolve("attached.out");
        Path err = dir.resolve("attached.err");
        Process watcher =
                watcher(out, err, Long.toString(p.pid()), "--duration", "12s", "--format", "json", "--dump-every", "0");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (Files.readString(out).isBlank() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Fixtures.Run start = AttachIT.attach(
                Long.toString(p.pid()),
                "start",
                "out=" + dir.resolve("attached-agent")
                        + ",trace-pinned=off,flame=off,profile=off,held-monitors=off"
                        + ",work=dev.loomscope.analyzer.it.WatchedApp::pause");
        assertThat(start.code()).as(start.err()).isZero();
        assertThat(watcher.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(watcher.exitValue()).as(Files.readString(err)).isZero();
        assertThat(Files.readString(err))
                .contains("no requests a second or service time on the lines")
                .containsOnlyOnce("the loomscope agent's work= windows have come (an agent attached since)");
        List<JsonNode> ticks = ofType(json(Files.readString(out)), "tick");
        assertThat(ticks.get(0).get("work_calls").isNull())
                .as(ticks.get(0).toString())
                .isTrue();
        assertThat(ticks)
                .as(Files.readString(out))
                .anyMatch(t -> t.get("work_calls").asLong() > 0
                        && t.get(Metric.SERVICE_TIME_P50.column()).asDouble() >= 19
                        && t.get(Metric.SERVICE_TIME_P50.column()).asDouble() < 200);
    }

    @Test
    void aWatcherThatFellBehindShowsTheIntervalsItMissedAsOneLineAtTheirRate() throws Exception {
        Process p = app(ThreadsIT.jdk21(), "pin");
        Path log = dir.resolve("behind.log");
        Process watcher = watcher(log, null, Long.toString(p.pid()), "--duration", "10s", "--dump-every", "0");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (ticks(Files.readString(log)).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        signal(watcher, "STOP"); // as Ctrl-Z, or a watcher starved of CPU
        Thread.sleep(4000);
        signal(watcher, "CONT");
        assertThat(watcher.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(log);
        assertThat(watcher.exitValue()).as(out).isZero();
        List<String> ticks = ticks(out);
        assertThat(ticks.stream().mapToLong(WatchIT::seconds).sum()).as(out).isEqualTo(10);
        // the intervals that came due while it was stopped, shown together as the stream caught up (one poll of the JVM
        // a line),
        // each line's rate over the seconds it covers: the same four virtual threads pinning (up to 200 pins a second),
        // not a burst
        List<String> behind = ticks.stream().filter(l -> seconds(l) >= 2).toList();
        assertThat(behind).as(out).isNotEmpty();
        for (String l : behind) {
            Matcher rate = Pattern.compile("pins ([\\d,]+\\.\\d)/s").matcher(l);
            assertThat(rate.find()).as(l).isTrue();
            assertThat(Double.parseDouble(rate.group(1).replace(",", ""))).as(l).isBetween(50.0, 220.0);
        }
    }

    private static void signal(Process p, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid()))
                        .start()
                        .waitFor())
                .isZero();
    }

    @Test
    void aJvmsRemoteJmxPortIsWatchedWithoutItsThreadDumps() throws Exception {
        int port;
        try (var socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Process p = app(
                ThreadsIT.jdk21(),
                "pin",
                "-Dcom.sun.management.jmxremote.port=" + port,
                "-Dcom.sun.management.jmxremote.authenticate=false",
                "-Dcom.sun.management.jmxremote.ssl=false",
                "-Djava.rmi.server.hostname=127.0.0.1");
        Fixtures.Run r = watch("127.0.0.1:" + port, "--duration", "3s", "--pin-rate", "20");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err())
                .contains("loomscope watch: 127.0.0.1:" + port + " (JDK 21)")
                .contains("is remote: its thread dumps would be written on its machine");
        assertThat(ticks(r.out()).stream().mapToLong(WatchIT::seconds).sum())
                .as(r.out())
                .isEqualTo(3);
        assertThat(r.out()).contains("ALARM pinning");
        assertThat(recordings(p)).contains("No available recordings");
    }

    @Test
    void badTargetsAreOneLineAndExitTwo() throws Exception {
        for (String[] args : List.of(
                new String[] {"notapid"},
                new String[] {"999999999"},
                new String[] {"1", "--format", "xml"},
                new String[] {"1", "--interval", "10ms"},
                new String[] {"1", "--spin-share", "2"},
                new String[] {"127.0.0.1:1"},
                new String[] {"host:port:x"},
                new String[] {"1", "--agent", "--record", "x.jfr"},
                new String[] {"127.0.0.1:1", "--agent"})) {
            Fixtures.Run r = watch(args);
            assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        }
        // a process that is no JVM: said at once, by its executable's name, without its command line
        Fixtures.Run notJava = watch("1", "--duration", "1s");
        assertThat(notJava.code()).isEqualTo(2);
        assertThat(notJava.err().strip())
                .matches("loomscope watch: process 1 \\(\\S+\\) is not a JVM this user can attach to \\('loomscope"
                        + " attach list' shows them\\)");
        Process p = app(ChildJvm.javaExecutable(), "pin");
        Fixtures.Run noAgent = watch(Long.toString(p.pid()), "--agent", "--duration", "1s");
        assertThat(noAgent.code()).isEqualTo(2);
        assertThat(noAgent.err())
                .contains("process " + p.pid() + ": no loomscope agent records in it")
                .doesNotContain("Exception");
        assertThat(recordings(p)).contains("No available recordings");
        p.destroyForcibly().waitFor();
        Fixtures.Run gone = watch(Long.toString(p.pid()), "--duration", "1s");
        assertThat(gone.code()).isEqualTo(2);
        assertThat(gone.err()).contains("no process " + p.pid());
    }
}
