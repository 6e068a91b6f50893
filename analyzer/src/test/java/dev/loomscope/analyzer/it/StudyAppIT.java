package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.load.DemoService;
import dev.loomscope.load.Target;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.AbstractDoubleAssert;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code study --app} on a small real service ({@link DemoService}, Jetty from Maven Central) with a blocking endpoint
 * ({@code /io}) and a pinning one ({@code /legacy}), on JDK 21 and on the JDK the tests run on; the direction of its
 * figures held to an independent client's ({@code ab}) on the same service, and the load client's latency to ab's. One
 * JVM a kind and short windows keep it to a few minutes: the directions are what is checked (a verdict needs 4 JVMs a
 * kind), on a busy machine too (its JVMs kept, flagged).
 */
class StudyAppIT {
    @TempDir
    Path dir;

    /** A verdict's change: a percentage ({@code -3%}) up to 2x, a ratio ({@code 30.3x}) beyond. */
    private static final Pattern P99 = Pattern.compile(
            "^(GET /\\S+) at 300/s: virtual vs platform: latency (p50|p99) median (?:([+-]\\d+)%|([\\d.,]+)x)",
            Pattern.MULTILINE);

    /**
     * The change of {@code url}'s latency {@code q} at 300/s, virtual against platform, within -50% and +100%; beside
     * other work the client itself can lag in every window of a kind: then there is no figure, and the study says why.
     */
    private static void notMuchWorse(Map<String, Double> change, String out, String url, String q) {
        if (change.get(url + " " + q) != null) {
            assertThat(change.get(url + " " + q)).as(out).isBetween(-50.0, 100.0);
        } else {
            assertThat(lagged(out, url, "(platform|virtual)")).as(out).isTrue();
        }
    }

    /**
     * Whether the study said the load client itself lagged in every measured window of {@code kinds} at {@code url} and
     * 300/s (a busy machine: a fast service's windows are the client's then), so that kind has no client figures.
     */
    private static boolean lagged(String out, String url, String kinds) {
        return Pattern.compile(url + " at 300/s: what the client saw, .*" + kinds
                        + " no figures \\(the load client itself lagged in \\d+ of \\d+ measured windows")
                .matcher(out)
                .find();
    }

