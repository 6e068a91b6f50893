package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.load.DemoService;
import dev.loomscope.load.OpenLoop;
import dev.loomscope.load.Target;
import dev.loomscope.probes.MachineCpu;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code advise} on a recording of the tests' Jetty service on platform threads, JDK 21, held to what then happens on
 * virtual threads: its {@code /legacy} holds a monitor around a 10 ms wait, so the prediction from the platform
 * recording, made as users make one (its start-up in it, no work=: the agent counts Jetty's requests by default), must
 * name that frame, an interval of the time a request held it that covers the time the service itself measured inside
 * the monitor, and a ceiling on JDK 21-23 whose interval reaches within 20% of the rate the same service then serves on
 * virtual threads when offered more; on JDK 24+ nothing to speak of. The intervals are advise's 95% ones widened to
 * 99.9% (x 3.29 / 1.96), so that a test run fails one time in a thousand by chance, not one in twenty.
 */
class AdviseIT {
    /** A 95% interval's half-width to a 99.9% one's. */
    private static final double WIDEN = 3.29 / 1.96;

    @TempDir
    Path dir;

    @Test
    void thePlatformRecordingPredictsTheVirtualThreadsCeiling() throws Exception {
        String java = Jdk21IT.jdk21();
        // recorded on platform threads at 100/s for 20 s: enough looks, on a busy machine too, to hold the mean to the
        // bounds below
        Path out = dir.resolve("rec");
        int port = freePort();
        Process platform = serve(
                java,
                "platform",
                port,
                // recorded as users record a service: its start-up in the recording, no work= (Jetty's requests
                // counted, the agent's default)
                "-javaagent:" + Fixtures.AGENT + "=out=" + out + ",label=demo,threads=platform,profile=off,"
                        + "flame=off,trace-pinned=off");
        double truth; // ms a /legacy request held its monitor, as the service measured it
        try (OpenLoop load = new OpenLoop(Target.of("http://127.0.0.1:" + port + "/legacy"), 100, 16, 10_000)) {
            load.window(20_000_000_000L);
            String[] held = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/held"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body()
                    .trim()
                    .split(" ");
            truth = Long.parseLong(held[1]) / 1e6 / Long.parseLong(held[0]);
        } finally {
            platform.destroy(); // SIGTERM: the agent writes the recording
            platform.waitFor();
        }
        Path recording;
        try (Stream<Path> files = Files.list(out)) {
            recording =
                    files.filter(p -> p.toString().endsWith(".jfr")).findFirst().orElseThrow();
        }
        ChildJvm.Result r = Fixtures.cli(dir, "advise", "--format", "json", recording.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        JsonNode tables = new ObjectMapper().readTree(r.stdout()).get("tables");
        JsonNode site = tables.get(0).get("rows").get(0);
        // Jetty's reserved threads wait for their next task on a Semaphore, outside every work= call: idle, not a
        // request waiting
        assertThat(tables.get(0).get("rows").toString()).doesNotContain("ReservedThreadExecutor");
        assertThat(site.get("what").asText())
                .as(tables.get(0).get("rows").toString())
                .isEqualTo("blocks holding a monitor");
        assertThat(site.get("site").asText()).startsWith(DemoService.class.getName() + "$1.handle(DemoService.java:");
        assertThat(site.get("blocked in").asText()).startsWith("java.lang.Thread.sleep");
        assertThat(site.get("work").asText())
                .as("the request the threads were in: Jetty's, counted without work=")
                .isEqualTo("org.eclipse.jetty.server.Server::handle");
        // the rate is the requests the agent counted, over their span: the start-up left out
        assertThat(tables.toString())
                .contains("over the requests at ")
                .contains("(the requests counted a second over ");
        JsonNode jdk21 = tables.get(1).get("rows").get(0);
        JsonNode jdk24 = tables.get(1).get("rows").get(1);
        double mean = jdk21.get("carriers held").asDouble();
        double low = mean - WIDEN * (mean - jdk21.get("carriers held low").asDouble());
        double high = mean + WIDEN * (jdk21.get("carriers held high").asDouble() - mean);
        double msPerCarrier = jdk21.get("held").asDouble()
                / mean; // the ms a request one carrier held at the recorded load stands for
        assertThat(truth)
                .as(
                        "ms a request held at the monitor as the service measured it, against advise's %.2f [%.2f,"
                                + " %.2f] (99.9%%)",
                        jdk21.get("held").asDouble(), low * msPerCarrier, high * msPerCarrier)
                .isBetween(low * msPerCarrier, high * msPerCarrier);
        double predicted = jdk21.get("ceiling").asDouble();
        double predictedHigh = low > 0 ? predicted * mean / low : Double.POSITIVE_INFINITY;
        double predictedLow = predicted * mean / high;
        assertThat(jdk24.get("at the recorded load").asText())
                .satisfiesAnyOf(
                        s -> assertThat(s).isEqualTo("nothing found that holds a carrier"),
                        s -> assertThat(jdk24.get("ceiling").asDouble()).isGreaterThan(10 * 100));
        assertThat(tables.get(1).get("notes").toString())
                .contains("bottom line: switch on JDK 24 or later")
                .as("the looks stopped no thread but the one walked")
                .contains("no thread stopped but the one whose stack was walked");
        // what the recording shows virtual threads could take away: its own context switches, a second and a request
        JsonNode savings = tables.get(2);
        assertThat(savings.get("name").asText()).isEqualTo("advise-savings");
        assertThat(savings.get("rows").toString())
                .contains(Metric.CONTEXT_SWITCHES_PER_SECOND.name())
                .contains(Metric.PLATFORM_THREADS_STARTED.name());

        // then on virtual threads, offered more than the prediction: what it serves is its ceiling
        int vport = freePort();
        Process virtual = serve(java, "virtual", vport);
        double served;
        double others;
        try (OpenLoop load =
                new OpenLoop(Target.of("http://127.0.0.1:" + vport + "/legacy"), 1.6 * predicted, 256, 10_000)) {
            load.window(3_000_000_000L); // warm-up
            var before = MachineCpu.readFor(virtual.pid());
            OpenLoop.Window w = load.window(6_000_000_000L);
            others = MachineCpu.between(before, MachineCpu.readFor(virtual.pid()))
                    .others();
            served = w.ok() / (w.nanos() / 1e9);
        } finally {
            virtual.destroy();
            virtual.waitFor();
        }
        // a ceiling: what the carriers could serve, so never far below what they did; and near it unless other
        // processes took the CPU
        // the carriers needed (beside other work a study leaves such a JVM out, at the same share of the CPU)
        assertThat(predictedHigh)
                .as(
                        "predicted %.0f/s [%.0f, %.0f] from the platform recording against %.0f/s served on virtual"
                                + " threads",
                        predicted, predictedLow, predictedHigh, served)
                .isGreaterThan(0.8 * served);
        if (!(others > MachineCpu.DISTURBED)) {
            assertThat(predictedLow)
                    .as(
                            "predicted %.0f/s [%.0f, %.0f] against %.0f/s served, other processes taking %.0f%% of the"
                                    + " CPU",
                            predicted, predictedLow, predictedHigh, served, 100 * others)
                    .isLessThan(1.2 * served);
        }
    }

    private Process serve(String java, String kind, int port, String... jvmOptions) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                DemoService.class.getName(),
                "--port",
                Integer.toString(port),
                "--threads",
                kind));
        Path log = dir.resolve("service-" + kind + ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Target t = Target.of("http://127.0.0.1:" + port + "/");
        for (int i = 0; i < 600 && !t.answers(1000); i++) {
            assertThat(p.isAlive()).as(Files.readString(log)).isTrue();
            Thread.sleep(100);
        }
        return p;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
