package dev.loomscope.analyzer.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.compare.BottomLine;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.analyzer.views.LibraryHazard;
import dev.loomscope.load.ClientRow;
import dev.loomscope.load.Slo;
import dev.loomscope.load.stats.LatencyHistograms;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A service study's one bottom line, from each URL's and rate's verdicts as the comparer makes them over the load
 * client's windows (their latency histograms, as the client writes them), and from each URL's capacity: which kind,
 * why, and what to do next.
 */
class StudyBottomLineTest {
    private static final long SECOND = 1_000_000_000L;
    private static final String W = "GET /owners/1 at 400/s";

    @Test
    void stallsOnlyVirtualThreadsSufferAreLaidAtTheHazardTheServiceLoadedAndItsFix() {
        // five JVMs a kind at 400/s: both answer in 5 ms, but 6 of virtual threads' 400 requests a window wait 1.5 s
        // (the pool's spin)
        StudyBottomLine.Section s = section(5, 6, 5);
        assertThat(s.stallVerdict()).isEqualTo(Verdict.WORSE);
        var hazards = LibraryHazard.of(Map.of("HikariCP", "7.0.2"));
        StudyBottomLine.Said said = StudyBottomLine.of(List.of(s), List.of(), hazards, null, 21, 5, 4);
        assertThat(said.choice()).isEqualTo(StudyBottomLine.Choice.PLATFORM);
        assertThat(said.text())
                .startsWith("=> the study: stay on platform threads: ")
                .contains(W + ": latency p99 ")
                .contains("x platform's, stalls (requests a second or more late) 15.0 a 1,000 requests, none on"
                        + " platform")
                .contains("; because the stalls, most likely: HikariCP 7.0.2: ConcurrentBag.requite spins in"
                        + " Thread.yield")
                .endsWith("; next: take HikariCP 7.1.0 or later, then study again");
        // without a known hazard, the next step is to read what else moved
        assertThat(StudyBottomLine.of(List.of(s), List.of(), List.of(), null, 21, 5, 4)
                        .next())
                .contains("read " + W + "'s verdict lines");
    }

    @Test
    void stallsWhoseDumpsShowTheCarriersHeldNameTheFrameAndTheHazardOnlyWhereItIsThatFrame() {
        StudyBottomLine.Section s = section(5, 6, 5);
        var hazards = LibraryHazard.of(Map.of("HikariCP", "7.0.2"));
        StallHolds spin =
                new StallHolds(4, 3, "Thread.yield via ConcurrentBag.requite (ConcurrentBag.java:199)", 40, 42);
        StudyBottomLine.Said said = StudyBottomLine.of(List.of(s), List.of(), hazards, spin, 21, 5, 4);
        assertThat(said.choice()).isEqualTo(StudyBottomLine.Choice.PLATFORM);
        assertThat(said.text())
                .contains("; because the stalls: the carriers held at Thread.yield via ConcurrentBag.requite"
                        + " (ConcurrentBag.java:199) (40 of 42 virtual threads holding one, in 3 of 4 stalls the agent"
                        + " dumped), HikariCP 7.0.2: ConcurrentBag.requite spins in Thread.yield")
                .endsWith("; next: take HikariCP 7.1.0 or later, then study again");
        // held elsewhere: the measured frame, and no hazard laid at it
        StallHolds elsewhere = new StallHolds(2, 2, "Object.wait via Pool.take (Pool.java:40)", 6, 6);
        StudyBottomLine.Said other = StudyBottomLine.of(List.of(s), List.of(), hazards, elsewhere, 21, 5, 4);
        assertThat(other.text())
                .contains("because the stalls: the carriers held at Object.wait via Pool.take (Pool.java:40) (6 of 6")
                .doesNotContain("HikariCP")
                .endsWith("next: read the stall dumps beside the virtual JVMs' recordings with 'loomscope threads', and"
                        + " move what waits at Object.wait via Pool.take (Pool.java:40) off the carrier");
    }