    @Test
    void onJdk21ThePinningEndpointIsWorseOnVirtualThreadsAsAbSeesIt() throws Exception {
        String java = Jdk21IT.jdk21();
        ChildJvm.Result r = study(java, "--rate", "150,300", "--slo", "p99=50ms");
        Map<String, Double> change = changes(r.stdout());
        // beside other work the client can lag in every window of the platform JVM, whose /legacy answers in 11 ms:
        // then it has no client figures (the study says why), and the recordings' figures and ab carry the direction
        boolean platformLagged = lagged(r.stdout(), "GET /legacy", "platform");
        if (!platformLagged) {
            // 64 monitors held over a 10 ms wait pin the 2 carriers: virtual threads serve about 200/s, platform
            // threads thousands
            assertThat(change.get("GET /legacy p99")).as(r.stdout()).isGreaterThan(100);
        }
        notMuchWorse(change, r.stdout(), "GET /io", "p50");
        assertThat(r.stdout())
                .containsPattern(
                        "GET /legacy at 300/s: why, on virtual threads: [\\d.]+ pins? a request holding the carrier"
                                + " [\\d.]+ ms in all .*serve at most [\\d.]+ requests/s, below the 300/s offered");
        assertThat(r.stdout())
                .containsPattern("GET /legacy: capacity at p99 <= 50(.0)? ms with under 1% errors and no request left"
                        + " late, of the rates 150/s, 300/s: platform "
                        + (platformLagged ? "[^,]+" : "300/s \\(its JVMs: 300/s\\)")
                        + ", virtual (150/s|below 150/s) ");
        // advise, from the platform JVM's looks, scored by what the virtual JVM then served: 10 ms held a request on 2
        // carriers
        Matcher advised = Pattern.compile(
                        "(?m)^GET /legacy at 300/s: advise, from the platform JVM's recording \\(JDK 21-23 sites, 2"
                                + " carriers\\): ceiling ([\\d.,]+)/s (?:\\[[\\d.,]+, [\\d.,]+\\]|\\(no interval: one"
                                + " measured window a JVM\\)); virtual threads served"
                                + " ([\\d.,]+)/s of 300/s offered \\(median of 1 JVM\\): they did not keep up, so they"
                                + " served what they could: [\\d.]+x the ceiling")
                .matcher(r.stdout());
        assertThat(advised.find()).as(r.stdout()).isTrue();
        double ratio = Double.parseDouble(advised.group(2).replace(",", ""))
                / Double.parseDouble(advised.group(1).replace(",", ""));
        assertThat(ratio).as("served / advise's ceiling").isBetween(0.5, 1.5);
        // the service's facts from its recordings, not the CLI's JDK: this is JDK 21, where synchronized pins
        assertThat(r.stdout())
                .containsPattern(
                        "(?m)^the service ran \\(from its recordings\\): platform on JDK 21\\.[^;]*, heap at most"
                                + " [\\d.]+ [MG]B, [\\d]+ hardware threads, [\\d]+ processors seen")
                .containsPattern("virtual threads' pins: [\\d,]+ in the measured windows")
                .doesNotContain(" per unit")
                .doesNotContain(" runs:");
        if (!platformLagged) {
            // what was offered over the measured windows: the rate, give or take the requests due at a window's end
            // that a client slowed by a busy machine counts in the next window
            Matcher offered = Pattern.compile(
                            "(?m)^GET /legacy at 300/s: what the client saw, JDK 21\\.[^:]*: platform [\\d.,]+/s"
                                    + " answered of ([\\d.,]+)/s, p50 [\\d.,]+ ms")
                    .matcher(r.stdout());
            assertThat(offered.find()).as(r.stdout()).isTrue();
            assertThat(Double.parseDouble(offered.group(1).replace(",", ""))).isBetween(297.0, 303.0);
            // each URL's bottom line, from the client's p99 (one JVM a kind: a ratio, no verdict, so no cause named)
            assertThat(r.stdout())
                    .containsPattern("(?m)^=> GET /legacy at 300/s: virtual not judged \\(too few JVMs\\), latency"
                            + " p99 [\\d.,]+x platform's");
        }
        // and the study's one bottom line, last before the report: one JVM a kind decides nothing, but the pins'
        // ceiling is arithmetic on the recording
        assertThat(r.stdout())
                .containsPattern(
                        "(?m)^=> the study: not decided: .*; because a request: [\\d.]+ ms pinned \\(2 carriers serve"
                                + " at most [\\d.,]+/s of 300/s\\); next: run 4 or more JVMs a kind \\(--forks 4\\): 1"
                                + " cannot reach the rule's confidence\\nreport: ");
        // the report draws the capacity and, window by window, the client's latency beside the pins of the same windows
        String html = Files.readString(dir.resolve("report/index.html"));
        assertThat(html)
                .containsPattern("recorded on JDK 21\\.")
                .contains("GET /legacy: latency p99 against the offered rate")
                .contains("objective 50 ms")
                .contains("GET /legacy at 300/s: p99 by window, pins and GC below")
                .contains("virtual pinned at");
        // compare on the study's recordings alone judges each URL and rate over the load client's windows beside them,
        // as the study did
        ChildJvm.Result compare =
                Fixtures.cli(dir, "compare", dir.resolve("report/recordings").toString() + "/*/*.jfr");
        assertThat(compare.exitCode()).as(compare.stderr()).isZero();
        assertThat(compare.stdout())
                .containsPattern("(?m)^GET /legacy at 300/s: Verdicts")
                .containsPattern("(?m)^GET /io at 150/s: Verdicts");
        if (!platformLagged) {
            assertThat(compare.stdout())
                    .containsPattern("(?m)^\\s*GET /legacy at 300/s: virtual vs platform: latency p99 median ");
        }
        // ab, closed loop at 50 concurrent requests, on the same service: the same direction
        abVirtualOverPlatform(java, "/legacy").isGreaterThan(1.5);
    }

