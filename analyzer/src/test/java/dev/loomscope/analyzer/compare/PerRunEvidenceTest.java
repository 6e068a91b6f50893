package dev.loomscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.reduce.Timeline;
import dev.loomscope.analyzer.report.HtmlReport;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.analyzer.study.ControlRuns;
import dev.loomscope.analyzer.study.RecordingCost;
import dev.loomscope.analyzer.study.RunsPerJvm;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-run values from time windows, the steady-state check, and the recording's measured cost. */
class PerRunEvidenceTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aTimelineAnswersWhatFellInsideAWindowInWhateverOrderItWasFilled() {
        Timeline t = new Timeline();
        for (long s : new long[] {5, 1, 3, 9, 7}) {
            t.add(Instant.ofEpochSecond(s), s * 10);
        }
        assertThat(t.between(3 * SECOND, 8 * SECOND).toArray()).containsExactly(30, 50, 70);
        assertThat(t.between(10 * SECOND, 20 * SECOND).count()).isZero();
        // a level (the heap after a GC) holds until the next one: the one set before the window counts
        assertThat(t.levelsBetween(4 * SECOND, 6 * SECOND).toArray()).containsExactly(30, 50);
        assertThat(t.levelsBetween(10 * SECOND, 20 * SECOND).toArray()).containsExactly(90);
        assertThat(t.levelsBetween(0, SECOND / 2).count()).isZero();
    }

    @Test
    void aGroupWhoseRunsStillGetBetterIsNotSteadyAndTheVerdictSaysSo() {
        // two JVMs each, five runs: the virtual JVMs' throughput still rises 8% a run, the platform ones' is flat
        Map<String, List<RecordingFacts>> groups = Map.of(
                "platform", List.of(jvm("platform", 1, 0), jvm("platform", 2, 0)),
                "virtual", List.of(jvm("virtual", 1, 0.08), jvm("virtual", 2, 0.08)));
        MetricResult throughput = Comparer.compare(new TreeMap<>(groups), List.of(Metric.THROUGHPUT), "platform", false)
                .get(0);
        assertThat(throughput.notSteady("platform")).isNull();
        assertThat(throughput.notSteady("virtual").warmingUp()).isTrue();
        assertThat(throughput.notSteady("virtual").words(Words.WORKLOAD))
                .startsWith("still warming up: throughput +")
                .containsPattern("% per run \\(p(<0\\.001|=0\\.0[0-4]\\d)\\)$");
        assertThat(Comparer.verdict(throughput, "virtual"))
                .contains("n=2/2 JVMs x 5 runs: too few JVMs")
                .contains("; not steady: virtual still warming up: throughput")
                .endsWith("(try a larger --warmup)");
        // a service's runs are the load client's windows, its warm-up set by --min-warmup
        assertThat(Comparer.verdict(throughput, "virtual", Words.SERVICE))
                .contains("n=2/2 JVMs x 5 windows: too few JVMs")
                .containsPattern("throughput \\+[\\d.]+% per window \\(p")
                .doesNotContain("run")
                .endsWith("(try a larger --min-warmup)");
        // run time falls as throughput rises: warming up too, not drifting
        MetricResult runTime = Comparer.compare(new TreeMap<>(groups), List.of(Metric.RUN_TIME), "platform", false)
                .get(0);
        assertThat(runTime.notSteady("virtual").words(Words.WORKLOAD)).startsWith("still warming up: run time -");
    }

    @Test
    void theReportsListOfMoreVerdictsLeavesOutWhatTheTerminalPrintedInItsOwnWords(@TempDir Path dir) throws Exception {
        Map<String, List<RecordingFacts>> groups = new TreeMap<>(Map.of(
                "platform", List.of(jvm("platform", 1, 0), jvm("platform", 2, 0)),
                "virtual", List.of(jvm("virtual", 1, 0.08), jvm("virtual", 2, 0.08))));
        List<MetricResult> results = Comparer.compare(groups, List.of(Metric.THROUGHPUT), "platform", false);
        // the terminal printed the verdict in study --app's words (windows, --min-warmup), and not the spread line
        List<String> printed = CompareView.verdictsOnly(results, Words.SERVICE);
        assertThat(printed).singleElement().asString().endsWith("(try a larger --min-warmup)");
        Path index = HtmlReport.write(
                dir, groups, results, HtmlReport.Extras.NONE.withVerdicts(printed, List.of(), Words.SERVICE));
        String html = Files.readString(index);
        String more = html.substring(
                html.indexOf("More verdicts ("), html.indexOf("</details>", html.indexOf("More verdicts (")));
        assertThat(more)
                .startsWith("More verdicts (1)")
                .contains("throughput spread")
                .contains("JVMs x 5 windows")
                .doesNotContain("throughput median");
    }

    @Test
    void theRecordingsCostIsTheRecordedThroughputOverTheControls() {
        Map<String, List<RecordingFacts>> recorded =
                Map.of("platform", List.of(jvm("platform", 1, 0), jvm("platform", 2, 0)));
        List<RecordingFacts> faster = new ArrayList<>();
        for (int fork = 1; fork <= 2; fork++) {
            List<WorkloadRun> runs = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                runs.add(run("platform", fork, i, 900)); // 900 ms a run without the recording, 1,000 ms with it
            }
            faster.add(RecordingFacts.ofRuns(RecordingSource.file(Path.of("c" + fork + ".csv")), runs));
        }
        var cost = RecordingCost.of(recorded, Map.of("platform", faster)).get("platform");
        // recorded runs take 1,000 ms (+-3), the controls' 900 ms: the recording keeps 0.90 of the throughput
        assertThat(cost.ratio()).isCloseTo(0.9, Offset.offset(0.003));
        assertThat(cost.ratioCiLow()).isLessThanOrEqualTo(cost.ratio());
        // two JVMs a side: the figure, and that it is too few JVMs to trust its interval
        assertThat(RecordingCost.line(recorded, Map.of("platform", faster), Verdict.Rule.DEFAULT))
                .matches("recording cost \\(measured\\): platform 0\\.90 \\[0\\.\\d\\d, 0\\.\\d\\d\\] \\(too few JVMs"
                        + " for an interval to trust\\) \\(throughput.*n=2/2 JVMs.*");
        // the study's --alpha decides it: two against two can reach 0.4 (2 / C(4, 2) = 0.33)
        assertThat(RecordingCost.line(recorded, Map.of("platform", faster), new Verdict.Rule(0.4, 0.05)))
                .doesNotContain("too few JVMs");
        // a recording cannot make a program faster: controls slower than the recorded JVMs by more than their spread is
        // noise, said so
        List<RecordingFacts> slower = new ArrayList<>();
        for (int fork = 1; fork <= 5; fork++) {
            List<WorkloadRun> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                runs.add(run("platform", fork, i, 1300 + fork));
            }
            slower.add(RecordingFacts.ofRuns(RecordingSource.file(Path.of("s" + fork + ".csv")), runs));
        }
        List<RecordingFacts> fiveRecorded = new ArrayList<>();
        for (int fork = 1; fork <= 5; fork++) {
            fiveRecorded.add(jvm("platform", fork, 0));
        }
        assertThat(RecordingCost.line(
                        Map.of("platform", fiveRecorded), Map.of("platform", slower), Verdict.Rule.DEFAULT))
                .startsWith("recording cost (measured): platform not measured: the recorded JVMs ran faster than those"
                        + " without a recording")
                .contains("which a recording cannot cause")
                .doesNotContain("1.3");
        assertThat(RecordingCost.line(recorded, Map.of(), Verdict.Rule.DEFAULT)).isNull();
    }

    @Test
    void aJvmWhoseRunsOtherProcessesSharedIsDisturbedAndTheVerdictSaysSo() {
        List<RecordingFacts> busy = new ArrayList<>();
        List<RecordingFacts> quiet = new ArrayList<>();
        for (int fork = 1; fork <= 5; fork++) {
            List<WorkloadRun> b = new ArrayList<>();
            List<WorkloadRun> q = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                WorkloadRun r = run("virtual", fork, i, 500 + fork);
                // the first two virtual JVMs shared the machine: others took 30-45% of the CPU, steal 5%
                double others = fork <= 2 ? 0.30 + 0.05 * i : 0.02;
                b.add(new WorkloadRun(
                        r.workload(),
                        r.threadKind(),
                        r.runIndex(),
                        false,
                        r.units(),
                        r.unit(),
                        null,
                        r.millis(),
                        Double.NaN,
                        Double.NaN,
                        r.startNanos(),
                        r.endNanos(),
                        10,
                        1,
                        0.4,
                        others,
                        0.05,
                        -1));
                q.add(run("platform", fork, i, 1000 + fork));
            }
            busy.add(RecordingFacts.ofRuns(RecordingSource.file(Path.of("v" + fork + ".jfr")), b));
            quiet.add(RecordingFacts.ofRuns(RecordingSource.file(Path.of("p" + fork + ".jfr")), q));
        }
        assertThat(Noise.busyElsewhere(busy.get(0)))
                .isCloseTo(0.40, Offset.offset(1e-9)); // median run 0.35 + steal 0.05
        assertThat(Noise.busyElsewhere(busy.get(4))).isCloseTo(0.07, Offset.offset(1e-9));
        assertThat(Noise.busyElsewhere(quiet.get(0))).isNaN(); // not recorded: not known, not zero
        Noise n = Noise.of(busy);
        assertThat(n.disturbed()).isEqualTo(2);
        assertThat(n.known()).isEqualTo(5);
        MetricResult runTime = Comparer.compare(
                        new TreeMap<>(Map.of("platform", quiet, "virtual", busy)),
                        List.of(Metric.RUN_TIME),
                        "platform",
                        false)
                .get(0);
        assertThat(Comparer.verdict(runTime, "virtual"))
                .contains(": better; busy machine: other processes took up to 40% of the CPU in 2 of 10 JVMs, which may"
                        + " explain a difference");
    }

    @Test
    void theRunsPerJvmAdvisedWeighWhatAJvmCostsAgainstWhereTheVarianceLies() {
        // five JVMs whose runs of 1,000 ms wiggle by 3 ms within a JVM while the JVMs differ by 50 ms: more runs per
        // JVM buy little
        List<RecordingFacts> jvms = new ArrayList<>();
        Map<Path, Double> seconds = new HashMap<>();
        for (int fork = 1; fork <= 5; fork++) {
            List<WorkloadRun> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                runs.add(run("platform", fork, i, 1000 + 50 * fork + (i % 2 == 0 ? 3 : -3)));
            }
            RecordingFacts f = RecordingFacts.ofRuns(RecordingSource.file(Path.of("p" + fork + ".jfr")), runs);
            jvms.add(f);
            seconds.put(
                    f.source.name().toAbsolutePath().normalize(),
                    (3 * (1000 + 50 * fork) + 3) / 1e3 + 4); // 4 s beyond its three runs
        }
        String line = RunsPerJvm.line(Map.of("platform", jvms), seconds, "3 runs");
        assertThat(line)
                .startsWith("runs per JVM for the most precision per second (Kalibera & Jones, from this study's run"
                        + " times): platform 1 (run time's variance 100% between JVMs; a JVM costs 4.0 s beyond its"
                        + " runs, a run 1.15 s); this study ran 3 runs (--runs; with a few JVMs");
        assertThat(RunsPerJvm.line(Map.of("platform", jvms), Map.of(), "3 runs"))
                .isNull();
    }

    @Test
    void aControlResultsFileThatIsNotOneIsOneLineNamingFileAndLine(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.csv"), "");
        assertThatThrownBy(() -> ControlRuns.read(empty))
                .isInstanceOf(BadDataException.class)
                .hasMessageContaining("empty.csv: empty");
        Path noColumn = Files.writeString(dir.resolve("a.csv"), "workload,threadKind\nsleep,virtual\n");
        assertThatThrownBy(() -> ControlRuns.read(noColumn))
                .isInstanceOf(BadDataException.class)
                .hasMessageContaining("a.csv: line 1: no column 'startEpochNanos'");
        String header = String.join(
                ",",
                List.of(
                        "workload",
                        "threadKind",
                        "runIndex",
                        "warmup",
                        "units",
                        "unit",
                        "startEpochNanos",
                        "nanos",
                        "p50LatencyMs",
                        "p99LatencyMs",
                        "voluntaryContextSwitches",
                        "involuntaryContextSwitches"));
        Path short_ = Files.writeString(dir.resolve("b.csv"), header + "\nsleep,virtual,0,false\n");
        assertThatThrownBy(() -> ControlRuns.read(short_))
                .isInstanceOf(BadDataException.class)
                .hasMessageContaining("b.csv: line 2: 4 values, the header names 12");
        Path notANumber =
                Files.writeString(dir.resolve("c.csv"), header + "\nsleep,virtual,0,false,ten,tasks,1,2,NaN,NaN,3,4\n");
        assertThatThrownBy(() -> ControlRuns.read(notANumber))
                .isInstanceOf(BadDataException.class)
                .hasMessageContaining("c.csv: line 2: not a number");
        Path good = Files.writeString(
                dir.resolve("d.csv"), header + "\nsleep,virtual,0,false,10,tasks,1000,2000000,NaN,NaN,3,4\n");
        WorkloadRun r = ControlRuns.read(good).get(0);
        assertThat(r.millis()).isEqualTo(2.0);
        assertThat(r.endNanos()).isEqualTo(2_001_000L);
        assertThat(r.contextSwitches()).isEqualTo(7L);
    }

    /** A JVM's five measured runs of 1,000 ms at first, each {@code trend} faster than the one before. */
    private static RecordingFacts jvm(String kind, int fork, double trend) {
        List<WorkloadRun> runs = new ArrayList<>();
        double wiggle = fork == 1 ? 1 : -1;
        for (int i = 0; i < 5; i++) {
            runs.add(run(kind, fork, i, 1000 / Math.pow(1 + trend, i) + wiggle * (i % 2 == 0 ? 3 : -3)));
        }
        return RecordingFacts.ofRuns(RecordingSource.file(Path.of(kind + fork + ".jfr")), runs);
    }

    private static WorkloadRun run(String kind, int fork, int index, double millis) {
        long start = (fork * 100L + index * 2L) * SECOND;
        return new WorkloadRun(
                "w",
                kind,
                index,
                false,
                1000,
                "units",
                null,
                millis,
                Double.NaN,
                Double.NaN,
                start,
                start + (long) (millis * 1e6),
                10,
                1,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                -1);
    }
}
