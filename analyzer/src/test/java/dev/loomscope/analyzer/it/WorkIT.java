package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.HdrHistogram.Histogram;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests as the unit of work of a service loomscope knows nothing of (ServiceApp: no loomscope.WorkloadRun events),
 * named by the agent's work= option (the agent's windows of calls): compare gives its throughput, latency and pins per
 * request with verdicts, and calls its CPU load and peak threads higher or lower, never better or worse; summary and
 * export carry them too.
 */
class WorkIT {
    static final String WORK = "work=" + ServiceApp.class.getName() + "::handle";
    // two seconds and more a JVM: CPU load and thread counts are sampled once a second
    static final int REQUESTS = 12_000;

    @TempDir
    Path dir;

    Path record(String kind, int jvms) throws Exception {
        return record(ChildJvm.javaExecutable(), kind, jvms, REQUESTS, "5");
    }

    /** {@code jvms} runs of ServiceApp on {@code java} under the agent with work=, into {@code dir/<kind>}. */
    Path record(String java, String kind, int jvms, int requests, String waitMs) throws Exception {
        Path out = dir.resolve(kind);
        for (int i = 0; i < jvms; i++) {
            ChildJvm.Result r = ChildJvm.exec(
                    List.of(
                            java,
                            "--enable-native-access=ALL-UNNAMED",
                            "-javaagent:" + Fixtures.AGENT + "=out=" + out + ",label=service,threads=" + kind
                                    + ",profile=off,flame=off,trace-pinned=off,startup=before-main," + WORK,
                            "-cp",
                            System.getProperty("java.class.path"),
                            ServiceApp.class.getName(),
                            kind,
                            Integer.toString(requests),
                            "200",
                            waitMs),
                    dir,
                    120);
            assertThat(r.exitCode()).as(r.stderr()).isZero();
        }
        return out;
    }

    /**
     * JDK 21, where a virtual thread waiting in synchronized code pins its carrier: the agent times the calls as on JDK
     * 25, and compare says the virtual threads served fewer requests a second and pinned on (nearly) every one, with
     * intervals, decided over five JVMs a kind.
     */
    @Test
    void onJdk21TheAgentTimesTheCallsAndThePinsAreJudged() throws Exception {
        String java = Jdk21IT.jdk21();
        Path platform = record(java, "platform", 5, 1500, "2");
        Path virtual = record(java, "virtual", 5, 1500, "2");
        ChildJvm.Result compared =
                Fixtures.cli(dir, "compare", platform.toString(), virtual.toString(), "--format", "json");
        assertThat(compared.exitCode()).as(compared.stderr()).isZero();
        List<String> lines = verdicts(new ObjectMapper().readTree(compared.stdout()));
        // (what a busy machine did is said after the verdict)
        assertThat(lines)
                .anyMatch(
                        l -> l.matches("virtual vs platform: throughput median -\\d+% \\(95% CI -\\d+%\\.\\.-\\d+%\\),"
                                + " p=0\\.0\\d+, n=5/5 JVMs: worse(;.*)?"))
                .anyMatch(l -> l.matches("virtual vs platform: pins per unit mean [01](\\.\\d+)? pins/unit against 0,"
                        + " p=0\\.0\\d+, n=5/5 JVMs: worse.*"));
    }

    static List<String> verdicts(JsonNode compare) {
        List<String> lines = new ArrayList<>();
        for (JsonNode row : AnalyzerIT.table(compare, "verdicts").get("rows")) {
            lines.add(row.get("verdict").asText());
        }
        return lines;
    }