    @Test
    void onTheTestsJdkNeitherEndpointIsMuchWorseOnVirtualThreads() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 24, "synchronized pins before JDK 24");
        String java = ChildJvm.javaExecutable();
        ChildJvm.Result r = study(java, "--rate", "300");
        Map<String, Double> change = changes(r.stdout());
        notMuchWorse(change, r.stdout(), "GET /legacy", "p50");
        notMuchWorse(change, r.stdout(), "GET /io", "p50");
        assertThat(r.stdout())
                .doesNotContain("why, on virtual threads")
                .containsPattern("(?m)^=> the study: ")
                .doesNotContain("pinned (");
        abVirtualOverPlatform(java, "/legacy").isLessThan(1.5);
    }

    @Test
    void yourOwnClientRunsInsteadAndWhatCannotBeJudgedIsSaid() throws Exception {
        List<String> cmd = List.of(
                ChildJvm.javaExecutable(),
                "-jar",
                Fixtures.CLI.toString(),
                "study",
                "--app",
                "java -cp " + System.getProperty("java.class.path") + " " + DemoService.class.getName()
                        + " --port {port} --threads {threads}",
                "--url",
                "http://localhost:{port}/io",
                "--load-command",
                ab() + " -q -n 300 -c 20 http://localhost:{port}/io",
                "--forks",
                "1",
                "--reruns",
                "0",
                "--keep-disturbed",
                "--out",
                dir.resolve("report").toString());
        ChildJvm.Result r = ChildJvm.exec(cmd, dir, 600);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stderr())
                .contains("2 JVMs (platform, virtual x 1 recorded + 0 controls without the agent)")
                .contains("then the --load-command to its end");
        assertThat(r.stdout())
                .contains("the load came from --load-command ab -q -n 300 -c 20 http://localhost:{port}/io: a client of"
                        + " its own")
                .containsPattern("(?m)^under the load command: virtual vs platform: allocation rate ")
                .doesNotContain(": latency p");
        assertThat(Files.readString(dir.resolve("report/recordings/app-virtual-1/load.log")))
                .containsPattern("Complete requests:\\s+300");
    }

    @Test
    void theLoadClientsLatencyIsAbsOnTheSameService() throws Exception {
        int port = freePort();
        Process service = serve(ChildJvm.javaExecutable(), "platform", port);
        try {
            ChildJvm.Result load = Fixtures.cli(
                    dir,
                    "load",
                    "--url",
                    "http://localhost:" + port + "/io",
                    "--rate",
                    "20",
                    "--connections",
                    "4",
                    "--min-warmup",
                    "2s",
                    "--max-warmup",
                    "5s",
                    "--windows",
                    "2",
                    "--window",
                    "2s",
                    "--results",
                    dir.resolve("load.csv").toString());
            assertThat(load.exitCode()).as(load.stderr()).isZero();
            Matcher m = Pattern.compile(
                            "answered \\([\\d.]+/s\\), 0 errors, [\\d,]+ late at the end; latency from each request's"
                                    + " intended start(?: \\(the late at their age then: at least\\))?: p50 ([\\d.]+)"
                                    + " ms")
                    .matcher(load.stdout());
            assertThat(m.find()).as(load.stdout()).isTrue();
            double ours = Double.parseDouble(m.group(1));
            // at 20/s a request a time: no queueing, so the open loop's latency is a closed loop's too
            ChildJvm.Result ab =
                    ChildJvm.exec(List.of(ab(), "-n", "100", "-c", "1", "http://localhost:" + port + "/io"), dir, 120);
            Matcher median =
                    Pattern.compile("^\\s+50%\\s+(\\d+)", Pattern.MULTILINE).matcher(ab.stdout());
            assertThat(median.find()).as(ab.stdout()).isTrue();
            double theirs = Double.parseDouble(median.group(1));
            assertThat(ours)
                    .as("our p50 against ab's (whole ms)")
                    .isCloseTo(theirs, within(Math.max(5, 0.25 * theirs)));
            List<String> rows = Files.readAllLines(dir.resolve("load.csv"));
            assertThat(rows.get(0))
                    .contains(
                            "p999LatencyMs",
                            "offeredUnits",
                            "errors",
                            "measuredBy",
                            "late",
                            "latencyHistogram",
                            "sendLatencyHistogram");
            assertThat(rows.stream().filter(l -> l.contains(",false,")).count()).isEqualTo(2); // two measured windows
        } finally {
            service.destroy();
            service.waitFor();
        }
    }

    @Test
    void aDeadTargetFailsAtOnceWithItsCause() throws Exception {
        int port = freePort(); // nothing listens there
        ChildJvm.Result load = Fixtures.cli(
                dir,
                "load",
                "--url",
                "http://127.0.0.1:" + port + "/",
                "--rate",
                "20",
                "--min-warmup",
                "0s",
                "--max-warmup",
                "1s",
                "--windows",
                "1",
                "--window",
                "1s");
        assertThat(load.exitCode()).isEqualTo(2);
        assertThat(load.stdout()).isEmpty();
        assertThat(load.stderr().strip())
                .isEqualTo("loomscope load: http://127.0.0.1:" + port
                        + "/: connection refused (is the service up, and at this URL?)");
        assertThat(Fixtures.cli(dir, "load", "--url", "http://no-such-host.invalid/")
                        .stderr()
                        .strip())
                .isEqualTo("loomscope load: http://no-such-host.invalid/: unknown host (is the service up, and at this"
                        + " URL?)");
        assertThat(Fixtures.cli(dir, "load").stderr())
                .contains("give at least one URL to load (e.g. loomscope load http://localhost:8080/)");
        assertThat(Fixtures.cli(dir, "load", "--url", "http://x/", "--rate", "0")
                        .stderr())
                .contains("--rate 0/s: must be above 0");
        assertThat(Fixtures.cli(dir, "load", "--url", "http://x/", "--window", "soon")
                        .stderr())
                .contains("--window soon: not a duration");
    }

    @Test
    void aServiceThatCannotStartFailsTheStudyAtOnceWritingNothing() throws Exception {
        List<String> cmd = List.of(
                ChildJvm.javaExecutable(),
                "-jar",
                Fixtures.CLI.toString(),
                "study",
                "--app",
                "java -jar " + dir.resolve("x.jar"),
                "--out",
                dir.resolve("report").toString(),
                "--forks",
                "4",
                "--alpha",
                "0.01");
        ChildJvm.Result r = ChildJvm.exec(cmd, dir, 300);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(2);
        assertThat(r.stderr()).contains("--app: the service did not start").contains("Unable to access jarfile");
        // 4 against 4 reaches p 0.029 at the least: short of --alpha 0.01, which 5 against 5 reach
        assertThat(r.stderr())
                .contains("note: --forks 4: with fewer than 5 JVMs a kind no verdict can reach p < 0.01 (5 against 5 is"
                        + " the fewest)");
        assertThat(dir.resolve("report")).doesNotExist();
        ChildJvm.Result typo = ChildJvm.exec(
                List.of(
                        ChildJvm.javaExecutable(),
                        "-jar",
                        Fixtures.CLI.toString(),
                        "study",
                        "--app",
                        "java -jar app.jar --port={prot}"),
                dir,
                120);
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.stderr()).contains("{prot} is not a placeholder (known: {threads}, {virtual}, {port})");
    }

    @Test
    void aSignalMidStudyWritesThePartialVerdictsAndReportAndStartsNoOtherJvm() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                ChildJvm.javaExecutable(),
                "-jar",
                Fixtures.CLI.toString(),
                "study",
                "--app",
                "java -cp " + System.getProperty("java.class.path") + " " + DemoService.class.getName()
                        + " --port {port} --threads {threads}",
                "--url",
                "http://localhost:{port}/io",
                "--forks",
                "2",
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
                "--seed",
                "3",
                "--out",
                dir.resolve("report").toString()));
        Path err = dir.resolve("study.err");
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectError(err.toFile())
                .redirectOutput(dir.resolve("study.out").toFile())
                .start();
        try {
            // two JVMs done, the third started: then the signal (SIGTERM, as Ctrl-C's SIGINT runs the same hook)
            if (!ChildJvm.awaitOutput(p, err, "study: 3/4", 300)) {
                assertThat(p.isAlive()).as(Files.readString(err)).isTrue();
            }
            Thread.sleep(1500);
            p.destroy();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        String stderr = Files.readString(err);
        String stdout = Files.readString(dir.resolve("study.out"));
        assertThat(stderr)
                .as(stderr)
                .contains("stopped; the verdicts and report are of the 2 JVMs that finished (partial)")
                .doesNotContain("study: 4/4");
        assertThat(stdout)
                .as(stdout)
                .contains("partial: the study was stopped after 2 of 4 JVMs")
                .contains("report: ");
        assertThat(dir.resolve("report/index.html")).exists();
    }

    /** {@code GET /legacy p99} -> the change in percent, from the study's verdict lines at 300/s. */
    private static Map<String, Double> changes(String stdout) {
        Map<String, Double> out = new HashMap<>();
        Matcher m = P99.matcher(stdout);
        while (m.find()) {
            out.put(
                    m.group(1) + " " + m.group(2),
                    m.group(3) != null
                            ? Double.parseDouble(m.group(3))
                            : (Double.parseDouble(m.group(4).replace(",", "")) - 1) * 100);
        }
        return out;
    }

    private ChildJvm.Result study(String java, String... more) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                ChildJvm.javaExecutable(),
                "-jar",
                Fixtures.CLI.toString(),
                "study",
                "--java",
                java,
                "--app",
                "java -cp " + System.getProperty("java.class.path") + " " + DemoService.class.getName()
                        + " --port {port} --threads {threads}",
                "--url",
                "http://localhost:{port}/io",
                "--url",
                "http://localhost:{port}/legacy",
                "--forks",
                "1",
                "--controls",
                "0",
                "--reruns",
                "0",
                "--keep-disturbed",
                "--min-warmup",
                "2s",
                "--max-warmup",
                "3s",
                "--windows",
                "3",
                "--window",
                "1s",
                "--out",
                dir.resolve("report").toString()));
        cmd.addAll(List.of(more));
        ChildJvm.Result r = ChildJvm.exec(cmd, dir, 900);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).contains("latency, throughput and errors are the load client's");
        return r;
    }

    /**
     * ab's mean time a request at {@code path}, virtual threads' over platform threads', each on a fresh service: to
     * assert on, with both figures said.
     */
    private AbstractDoubleAssert<?> abVirtualOverPlatform(String java, String path) throws Exception {
        double platform = abMeanMillis(java, "platform", path);
        double virtual = abMeanMillis(java, "virtual", path);
        return assertThat(virtual / platform)
                .as("ab's mean latency on %s, virtual %.1f ms against platform %.1f ms", path, virtual, platform);
    }

    /** ab's mean time a request, ms, at 50 concurrent requests on a fresh service of the kind. */
    private double abMeanMillis(String java, String kind, String path) throws Exception {
        int port = freePort();
        Process service = serve(java, kind, port);
        try {
            // warm-up
            ChildJvm.exec(List.of(ab(), "-n", "200", "-c", "50", "http://localhost:" + port + path), dir, 120);
            ChildJvm.Result ab =
                    ChildJvm.exec(List.of(ab(), "-n", "1000", "-c", "50", "http://localhost:" + port + path), dir, 300);
            Matcher m = Pattern.compile("Time per request:\\s+([\\d.]+) \\[ms\\] \\(mean\\)")
                    .matcher(ab.stdout());
            assertThat(m.find()).as(ab.stdout() + ab.stderr()).isTrue();
            return Double.parseDouble(m.group(1));
        } finally {
            service.destroy();
            service.waitFor();
        }
    }

    private Process serve(String java, String kind, int port) throws Exception {
        Process p = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        DemoService.class.getName(),
                        "--port",
                        Integer.toString(port),
                        "--threads",
                        kind)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("service-" + kind + ".log").toFile())
                .start();
        Target t = Target.of("http://localhost:" + port + "/");
        for (int i = 0; i < 600 && !t.answers(1000); i++) {
            assertThat(p.isAlive())
                    .as(Files.readString(dir.resolve("service-" + kind + ".log")))
                    .isTrue();
            Thread.sleep(100);
        }
        return p;
    }

    private static String ab() {
        String path = System.getenv().getOrDefault("PATH", "");
        boolean present = Arrays.stream(path.split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, "ab")));
        if (!present && System.getenv("CI") != null) {
            throw new AssertionError("ab is missing: .ci/run installs apache2-utils");
        }
        Assumptions.assumeTrue(present, "no ab here (apt install apache2-utils)");
        return "ab";
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
