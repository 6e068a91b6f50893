package dev.loomscope.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomscope.events.RunResults;
import dev.loomscope.options.WorkloadOptions;
import dev.loomscope.workloads.channels.Channels;
import dev.loomscope.workloads.continuation.ContinuationWorkload;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.BadArgumentException;
import dev.loomscope.workloads.core.Runner;
import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.core.Workload;
import dev.loomscope.workloads.echo.AbClient;
import dev.loomscope.workloads.echo.EchoServer;
import dev.loomscope.workloads.echo.EchoWorkload;
import dev.loomscope.workloads.echo.LoadGenerator;
import dev.loomscope.workloads.gameoflife.Board;
import dev.loomscope.workloads.gameoflife.GameOfLifeWorkload;
import dev.loomscope.workloads.pinning.PinningWorkload;
import dev.loomscope.workloads.rendezvous.RendezvousWorkload;
import dev.loomscope.workloads.sleep.SleepWorkload;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WorkloadsTest {
    /** The end of a run's line with {@code --round-trip}: the round trip just before and after it. */
    static final String ROUND_TRIP_RUN = ".*, round trip between cores [1-9][0-9]* ns before, [1-9][0-9]* ns after";

    static Args args(String... a) {
        return new Args(List.of(a));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void echoBodiesEqualTheRequests(ThreadKind kind) throws Exception {
        try (EchoWorkload w = new EchoWorkload(kind, 300, 8, false, "builtin", 0)) {
            Workload.Run r = w.run(); // the client checks every body against its request
            assertThat(r.units()).isEqualTo(300);
            assertThat(r.p99LatencyMs())
                    .isGreaterThanOrEqualTo(r.p50LatencyMs())
                    .isPositive();
        }
        try (EchoWorkload w = new EchoWorkload(kind, 300, 8, true, "builtin", 0)) {
            assertThat(w.run().units()).isEqualTo(300);
        }
    }

    @Test
    void echoServerSpeaksHttp11() throws Exception {
        try (EchoServer server = new EchoServer(ThreadKind.VIRTUAL, 0, 16);
                Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            String request = "POST /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello";
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = readHead(in);
            String h = new String(head, StandardCharsets.ISO_8859_1);
            assertThat(h)
                    .startsWith("HTTP/1.1 200 OK\r\n")
                    .contains("Content-Length: " + request.length())
                    .contains("Connection: keep-alive");
            assertThat(new String(in.readNBytes(request.length()), StandardCharsets.ISO_8859_1))
                    .isEqualTo(request);
        }
    }

    static byte[] readHead(InputStream in) throws Exception {
        var b = new ByteArrayOutputStream();
        while (!b.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            b.write(in.read());
        }
        return b.toByteArray();
    }

    @Test
    void abParserReadsApacheBenchOutput() throws Exception {
        String out = """
            Concurrency Level:      100
            Time taken for tests:   0.412 seconds
            Complete requests:      10000
            Failed requests:        0
            Percentage of the requests served within a certain time (ms)
              50%      4
              66%      4
              99%     11
             100%     15 (longest request)
            """;
        assertThat(AbClient.parse(out)).isEqualTo(new AbClient.Result(0.412, 10000, 4, 11));
    }

    @Test
    void realApacheBenchAndTheBuiltInClientAgreeInMagnitude() throws Exception {
        assumeTrue(AbClient.available(), "ab (apache2-utils) is not installed");
        try (EchoServer server = new EchoServer(ThreadKind.VIRTUAL, 0, 512)) {
            LoadGenerator.run(server.port(), 2000, 20, false); // warm up
            double builtin = LoadGenerator.run(server.port(), 2000, 20, false).nanos() / 1e9;
            double ab = AbClient.run(server.port(), 2000, 20, false).seconds();
            assertThat(ab / builtin).isBetween(0.1, 10.0);
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void sleepCompletesEveryTask(ThreadKind kind) throws Exception {
        assertThat(new SleepWorkload(kind, "per-task", 200, 20).run().units()).isEqualTo(200);
        assertThat(new SleepWorkload(kind, "cached", 200, 20).run().units()).isEqualTo(200);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void rendezvousSumIsChecked(ThreadKind kind) throws Exception {
        // the Java channels and the Kotlin coroutine baseline (its continuations in runBlocking, on
        // Dispatchers.Default, its Channel)
        assertThat(RendezvousWorkload.VARIANTS)
                .containsAll(Channels.VARIANTS)
                .contains("kotlin-continuations", "kotlin-continuations-default", "kotlin-channel");
        for (String variant : RendezvousWorkload.VARIANTS) {
            assertThat(new RendezvousWorkload(kind, 20_000, variant, null).run().units())
                    .as(variant)
                    .isEqualTo(20_000);
        }
        assertThat(Main.run(new String[] {
                    "rendezvous",
                    "--threads",
                    kind.label(),
                    "--variant",
                    "kotlin-continuations",
                    "--n",
                    "1000",
                    "--runs",
                    "1",
                    "--warmup",
                    "0"
                }))
                .isZero();
    }

    @Test
    void rendezvousParallelismAsksForTheSchedulerProperties() {
        var w = RendezvousWorkload.of(args("--parallelism", "1"));
        assertThat(w.jvmProperties())
                .containsEntry("jdk.virtualThreadScheduler.parallelism", "1")
                .containsEntry("jdk.virtualThreadScheduler.maxPoolSize", "1")
                .containsEntry("jdk.virtualThreadScheduler.minRunnable", "1");
    }

    @Test
    void boardSizesMatchTheOriginalExperiment() {
        assertThat(Board.seeded(5).cells()).isEqualTo(874);
        assertThat(Board.seeded(25).cells()).isEqualTo(5_074);
        assertThat(Board.seeded(100).cells()).isEqualTo(49_324);
        // The glider gun emits gliders: the population grows over 120 generations.
        Board b = Board.seeded(25);
        int start = b.population();
        for (int g = 0; g < 120; g++) {
            b = b.step();
        }
        assertThat(b.population()).isGreaterThan(start);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void gameOfLifeCspEqualsTheSequentialGame(ThreadKind kind) throws Exception {
        for (String channel : Channels.GAME_OF_LIFE_TYPES) {
            for (boolean perCell : new boolean[] {true, false}) {
                // run() throws when the CSP board differs from the sequential one
                assertThat(new GameOfLifeWorkload(kind, 2, channel, perCell, 15)
                                .run()
                                .units())
                        .isEqualTo(15);
                if (!perCell) {
                    assertThat(new GameOfLifeWorkload(kind, 2, channel, false, 15, "round-robin")
                                    .run()
                                    .units())
                            .isEqualTo(15);
                }
            }
        }
    }

    @Test
    void pinningCasesRun() throws Exception {
        for (String c : List.of("clinit", "clinit-fixed", "synchronized", "reentrantlock")) {
            assertThat(new PinningWorkload(ThreadKind.VIRTUAL, c, 4, 5).run().units())
                    .as(c)
                    .isEqualTo(4);
        }
    }

    @Test
    void continuationCasesRun() throws Exception {
        for (String c : ContinuationWorkload.CASES) {
            Workload w = ContinuationWorkload.of(
                    args("--case", c, "--ops", "500", "--stack-depth", "10", "--param-count", "3"));
            assertThat(w.run().units()).as(c).isEqualTo(500);
        }
    }

    @Test
    void everyRunIsRecordedAsAWorkloadRunEvent(@TempDir Path dir) throws Exception {
        Path jfr = dir.resolve("runs.jfr");
        try (Recording rec = new Recording()) {
            rec.enable("loomscope.WorkloadRun");
            rec.start();
            var w = new SleepWorkload(ThreadKind.VIRTUAL, "per-task", 50, 5);
            Runner.run("sleep", w, 1, 2, new PrintStream(new ByteArrayOutputStream()));
            rec.stop();
            rec.dump(jfr);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        assertThat(events).hasSize(3);
        assertThat(events).extracting(e -> e.getBoolean("warmup")).containsExactly(true, false, false);
        assertThat(events).extracting(e -> e.getInt("runIndex")).containsExactly(0, 0, 1);
        assertThat(events).allSatisfy(e -> {
            assertThat(e.getString("workload")).isEqualTo("sleep");
            assertThat(e.getString("threadKind")).isEqualTo("virtual");
            assertThat(e.getLong("units")).isEqualTo(50);
            assertThat(e.getString("params")).contains("tasks=50");
            assertThat(e.getDuration().toMillis()).isGreaterThanOrEqualTo(5);
            assertThat(e.getDouble("p50LatencyMs")).isNaN();
            // the process's context switches over the run (Linux counts them): 50 sleeping tasks switch at least once
            // each
            assertThat(e.getLong("voluntaryContextSwitches") + e.getLong("involuntaryContextSwitches"))
                    .isGreaterThan(0);
        });
    }

    @Test
    void resultsFileHasARowPerRunWithTheEventsFields(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("results.csv");
        var w = new SleepWorkload(ThreadKind.PLATFORM, "per-task", 20, 5);
        long[] nanos = Runner.run("sleep", w, 1, 3, new PrintStream(new ByteArrayOutputStream()), null, csv);
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines).hasSize(5);
        // the header: the run's start and duration, then every field the event declares
        // (dev.loomscope.events.RunResults)
        assertThat(lines.get(0))
                .isEqualTo(RunResults.header())
                .startsWith(
                        "startEpochNanos,nanos,workload,threadKind,runIndex,warmup,units,unit,params,p50LatencyMs,");
        List<String> columns = RunResults.split(lines.get(0));
        BiFunction<List<String>, String, String> at = (row, column) -> row.get(columns.indexOf(column));
        List<String> warmup = RunResults.split(lines.get(1));
        assertThat(List.of(
                        at.apply(warmup, "workload"),
                        at.apply(warmup, "threadKind"),
                        at.apply(warmup, "runIndex"),
                        at.apply(warmup, "warmup"),
                        at.apply(warmup, "units"),
                        at.apply(warmup, "unit")))
                .containsExactly("sleep", "platform", "0", "true", "20", "tasks");
        for (int i = 0; i < 3; i++) {
            List<String> v = RunResults.split(lines.get(2 + i));
            assertThat(v).hasSameSizeAs(columns);
            // every thread's allocation over the run: 20 platform threads and their tasks allocate something
            assertThat(Long.parseLong(at.apply(v, "allocatedBytes"))).isPositive();
            assertThat(at.apply(v, "runIndex")).isEqualTo(Integer.toString(i));
            assertThat(at.apply(v, "warmup")).isEqualTo("false");
            assertThat(Long.parseLong(at.apply(v, "nanos"))).isEqualTo(nanos[i]);
            assertThat(at.apply(v, "p50LatencyMs")).isEqualTo("NaN");
            assertThat(at.apply(v, "params")).isEqualTo(w.about().params());
            assertThat(Long.parseLong(at.apply(v, "voluntaryContextSwitches"))
                            + Long.parseLong(at.apply(v, "involuntaryContextSwitches")))
                    .isGreaterThan(0);
            // the machine's CPU shares over the run (from /proc): this process's, the others', steal's, each 0 to 1, or
            // NaN
            // for a run so short that no clock tick (10 ms) passed
            for (String column : List.of("processCpu", "otherCpu", "stealCpu")) {
                double share = Double.parseDouble(at.apply(v, column));
                assertThat(Double.isNaN(share) || share >= 0 && share <= 1)
                        .as(column)
                        .isTrue();
            }
        }
        assertThat(Long.parseLong(at.apply(RunResults.split(lines.get(3)), "startEpochNanos")))
                .isGreaterThan(Long.parseLong(at.apply(RunResults.split(lines.get(2)), "startEpochNanos")));
    }

    @Test
    void pacedRunsWaitForALineEachAndStopAtTheEndOfInput() throws Exception {
        var out = new ByteArrayOutputStream();
        var w = new SleepWorkload(ThreadKind.VIRTUAL, "per-task", 10, 1);
        long[] nanos = Runner.run(
                "sleep",
                w,
                1,
                5,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new BufferedReader(new StringReader("go\ngo\n")),
                null);
        assertThat(nanos).hasSize(2);
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text)
                .containsSubsequence(
                        "sleep virtual warm-up 1/1",
                        "sleep virtual: paced, each run waits for a line on stdin",
                        "sleep virtual run 1/5:",
                        "process CPU",
                        "sleep virtual run 2/5:",
                        "process CPU",
                        "sleep virtual: median");
        assertThat(text).contains("over 2 runs").doesNotContain("run 3/5");
    }

    @Test
    void badParametersAreOneLineAndExitTwo() {
        assertThat(Main.run(new String[] {"sleep", "--threads", "virtual", "--results", "/nonexistent/dir/r.csv"}))
                .isEqualTo(2);
        assertThat(Main.run(new String[] {"sleep", "--threads", "green"})).isEqualTo(2);
        assertThat(Main.run(new String[] {"nope"})).isEqualTo(2);
        assertThatThrownBy(() -> args("--n", "x").integer(WorkloadOptions.Echo.N))
                .isInstanceOf(BadArgumentException.class)
                .hasMessage("--n x: not a whole number");
        assertThatThrownBy(() -> GameOfLifeWorkload.of(args("--channel", "Carrier")))
                .hasMessage("--channel Carrier: expected BlockingQueue, BlockingTransfer, LockedSingleValue or"
                        + " OneToOneParking");
        assertThatThrownBy(() -> args("--runs", "0").integer(WorkloadOptions.RUNS))
                .hasMessage("--runs 0: must be between 1 and 100000");
        // a flag before an ab-style -k does not take it for its value; -5 is the value of --n
        Args flags = args("--paced", "-k", "--n", "-5");
        assertThat(flags.flag(WorkloadOptions.PACED)).isTrue();
        assertThat(flags.flag(WorkloadOptions.Echo.K)).isTrue();
        assertThatThrownBy(() -> flags.integer(WorkloadOptions.Echo.N))
                .hasMessage("--n -5: must be between 1 and 100000000");
        assertThat(args("--channel", "lockedsinglevalue").choice(WorkloadOptions.GameOfLife.CHANNEL))
                .isEqualTo("LockedSingleValue");
        // an option that takes a value, given without one, is not taken as "true" (a CSV file named true)
        assertThatThrownBy(() -> args("--results", "--runs", "1").string(WorkloadOptions.RESULTS))
                .hasMessage("--results: needs a value (a path)");
        assertThatThrownBy(() -> args("--case").choice(WorkloadOptions.Pinning.CASE))
                .hasMessageStartingWith("--case: needs a value (native, ");
    }

    @Test
    void theDeclaredChoicesAreWhatTheWorkloadsImplement() {
        assertThat(WorkloadOptions.Rendezvous.VARIANT.choices()).containsExactlyElementsOf(RendezvousWorkload.VARIANTS);
        assertThat(WorkloadOptions.GameOfLife.CHANNEL.choices()).containsExactlyElementsOf(Channels.GAME_OF_LIFE_TYPES);
        for (String v : RendezvousWorkload.VARIANTS) {
            assertThat(RendezvousWorkload.defaultN(v)).isPositive();
        }
    }

    @Test
    void helpListsEveryDeclaredOption() {
        for (String workload : WorkloadOptions.BY_WORKLOAD.keySet()) {
            PrintStream saved = System.out;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            try {
                assertThat(Main.run(new String[] {workload, "--help"})).isZero();
            } finally {
                System.setOut(saved);
            }
            String help = out.toString(StandardCharsets.UTF_8);
            for (var o : WorkloadOptions.of(workload)) {
                assertThat(help)
                        .as(workload + " --help")
                        .contains("  " + o.flag() + " ")
                        .contains(o.description());
            }
        }
    }

    @Test
    void roundTripMeasuresACacheLinePassedBetweenTwoThreads() {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "two processors to pass the line between");
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run(new String[] {"round-trip"})).isZero();
            assertThat(Main.run(new String[] {"round-trip", "--n", "5"})).isEqualTo(2);
            assertThatThrownBy(() -> new Args(List.of("--n", "5")).rejectUnknown("round-trip"))
                    .hasMessage("round-trip: unknown option --n (it takes none)");
            assertThat(Main.run(new String[] {
                        "rendezvous",
                        "--threads",
                        "virtual",
                        "--variant",
                        "meet-spin1000-park",
                        "--n",
                        "1000",
                        "--runs",
                        "2",
                        "--warmup",
                        "0",
                        "--round-trip"
                    }))
                    .isZero();
        } finally {
            System.setOut(saved);
        }
        String line = out.toString(StandardCharsets.UTF_8)
                .lines()
                .filter(l -> l.startsWith("round-trip "))
                .findFirst()
                .orElseThrow();
        Map<String, Double> v = new HashMap<>();
        for (String kv : line.substring("round-trip ".length()).split(" ")) {
            String[] p = kv.split("=");
            if (!p[0].equals("others") && !p[0].equals("steal")) {
                v.put(p[0], Double.parseDouble(p[1]));
            }
        }
        // a round trip is at least two cache misses (tens of ns) and, 200,000 of them a round, far less than a context
        // switch each would take
        assertThat(v.get("ns")).isBetween(v.get("min-ns"), v.get("max-ns")).isGreaterThan(5.0);
        // how long the round trip takes is this machine's speed, which a test does not judge (benchmarks do): only that
        // it was measured
        assertThat(v.get("cpus")).isEqualTo(Runtime.getRuntime().availableProcessors());
        // --round-trip: every run's line says the round trip just before and after it
        assertThat(out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("rendezvous virtual run ")))
                .hasSize(2)
                .allMatch(l -> l.matches(ROUND_TRIP_RUN));
    }

    @Test
    void twoThreadsQueuedOnOneCoreStillPassTheLine() throws Exception {
        // a machine busy with other processes can queue both threads on one core, where a spin alone passes the line
        // once a
        // time slice (a measurement took minutes): put them there, the JVM told of two processors
        Path taskset = Path.of("/usr/bin/taskset");
        assumeTrue(Files.isExecutable(taskset), "taskset (util-linux) to hold a JVM to one core");
        String allowed = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:"))
                .findFirst()
                .orElseThrow()
                .split(":")[1]
                .trim();
        String core = allowed.split("[-,]")[0];
        Process p = new ProcessBuilder(
                        taskset.toString(),
                        "-c",
                        core,
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:ActiveProcessorCount=2",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "rendezvous",
                        "--threads",
                        "virtual",
                        "--variant",
                        "meet-spin1000-park",
                        "--n",
                        "1000",
                        "--runs",
                        "1",
                        "--warmup",
                        "0",
                        "--round-trip")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out.lines().filter(l -> l.startsWith("rendezvous virtual run ")))
                .singleElement()
                .asString()
                .matches(ROUND_TRIP_RUN);
    }
}
