package dev.loomscope.analyzer.views;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.cli.Main;
import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.reduce.CannedEvent;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The views on canned reductions: a 10-second recording with two GC pauses and two context-switch samples. */
class ViewsTest {
    static final Instant T0 = Instant.parse("2026-11-23T12:00:00Z");

    static RecordingFacts facts() {
        RecordingFacts f = RecordingFacts.empty(RecordingSource.file(Path.of("/canned/app.jfr")), false);
        f.summary.span(RecordingSpan.of(
                T0.toEpochMilli() * 1_000_000, T0.plusSeconds(10).toEpochMilli() * 1_000_000));
        f.dispatch(new CannedEvent(
                "jdk.GarbageCollection",
                T0.plusSeconds(1),
                Map.of("name", "G1New", "cause", "G1 Evacuation Pause", "sumOfPauses", Duration.ofMillis(4))));
        f.dispatch(new CannedEvent(
                "jdk.GarbageCollection",
                T0.plusSeconds(2),
                Map.of("name", "G1New", "cause", "G1 Evacuation Pause", "sumOfPauses", Duration.ofMillis(6))));
        f.dispatch(new CannedEvent(
                "loomscope.ContextSwitches",
                T0.plusSeconds(1),
                Map.of("voluntary", 300L, "involuntary", 100L, "source", "getrusage")));
        f.dispatch(new CannedEvent(
                "loomscope.ContextSwitches",
                T0.plusSeconds(2),
                Map.of("voluntary", 700L, "involuntary", 100L, "source", "getrusage")));
        f.dispatch(new CannedEvent("jdk.ThreadContextSwitchRate", T0.plusSeconds(1), Map.of("switchRate", 400.0)));
        return f;
    }

    @Test
    void theSummarySaysWhichRunsItsFiguresCoverAndThePinsThePerUnitFiguresLeaveOut() {
        RecordingFacts f = facts();
        long t0 = T0.toEpochMilli() * 1_000_000;
        // a warm-up run at 1-2 s with a 165 ms pin, a measured run at 3-4 s without one
        f.runs.addAll(List.of(
                new RunsReducer.WorkloadRun(
                        "w",
                        "virtual",
                        0,
                        true,
                        100,
                        "units",
                        null,
                        1000,
                        1,
                        2,
                        t0 + 1_000_000_000L,
                        t0 + 2_000_000_000L,
                        0,
                        0,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        -1),
                new RunsReducer.WorkloadRun(
                        "w",
                        "virtual",
                        1,
                        false,
                        100,
                        "units",
                        null,
                        1000,
                        1,
                        2,
                        t0 + 3_000_000_000L,
                        t0 + 4_000_000_000L,
                        0,
                        0,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        -1)));
        f.dispatch(new CannedEvent("jdk.VirtualThreadPinned", T0.plusMillis(1500), Duration.ofMillis(165), Map.of()));
        f.summary.counted(Map.of("jdk.VirtualThreadPinned", 1L)); // as the reader counts every event
        Table summary = SummaryView.figures(f);
        assertThat(figure(summary, "pinned count")).isEqualTo(1L);
        assertThat(figure(summary, "pins per unit")).isEqualTo(0.0);
        assertThat(summary.notes())
                .contains(
                        "throughput, latency and the per-unit figures: the 1 measured run (1 warm-up left out); counts"
                                + " and totals (pinned count and time, gc count and pauses): the whole recording; 1 of"
                                + " its 1 pins fell outside the measured runs (warm-up, start-up, between runs): in the"
                                + " counts, not in pins per unit");
        assertThat(SummaryView.runsCovered(facts())).isNull();
    }

    static Object figure(Table summary, String name) {
        return summary.rows().stream()
                .filter(r -> r[0].equals(name))
                .findFirst()
                .orElseThrow()[1];
    }

    @Test
    void theSummaryFiguresAreTheMetricsValuesForTheWholeRecording() {
        RecordingFacts f = facts();
        Table summary = Views.named("summary").of(List.of(f), 8).stream()
                .filter(t -> t.name().equals("summary"))
                .findFirst()
                .orElseThrow();
        assertThat(summary.rows())
                .extracting(r -> r[0])
                .containsExactlyElementsOf(
                        Metric.SUMMARY.stream().map(Metric::name).toList());
        assertThat(figure(summary, "span")).isEqualTo(10.0);
        assertThat(figure(summary, "gc count")).isEqualTo(2L); // a count is a whole number
        assertThat(figure(summary, "gc pause total")).isEqualTo(10.0);
        assertThat(figure(summary, "gc pause max")).isEqualTo(6.0);
        assertThat(figure(summary, "voluntary context switches per second")).isEqualTo(100.0);
        assertThat(figure(summary, "context switches per second")).isEqualTo(120.0);
        assertThat(figure(summary, "machine context switches per second")).isEqualTo(400.0);
        assertThat(figure(summary, "virtual threads started")).isNull(); // not recorded: no value, not a zero
    }

    @Test
    void otherViewsShowTheSameFiguresAsTheSummary() {
        RecordingFacts f = facts();
        Table ctxsw = Views.named("ctxsw").of(List.of(f), 8).get(0);
        assertThat(ctxsw.rows().get(0)).containsExactly("app", 100.0, 20.0, 120.0, 400.0, 30.0, "getrusage");
        Table gc = Views.named("gc").of(List.of(f), 8).get(0);
        assertThat(Arrays.copyOf(gc.rows().get(0), 4)).containsExactly("app", "G1New", "G1 Evacuation Pause", 2L);
        assertThat(gc.rows().get(0)[9]).isEqualTo(0.1); // 10 ms of 10 s in pauses
    }

    @Test
    void theReportShowsTheViewsWithASectionAndOnlyTheirReportTables() {
        assertThat(Views.ALL.stream().filter(v -> v.section() != null).map(Views.View::name))
                .containsExactly("pinning", "gc", "heap", "ctxsw", "advise");
        assertThat(Views.named("ctxsw").forReport(List.of(facts())))
                .extracting(Table::name)
                .containsExactly("ctxsw"); // not the series
    }

    @Test
    void eachViewCommandSaysWhatTheRegistrySays() {
        for (Views.View v : Views.ALL) {
            StringWriter out = new StringWriter();
            Main.run(
                    new String[] {v.name(), "--help"},
                    new PrintWriter(out, true),
                    new PrintWriter(new StringWriter(), true));
            assertThat(out.toString().replaceAll("\\s+", " "))
                    .as(v.name())
                    .contains(v.description().substring(0, 40));
        }
    }

    @Test
    void noViewLeavesATitleWithNothingUnderIt() {
        // a recording of nothing but its span: every table says what it has, or why it has none
        RecordingFacts f = RecordingFacts.empty(RecordingSource.file(Path.of("/canned/bare.jfr")), false);
        f.summary.span(RecordingSpan.of(
                T0.toEpochMilli() * 1_000_000, T0.plusSeconds(10).toEpochMilli() * 1_000_000));
        List<String> bare = Views.ALL.stream()
                .flatMap(v -> v.of(List.of(f), 8).stream()
                        .filter(t -> t.rows().isEmpty() && t.notes().isEmpty())
                        .map(t -> v.name() + ": " + t.title()))
                .toList();
        assertThat(bare).isEmpty();
        // a comparison of nothing: each of its tables says none before what else it notes
        List<MetricResult> none = List.of();
        for (Table t : List.of(
                CompareView.boxplots(none),
                CompareView.regressions(none),
                CompareView.comparisons(none),
                CompareView.spreads(none))) {
            assertThat(t.notes().get(0)).as(t.title()).startsWith("none: ");
        }
    }
}