    @Test
    void aPinCeilingBelowTheRateIsTheCauseAndJdk24IsOfferedOnlyBeforeIt() {
        // virtual threads' p99 far worse, and their pins hold 2 carriers 10 ms a request: at most 200/s of 400/s
        StudyBottomLine.Section worse = section(5, 0, 300);
        var ceiling = new ServiceCause.Ceiling(1, 10, 5, 2, "the scheduler's default", 200, 400);
        StudyBottomLine.Section pinned = new StudyBottomLine.Section(
                W,
                BottomLine.of(W, results(5, 0, 300), AppStudy.HEADLINES, "virtual", "request", ceiling),
                null,
                worse.stalls(),
                ceiling);
        StudyBottomLine.Said on21 = StudyBottomLine.of(List.of(pinned), List.of(), List.of(), null, 21, 5, 4);
        assertThat(on21.text())
                .contains(W + ": latency p99 60.0x platform's")
                .contains("because a request: 10.0 ms pinned (2 carriers serve at most 200/s of 400/s)")
                .contains("'loomscope pinning'")
                .endsWith("or run on JDK 24+, where synchronized no longer pins (JEP 491)");
        assertThat(StudyBottomLine.of(List.of(pinned), List.of(), List.of(), null, 25, 5, 4)
                        .next())
                .doesNotContain("JDK 24");
    }

    @Test
    void betterNowhereWorseSaysSwitchAndFixAKnownHazardFirst() {
        // virtual threads answer in 2 ms where platform threads take 5
        StudyBottomLine.Section better = section(5, 0, 2);
        StudyBottomLine.Said said = StudyBottomLine.of(
                List.of(better), List.of(), LibraryHazard.of(Map.of("HikariCP", "7.0.2")), null, 21, 5, 4);
        assertThat(said.choice()).isEqualTo(StudyBottomLine.Choice.VIRTUAL);
        assertThat(said.text())
                .contains(W + ": latency p99 0.4x platform's")
                .endsWith("next: take HikariCP 7.1.0 or later, then switch, and keep 'loomscope watch PID' open on the"
                        + " service");
    }

    @Test
    void theCapacityDecidesOnlyWithEnoughJvmsAndADrainGivesNoBottomLine() {
        Slo slo = Slo.parse("p99=100ms");
        List<Double> rates = List.of(400.0, 800.0, 1000.0);
        Capacity.Url same = url(
                slo, rates, new double[] {1000, 1000, 1000, 1000, 1000}, new double[] {1000, 1000, 1000, 1000, 1000});
        StudyBottomLine.Said either =
                StudyBottomLine.of(List.of(section(5, 0, 5)), List.of(same), List.of(), null, 21, 5, 4);
        assertThat(either.choice()).as(either.text()).isEqualTo(StudyBottomLine.Choice.EITHER);
        assertThat(either.text())
                .contains("capacity at p99 <= 100 ms on GET /owners/1: virtual 1000/s, platform 1000/s")
                .endsWith("next: choose on other grounds");
        Capacity.Url one = url(slo, rates, new double[] {800}, new double[] {1000});
        StudyBottomLine.Said undecided = StudyBottomLine.of(List.of(), List.of(one), List.of(), null, 21, 1, 4);
        assertThat(undecided.choice()).isEqualTo(StudyBottomLine.Choice.UNDECIDED);
        assertThat(undecided.text())
                .contains("virtual 800/s, platform 1000/s (-20%, too few JVMs)")
                .contains("next: run 4 or more JVMs a kind");
        StudyBottomLine.Said drained = StudyBottomLine.of(
                List.of(new StudyBottomLine.Section(
                        W, null, "virtual: 4 of 4 JVMs answered above the offered rate", null, null)),
                List.of(),
                List.of(),
                null,
                21,
                4,
                4);
        assertThat(drained.text())
                .startsWith("=> the study: no bottom line: " + W + ": virtual: 4 of 4")
                .endsWith("next: give a longer --max-warmup, or rates the JVMs keep up with");
    }

