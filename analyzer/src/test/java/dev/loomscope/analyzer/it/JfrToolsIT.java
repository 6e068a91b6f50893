package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.ProfileFile;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;

/**
 * The agent's files read in the JDK's own {@code jfr} tool and in JMC's parser with the counts and span loomscope
 * gives: no phantom data loss, no event counted as another, no event dropped.
 */
class JfrToolsIT {
    private static final Pattern ROW = Pattern.compile("^ (\\S+)\\s+(\\d+)\\s+\\d+\\s*$");
    private static final Pattern DURATION = Pattern.compile("Duration: (\\d+) s");

    @TempDir
    Path dir;

    /**
     * {@code jfr summary}'s count per event type (types it lists with 0 left out, and its jdk.Metadata and
     * jdk.Checkpoint rows, which count the file's metadata and constant-pool records, not events), and its duration in
     * seconds.
     */
    static Map<String, Long> jfrSummary(Path recording, long[] durationSeconds) throws Exception {
        Path jfr = Path.of(ChildJvm.javaExecutable()).resolveSibling("jfr");
        ChildJvm.Result r =
                ChildJvm.exec(List.of(jfr.toString(), "summary", recording.toString()), recording.getParent(), 120);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        Map<String, Long> counts = new TreeMap<>();
        for (String line : r.stdout().lines().toList()) {
            Matcher m = ROW.matcher(line);
            if (m.matches()
                    && Long.parseLong(m.group(2)) > 0
                    && !m.group(1).equals("jdk.Metadata")
                    && !m.group(1).equals("jdk.Checkpoint")) {
                counts.put(m.group(1), Long.parseLong(m.group(2)));
            }
            Matcher d = DURATION.matcher(line);
            if (d.find()) {
                durationSeconds[0] = Long.parseLong(d.group(1));
            }
        }
        return counts;
    }

    static Map<String, Long> jmcCounts(Path... files) throws Exception {
        IItemCollection jmc = JfrLoaderToolkit.loadEvents(
                Arrays.stream(files).map(Path::toFile).toList());
        Map<String, Long> counts = new TreeMap<>();
        for (IItemIterable items : jmc) {
            if (items.getItemCount() > 0) {
                counts.merge(
                        items.getType().getIdentifier().replaceFirst("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$", ""),
                        items.getItemCount(),
                        Long::sum);
            }
        }
        return counts;
    }

    @Test
    void theJdksToolAndJmcReadTheAgentsFilesAsLoomscopeDoes() throws Exception {
        Path recording = Fixtures.sleep(dir, "virtual", "flame=off"); // profile=cpu: async-profiler's samples beside it
        Path profile = ProfileFile.of(recording);
        assertThat(profile).isRegularFile();

        long[] duration = new long[1];
        Map<String, Long> jdkEvents = jfrSummary(recording, duration);
        Map<String, Long> samples = jfrSummary(profile, new long[1]);
        assertThat(jdkEvents).doesNotContainKey("jdk.DataLoss").containsKey("loomscope.RunInfo");
        assertThat(samples).doesNotContainKey("jdk.DataLoss").containsKey("jdk.ExecutionSample");
        Map<String, Long> both = new TreeMap<>(jdkEvents);
        samples.forEach((type, n) -> both.merge(type, n, Long::sum));

        ChildJvm.Result cli = Fixtures.cli(dir, "summary", recording.toString(), "--format", "json");
        assertThat(cli.exitCode()).as(cli.stderr()).isZero();
        JsonNode summary = new ObjectMapper().readTree(cli.stdout());
        Map<String, Long> ours = new TreeMap<>();
        for (JsonNode row : AnalyzerIT.table(summary, "event-counts").get("rows")) {
            ours.put(row.get("event type").asText(), row.get("count").asLong());
        }
        assertThat(ours).isEqualTo(both);

        // JMC's parser: the same, but for what it does to every recording, the JDK's own alone too: it keeps
        // no jdk.JavaExceptionThrow, and a type two files define with other fields gets a second name (a UUID after it)
        Map<String, Long> jmcCounts = jmcCounts(recording, profile);
        assertThat(jmcCounts(recording)).doesNotContainKey("jdk.JavaExceptionThrow");
        both.remove("jdk.JavaExceptionThrow");
        assertThat(jmcCounts).isEqualTo(both);

        // the span as the JDK's tool gives it (whole seconds) and as loomscope does, from the chunk headers
        double span = AnalyzerIT.figure(summary, "span").asDouble();
        // jfr's is whole seconds, cut down; each tool takes the chunks' ends its own way: within two seconds whatever
        // the machine did
        assertThat(Math.abs(span - duration[0]))
                .as("loomscope %.2f s, jfr %d s", span, duration[0])
                .isLessThanOrEqualTo(2.0);
    }