    @Test
    void aServicesRequestsAreItsUnitOfWork() throws Exception {
        Path platform = record("platform", 3);
        Path virtual = record("virtual", 3);
        ObjectMapper json = new ObjectMapper();

        // every call of the handler counted, one per request, in the agent's windows
        Path one;
        try (var files = Files.list(virtual)) {
            one = files.filter(f -> f.toString().endsWith(".jfr"))
                    .sorted()
                    .findFirst()
                    .orElseThrow();
        }
        ChildJvm.Result summary = Fixtures.cli(dir, "summary", one.toString(), "--format", "json");
        assertThat(summary.exitCode()).as(summary.stderr()).isZero();
        JsonNode s = json.readTree(summary.stdout());
        assertThat(AnalyzerIT.figure(s, "throughput").asDouble()).isPositive();
        // the handler's own time is its service time: no client measured a latency here
        assertThat(AnalyzerIT.figure(s, "latency p50").isNull())
                .as("latency p50 without a client")
                .isTrue();
        double p50 = AnalyzerIT.figure(s, "service time p50").asDouble();
        assertThat(p50).isGreaterThanOrEqualTo(5.0); // each request waits 5 ms
        // the JDK's own parser reads the same windows: the calls add up to the requests, and the
        // histograms (HdrHistogram's own decoder) give the same median
        long calls = 0;
        Histogram all = new Histogram(1_000, 3_600_000_000_000L, 2);
        for (RecordedEvent e : RecordingFile.readAllEvents(one)) {
            if (e.getEventType().getName().equals("loomscope.WorkWindow")) {
                calls += e.getLong("calls");
                all.add(Histogram.decodeFromCompressedByteBuffer(
                        ByteBuffer.wrap(Base64.getDecoder().decode(e.getString("durations"))), 0));
            }
        }
        assertThat(calls).isEqualTo(REQUESTS);
        assertThat(p50).isCloseTo(all.getValueAtPercentile(50) / 1e6, Offset.offset(1e-9));
        // and window by window: every call in one window
        long inWindows = 0;
        for (JsonNode row : AnalyzerIT.table(s, "work-over-time").get("rows")) {
            inWindows += row.get("calls").asLong();
        }
        assertThat(inWindows).isEqualTo(REQUESTS);

        ChildJvm.Result compared =
                Fixtures.cli(dir, "compare", platform.toString(), virtual.toString(), "--format", "json");
        assertThat(compared.exitCode()).as(compared.stderr()).isZero();
        List<String> lines = verdicts(json.readTree(compared.stdout()));
        assertThat(lines)
                .anyMatch(l -> l.startsWith("virtual vs platform: throughput median ") && l.contains("n=3/3 JVMs"))
                .anyMatch(l -> l.startsWith("virtual vs platform: service time p99 median "))
                .noneMatch(l -> l.startsWith("virtual vs platform: latency p99 "));
        // a description is not a judgement: more CPU or more threads is neither better nor worse
        // (CPU load needs two of JFR's one-second readings, which a short JVM may not live to give)
        assertThat(lines).filteredOn(l -> l.contains(": peak threads ")).hasSize(1);
        assertThat(lines)
                .filteredOn(l -> l.contains(": cpu load ") || l.contains(": peak threads "))
                .noneMatch(l -> l.endsWith(": better")
                        || l.endsWith(": worse")
                        || l.contains(": better;")
                        || l.contains(": worse;"));

        // the export keeps the calls: compare of it says the same
        Path export = dir.resolve("export");
        ChildJvm.Result exported =
                Fixtures.cli(dir, "export", platform.toString(), virtual.toString(), "--to", export.toString());
        assertThat(exported.exitCode()).as(exported.stderr()).isZero();
        ChildJvm.Result fromExport = Fixtures.cli(dir, "compare", export.toString(), "--format", "json");
        assertThat(fromExport.exitCode()).as(fromExport.stderr()).isZero();
        assertThat(verdicts(json.readTree(fromExport.stdout())))
                .filteredOn(l -> l.contains(": throughput ") || l.contains(": latency "))
                .isEqualTo(lines.stream()
                        .filter(l -> l.contains(": throughput ") || l.contains(": latency "))
                        .toList());
    }
}