    /** The capacity's line lists a few rates given, and tells a search's many steps by their count and range. */
    @Test
    void aCapacityLineListsFewRatesAndTellsManyByTheirRange() {
        Slo slo = Slo.parse("p99=100ms");
        assertThat(Capacity.line(url(slo, List.of(150.0, 300.0), new double[] {150}, new double[] {300})))
                .startsWith("GET /owners/1: capacity at p99 <= 100 ms with under 1% errors and no request left late, of"
                        + " the rates 150/s, 300/s: platform 300/s");
        List<Double> searched = List.of(300.0, 400.0, 500.0, 600.0, 625.0, 700.0, 750.0, 1600.0);
        assertThat(Capacity.line(url(slo, searched, new double[] {952, 1070}, new double[] {1220, 975})))
                .startsWith("GET /owners/1: capacity at p99 <= 100 ms with under 1% errors and no request left late, of"
                        + " 8 rates the JVMs tried, 300/s to 1600/s: platform ");
    }

    private static Capacity.Url url(Slo slo, List<Double> rates, double[] virtual, double[] platform) {
        Comparison c = Comparison.of(virtual, platform);
        return new Capacity.Url(
                "GET /owners/1",
                slo,
                rates,
                Map.of("platform", platform, "virtual", virtual),
                c,
                Verdict.Rule.DEFAULT.judge(c, false));
    }

    /**
     * {@code jvms} JVMs a kind at 400/s: platform answers every request in 5 ms, virtual in {@code virtualMs} and holds
     * {@code stalls} a window 1.5 s.
     */
    private static StudyBottomLine.Section section(int jvms, int stalls, double virtualMs) {
        List<MetricResult> results = results(jvms, stalls, virtualMs);
        MetricResult stallResult = results.stream()
                .filter(r -> r.metric() == Metric.STALLS)
                .findFirst()
                .orElseThrow();
        return new StudyBottomLine.Section(
                W, BottomLine.of(W, results, AppStudy.HEADLINES, "virtual", "request", null), null, stallResult, null);
    }

    private static List<MetricResult> results(int jvms, int stalls, double virtualMs) {
        Map<String, List<RecordingFacts>> groups = new TreeMap<>();
        for (int fork = 1; fork <= jvms; fork++) {
            groups.computeIfAbsent("platform", k -> new ArrayList<>()).add(jvm("platform", fork, 0, 5));
            groups.computeIfAbsent("virtual", k -> new ArrayList<>()).add(jvm("virtual", fork, stalls, virtualMs));
        }
        return Comparer.compare(
                groups, List.of(Metric.LATENCY_P99, Metric.THROUGHPUT, Metric.STALLS), "platform", false);
    }

    private static RecordingFacts jvm(String kind, int fork, int stalls, double ms) {
        List<WorkloadRun> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Histogram h = new Histogram(LatencyHistograms.HIGHEST_MICROS, 3);
            long micros = (long) (ms
                    * 1000
                    * (1 + 0.01 * ((fork + i) % 3))); // a JVM's windows differ a little, and JVMs from each other
            h.recordValueWithCount(micros, 400 - stalls);
            if (stalls > 0) {
                h.recordValueWithCount(1_500_000, stalls);
            }
            long start = (fork * 100L + i) * SECOND;
            ClientRow client = new ClientRow(
                    Double.NaN,
                    400,
                    0,
                    "loomscope load",
                    0,
                    LatencyHistograms.encode(h),
                    null,
                    null,
                    0,
                    "GET /owners/1",
                    400,
                    -1);
            runs.add(new WorkloadRun(
                    W,
                    kind,
                    i,
                    false,
                    400,
                    "requests",
                    null,
                    1000,
                    h.getValueAtPercentile(50) / 1e3,
                    h.getValueAtPercentile(99) / 1e3,
                    start,
                    start + SECOND,
                    0,
                    0,
                    0.3,
                    0,
                    0,
                    -1,
                    client));
        }
        RecordingFacts f = RecordingFacts.ofRuns(RecordingSource.file(Path.of(kind + fork + ".jfr")), runs);
        f.summary.hardwareThreads = 2;
        return f;
    }
}