    /**
     * CPU is CPU: a JDK recording with settings=profile of threads blocked in socket reads and one thread computing.
     * JFR's native method samples of the readers are not CPU samples: flame --top's top frame and its share are jfr
     * view hot-methods' (within a few points: both count the same jdk.ExecutionSample events, by frame).
     */
    @Test
    void theCpuProfileOfAJdkRecordingIsJfrViewHotMethods() throws Exception {
        Path rec = dir.resolve("blocked.jfr");
        ChildJvm.Result app = ChildJvm.run(
                List.of("-XX:StartFlightRecording:settings=profile,filename=" + rec),
                BlockedIoApp.class.getName(),
                List.of("50", "4"),
                dir,
                120);
        assertThat(app.exitCode()).as(app.stderr()).isZero();
        Path jfr = Path.of(ChildJvm.javaExecutable()).resolveSibling("jfr");
        ChildJvm.Result hot = ChildJvm.exec(
                List.of(jfr.toString(), "view", "--width", "200", "hot-methods", rec.toString()), dir, 120);
        assertThat(hot.exitCode()).as(hot.stderr()).isZero();
        Matcher first =
                Pattern.compile("(?m)^(\\S+)\\s+\\d+\\s+([\\d.]+)%\\s*$").matcher(hot.stdout());
        assertThat(first.find()).as(hot.stdout()).isTrue();
        assertThat(first.group(1)).as(hot.stdout()).endsWith("BlockedIoApp.compute(double)");
        double jdkShare = Double.parseDouble(first.group(2));
        ChildJvm.Result top = Fixtures.cli(dir, "flame", rec.toString(), "--top", "3", "--format", "csv");
        assertThat(top.exitCode()).as(top.stderr()).isZero();
        String row = top.stdout()
                .lines()
                .filter(l -> l.contains("BlockedIoApp.compute"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(top.stdout()));
        assertThat(top.stdout()).doesNotContain("SocketDispatcher.read0"); // the readers wait there: no CPU
        double ours = Double.parseDouble(row.split(",")[1]); // self, as hot-methods counts
        assertThat(ours).as(top.stdout() + "\n" + hot.stdout()).isCloseTo(jdkShare, Offset.offset(5.0));
    }

    /**
     * A carrier's CPU as the JDK's tool reads it: {@code summary}'s "cpu a carrier" is the mean of the
     * jdk.ThreadCPULoad readings (user and system) of the threads in the CarrierThreads group that {@code jfr print}
     * shows, times the machine's hardware threads (jdk.CPUInformation), of a JDK recording of a virtual thread
     * computing for 4 s.
     */
    @Test
    void cpuACarrierIsJfrPrintsThreadCpuLoadOfTheCarriers() throws Exception {
        Path rec = dir.resolve("carriers.jfr");
        ChildJvm.Result app = ChildJvm.run(
                List.of("-XX:StartFlightRecording:jdk.ThreadCPULoad#period=1s,filename=" + rec),
                BlockedIoApp.class.getName(),
                List.of("1", "4", "virtual"),
                dir,
                120);
        assertThat(app.exitCode()).as(app.stderr()).isZero();
        Path jfr = Path.of(ChildJvm.javaExecutable()).resolveSibling("jfr");
        ChildJvm.Result printed = ChildJvm.exec(
                List.of(
                        jfr.toString(),
                        "print",
                        "--json",
                        "--events",
                        JdkEvents.THREAD_CPU_LOAD + "," + JdkEvents.CPU_INFORMATION,
                        rec.toString()),
                dir,
                120);
        assertThat(printed.exitCode()).as(printed.stderr()).isZero();
        double sum = 0;
        int readings = 0;
        long hardwareThreads = 0;
        for (JsonNode e : new ObjectMapper().readTree(printed.stdout()).at("/recording/events")) {
            if (e.get("type").asText().equals(JdkEvents.CPU_INFORMATION)) {
                hardwareThreads = e.at("/values/hwThreads").asLong();
            } else if (e.at("/values/eventThread/group/name").asText().equals("CarrierThreads")) {
                sum += e.at("/values/user").asDouble() + e.at("/values/system").asDouble();
                readings++;
            }
        }
        assertThat(readings).as(printed.stdout()).isPositive();
        assertThat(hardwareThreads).isPositive();
        double jdks = 100 * sum / readings * hardwareThreads;
        ChildJvm.Result summary = Fixtures.cli(dir, "summary", rec.toString(), "--format", "json");
        assertThat(summary.exitCode()).as(summary.stderr()).isZero();
        JsonNode ours = AnalyzerIT.figure(new ObjectMapper().readTree(summary.stdout()), "cpu a carrier");
        assertThat(ours.asDouble()).as("readings %d", readings).isCloseTo(jdks, Offset.offset(0.5));
    }
}
