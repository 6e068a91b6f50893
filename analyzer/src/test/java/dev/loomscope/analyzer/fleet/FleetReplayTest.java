package dev.loomscope.analyzer.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.views.PinningView;
import dev.loomscope.recording.Frame;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A recording's rows of an export, replayed into the reducers: the facts they were exported from. */
class FleetReplayTest {
    static final long T0 = 1_700_000_000_000_000_000L;

    static Object[] row(FleetTable t, String recording, Object... namesAndValues) {
        Object[] row = t.newRow(recording);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            row[t.index((String) namesAndValues[i])] = namesAndValues[i + 1];
        }
        return row;
    }

    /** A virtual-thread recording: two runs (one a warm-up), one pin in application code, its stack. */
    static Map<FleetTable, List<Object[]>> rows(String r) {
        Map<FleetTable, List<Object[]>> rows = new LinkedHashMap<>();
        rows.put(
                FleetSchema.RECORDINGS,
                List.<Object[]>of(row(
                        FleetSchema.RECORDINGS,
                        r,
                        "label",
                        "canary",
                        "thread_kind",
                        "virtual",
                        "jvm",
                        "OpenJDK 64-Bit Server VM (25.0.3+9-LTS) for linux-amd64",
                        "start_ns",
                        T0,
                        "end_ns",
                        T0 + 10_000_000_000L,
                        "pin_reasons_recorded",
                        true)));
        rows.put(
                FleetSchema.EVENT_TYPES,
                List.of(
                        row(
                                FleetSchema.EVENT_TYPES,
                                r,
                                "event_type",
                                "loomscope.WorkloadRun",
                                "events",
                                2L,
                                "enabled",
                                true),
                        row(
                                FleetSchema.EVENT_TYPES,
                                r,
                                "event_type",
                                "jdk.VirtualThreadPinned",
                                "events",
                                1L,
                                "enabled",
                                true)));
        rows.put(
                FleetSchema.RUNS,
                List.of(
                        row(
                                FleetSchema.RUNS,
                                r,
                                "start_ns",
                                T0 + 1_000_000_000L,
                                "duration_ns",
                                2_000_000_000L,
                                "workload",
                                "sleep",
                                "thread_kind",
                                "virtual",
                                "run_index",
                                0L,
                                "warmup",
                                true,
                                "units",
                                100L),
                        row(
                                FleetSchema.RUNS,
                                r,
                                "start_ns",
                                T0 + 4_000_000_000L,
                                "duration_ns",
                                250_000_000L,
                                "workload",
                                "sleep",
                                "thread_kind",
                                "virtual",
                                "run_index",
                                1L,
                                "warmup",
                                false,
                                "units",
                                100L,
                                "p50_latency_ms",
                                2.5)));
        rows.put(
                FleetSchema.PINS,
                List.<Object[]>of(row(
                        FleetSchema.PINS,
                        r,
                        "start_ns",
                        T0 + 4_100_000_000L,
                        "duration_ns",
                        30_000_000L,
                        "pinned_reason",
                        "Native or VM frame on stack",
                        "blocking_operation",
                        "Object.wait",
                        "carrier_thread",
                        "ForkJoinPool-1-worker-1",
                        "top_frame",
                        "app.Cache.load",
                        "stack_id",
                        42L)));
        // the stack's frames out of order: the replay puts them top first
        rows.put(
                FleetSchema.STACKS,
                new ArrayList<>(List.of(
                        row(
                                FleetSchema.STACKS,
                                r,
                                "stack_id",
                                42L,
                                "depth",
                                1,
                                "class_name",
                                "app.Cache",
                                "method_name",
                                "load",
                                "line",
                                17,
                                "frame_type",
                                1),
                        row(
                                FleetSchema.STACKS,
                                r,
                                "stack_id",
                                42L,
                                "depth",
                                0,
                                "class_name",
                                "java.lang.Object",
                                "method_name",
                                "wait",
                                "line",
                                0,
                                "frame_type",
                                3))));
        return rows;
    }

    @Test
    void theRowsGiveTheRecordingsFacts() {
        RecordingFacts f = FleetReplay.facts("/fleet/a.jfr", rows("/fleet/a.jfr"), false);
        assertThat(f.summary.threadKind).isEqualTo("virtual");
        assertThat(f.summary.label).isEqualTo("canary");
        assertThat(f.summary.spanSeconds()).isEqualTo(10.0);
        assertThat(f.runs.runs()).hasSize(2);
        assertThat(f.runs.measured()).singleElement().satisfies(run -> {
            assertThat(run.runIndex()).isEqualTo(1);
            assertThat(run.millis()).isEqualTo(250.0);
            assertThat(run.p50LatencyMs()).isEqualTo(2.5);
        });
        assertThat(f.pinning.all().count()).isEqualTo(1);
        assertThat(f.pinning.groups())
                // the frame that pinned (here the top one outside the JDK), from the stack
                .containsOnlyKeys("app.Cache.load");
        var pin = f.pinning.groups().get("app.Cache.load");
        assertThat(pin.stack).extracting(Frame::text).containsExactly("java.lang.Object.wait", "app.Cache.load:17");
        assertThat(pin.reasons).containsExactly("Native or VM frame on stack");
        assertThat(pin.carriers).containsExactly("ForkJoinPool-1-worker-1");
        assertThat(f.recorded("jdk.VirtualThreadPinned")).isTrue();
    }

    @Test
    void aStackTwoRecordingsShareIsKeptOnce() {
        FleetReplay.Stacks stacks = new FleetReplay.Stacks();
        List<RecordingFacts> facts = new ArrayList<>();
        for (String r : List.of("/fleet/a.jfr", "/fleet/b.jfr")) {
            Map<FleetTable, List<Object[]>> rows = rows(r);
            FleetReplay replay =
                    new FleetReplay(r, rows.get(FleetSchema.RECORDINGS).get(0), false, stacks);
            for (FleetTable t : FleetReplay.TABLES.subList(1, FleetReplay.TABLES.size())) {
                rows.getOrDefault(t, List.of()).forEach(row -> replay.row(t, row));
            }
            facts.add(replay.finish());
        }
        // b's rows of stack 42 were not added to a's: each pin's stack has its two frames, not four
        assertThat(facts)
                .allSatisfy(f -> assertThat(f.pinning.groups().get("app.Cache.load").stack)
                        .hasSize(2));
    }

    @Test
    void thePinningViewShowsTheReplayedPin() {
        RecordingFacts f = FleetReplay.facts("/fleet/a.jfr", rows("/fleet/a.jfr"), false);
        var tables = PinningView.of(List.of(f), 5);
        assertThat(tables)
                .extracting(t -> t.name())
                .containsExactly("pinning", "pinning-recorded", "pinning-by-reason", "pinning-stack");
        // an export holds the pins, not the settings' threshold: recorded, from a length it cannot state
        assertThat(tables.get(1).rows().get(0)).containsExactly("a", "recorded", "not stated");
        Object[] byFrame = tables.get(0).rows().get(0);
        assertThat(byFrame).startsWith("app.Cache.load", 1L, 30.0);
        assertThat(byFrame[6]).isEqualTo("Native or VM frame on stack");
        assertThat(byFrame[7]).isEqualTo("Object.wait");
        assertThat(tables.get(2).rows())
                .singleElement()
                .satisfies(r -> assertThat(r).startsWith("Native or VM frame on stack", "Object.wait", 1L));
        assertThat(tables.get(3).rows())
                .extracting(r -> r[0])
                .containsExactly("java.lang.Object.wait (native)", "app.Cache.load:17");
    }
}
