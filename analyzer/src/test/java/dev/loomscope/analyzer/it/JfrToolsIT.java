package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.ProfileFile;
import java.nio.file.Path;
import java.util.ArrayList;
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
    /** A JDK recording ({@code settings}: -XX:StartFlightRecording's, before the file name) of {@code main args}. */
    Path recorded(String name, String settings, Class<?> main, String... args) throws Exception {
        Path rec = dir.resolve(name);
        ChildJvm.Result app = ChildJvm.run(
                List.of("-XX:StartFlightRecording:" + settings + ",filename=" + rec),
                main.getName(),
                List.of(args),
                dir,
                120);
        assertThat(app.exitCode()).as(app.stderr()).isZero();
        return rec;
    }

    /** The JDK's {@code jfr} tool's output, run with {@code args}. */
    String jfr(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(
                List.of(Path.of(ChildJvm.javaExecutable()).resolveSibling("jfr").toString()));
        cmd.addAll(List.of(args));
        ChildJvm.Result r = ChildJvm.exec(cmd, dir, 120);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return r.stdout();
    }

    @Test
    void theCpuProfileOfAJdkRecordingIsJfrViewHotMethods() throws Exception {
        Path rec = recorded("blocked.jfr", "settings=profile", BlockedIoApp.class, "50", "4");
        String hot = jfr("view", "--width", "200", "hot-methods", rec.toString());
        Matcher first =
                Pattern.compile("(?m)^(\\S+)\\s+\\d+\\s+([\\d.]+)%\\s*$").matcher(hot);
        assertThat(first.find()).as(hot).isTrue();
        assertThat(first.group(1)).as(hot).endsWith("BlockedIoApp.compute(double)");
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
        assertThat(ours).as(top.stdout() + "\n" + hot).isCloseTo(jdkShare, Offset.offset(5.0));
    }

    /**
     * A carrier's CPU as the JDK's tool reads it: {@code summary}'s "cpu a carrier" is the mean of the
     * jdk.ThreadCPULoad readings (user and system) of the threads in the CarrierThreads group that {@code jfr print}
     * shows, times the machine's hardware threads (jdk.CPUInformation), of a JDK recording of a virtual thread
     * computing for 4 s.
     */
    @Test
    void cpuACarrierIsJfrPrintsThreadCpuLoadOfTheCarriers() throws Exception {
        Path rec = recorded("carriers.jfr", "jdk.ThreadCPULoad#period=1s", BlockedIoApp.class, "1", "4", "virtual");
        String printed = jfr(
                "print",
                "--json",
                "--events",
                JdkEvents.THREAD_CPU_LOAD + "," + JdkEvents.CPU_INFORMATION,
                rec.toString());
        double sum = 0;
        int readings = 0;
        long hardwareThreads = 0;
        for (JsonNode e : new ObjectMapper().readTree(printed).at("/recording/events")) {
            if (e.get("type").asText().equals(JdkEvents.CPU_INFORMATION)) {
                hardwareThreads = e.at("/values/hwThreads").asLong();
            } else if (e.at("/values/eventThread/group/name").asText().equals("CarrierThreads")) {
                sum += e.at("/values/user").asDouble() + e.at("/values/system").asDouble();
                readings++;
            }
        }
        assertThat(readings).as(printed).isPositive();
        assertThat(hardwareThreads).isPositive();
        double jdks = 100 * sum / readings * hardwareThreads;
        ChildJvm.Result summary = Fixtures.cli(dir, "summary", rec.toString(), "--format", "json");
        assertThat(summary.exitCode()).as(summary.stderr()).isZero();
        JsonNode ours = AnalyzerIT.figure(new ObjectMapper().readTree(summary.stdout()), "cpu a carrier");
        assertThat(ours.asDouble()).as("readings %d", readings).isCloseTo(jdks, Offset.offset(0.5));
    }

    /**
     * Virtual threads spinning on their carriers as the JDK's tool reads them: {@code flame --threads}'s spins table
     * counts the CPU samples of virtual threads ({@code jfr print}'s execution and CPU-time samples of a thread whose
     * {@code virtual} is true) with Thread.yield or Thread.onSpinWait within the top 12 frames, of a JDK recording of
     * virtual threads that yield without end.
     */
    @Test
    void spinsAreJfrPrintsVirtualThreadSamplesInThreadYield() throws Exception {
        Path rec = recorded("spin.jfr", "settings=profile", WatchedApp.class, "spin", "4");
        String printed = jfr(
                "print",
                "--json",
                "--stack-depth",
                "64",
                "--events",
                JdkEvents.EXECUTION_SAMPLE + "," + JdkEvents.CPU_TIME_SAMPLE,
                rec.toString());
        long virtual = 0;
        long spinning = 0;
        for (JsonNode e : new ObjectMapper().readTree(printed).at("/recording/events")) {
            String thread = e.get("type").asText().equals(JdkEvents.EXECUTION_SAMPLE) ? "sampledThread" : "eventThread";
            if (!e.at("/values/" + thread + "/virtual").asBoolean()) {
                continue;
            }
            virtual++;
            JsonNode frames = e.at("/values/stackTrace/frames");
            for (int i = 0; i < Math.min(12, frames.size()); i++) {
                String method = frames.get(i).at("/method/name").asText();
                if (frames.get(i).at("/method/type/name").asText().equals("java/lang/Thread")
                        && (method.startsWith("yield") || method.equals("onSpinWait"))) {
                    spinning++;
                    break;
                }
            }
        }
        assertThat(spinning)
                .as("virtual threads' samples in Thread.yield, of %d", virtual)
                .isPositive();
        ChildJvm.Result top = Fixtures.cli(dir, "flame", rec.toString(), "--threads", "--top", "5", "--format", "json");
        assertThat(top.exitCode()).as(top.stderr()).isZero();
        JsonNode spins = AnalyzerIT.table(new ObjectMapper().readTree(top.stdout()), "spins");
        long ours = 0;
        for (JsonNode row : spins.get("rows")) {
            ours += row.get("samples").asLong();
        }
        assertThat(spins.get("rows").get(0).get("spin at").asText())
                .as(top.stdout())
                .contains("WatchedApp.waitForAConnection");
        assertThat(ours).as(top.stdout()).isEqualTo(spinning);
        double share =
                spins.get("rows").get(0).get("of virtual threads' samples").asDouble();
        assertThat(share).as(top.stdout()).isCloseTo(100.0 * spinning / virtual, Offset.offset(0.05));
    }
}
