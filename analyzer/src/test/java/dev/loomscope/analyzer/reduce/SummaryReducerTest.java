package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.recording.JdkEvents;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryReducerTest {
    static CannedEvent cpu(double user, double system, double machine) {
        return new CannedEvent(
                "jdk.CPULoad",
                Instant.parse("2026-11-24T12:00:00Z"),
                Map.of("jvmUser", user, "jvmSystem", system, "machineTotal", machine));
    }

    /**
     * JFR's first jdk.CPULoad has no reading before it and says 0 everywhere: a JVM that lived one period is not idle
     * for that.
     */
    @Test
    void jfrsFirstCpuReadingIsNoReading() {
        SummaryReducer s = new SummaryReducer();
        s.add(cpu(0, 0, 0));
        assertThat(s.jvmCpu.count()).isZero();
        s.add(cpu(0.45, 0.05, 0.6));
        s.add(cpu(0, 0, 0.02)); // an idle JVM on a busy machine is a reading
        assertThat(s.jvmCpu.toArray()).containsExactly(0.5, 0.0);
        assertThat(s.machineCpu.toArray()).containsExactly(0.6, 0.02);
    }

    /**
     * What watch shows of intervals a watcher that fell behind joins: two reducers merged are the one that saw both's
     * events.
     */
    @Test
    void twoReducersMergedAreTheOneThatSawBothsEvents() {
        Instant t0 = Instant.parse("2026-11-24T12:00:00Z");
        List<CannedEvent> events = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Instant at = t0.plusMillis(500L * i);
            events.add(new CannedEvent(JdkEvents.VIRTUAL_THREAD_START, at, Map.of()));
            events.add(new CannedEvent(
                    JdkEvents.CPU_LOAD,
                    at,
                    Map.of("jvmUser", 0.1 * i, "jvmSystem", 0.01, "machineTotal", 0.2 + 0.1 * i)));
            events.add(new CannedEvent(
                    JdkEvents.JAVA_THREAD_STATISTICS,
                    at,
                    Map.of("activeCount", 20L + (i * 7) % 5, "peakCount", 30L + i)));
            if (i % 2 == 1) {
                events.add(new CannedEvent(JdkEvents.VIRTUAL_THREAD_END, at, Map.of()));
            }
        }
        events.add(runInfo(Map.of()));
        SummaryReducer whole = new SummaryReducer();
        SummaryReducer first = new SummaryReducer();
        SummaryReducer second = new SummaryReducer();
        for (int i = 0; i < events.size(); i++) {
            whole.add(events.get(i));
            (i < events.size() / 3 ? first : second).add(events.get(i));
        }
        first.merge(second);
        assertThat(first.counts()).isEqualTo(whole.counts());
        assertThat(first.virtualThreadsStarted)
                .isEqualTo(whole.virtualThreadsStarted)
                .isEqualTo(6);
        assertThat(first.jvmCpu.toArray()).containsExactly(whole.jvmCpu.toArray());
        assertThat(first.machineCpu.toArray()).containsExactly(whole.machineCpu.toArray());
        assertThat(first.jvmCpuInTime.between(0, Long.MAX_VALUE).toArray())
                .containsExactly(whole.jvmCpuInTime.between(0, Long.MAX_VALUE).toArray());
        assertThat(first.peakActiveThreads).isEqualTo(whole.peakActiveThreads).isEqualTo(24);
        assertThat(first.peakThreads).isEqualTo(whole.peakThreads).isEqualTo(35);
        assertThat(first.first()).isEqualTo(whole.first());
        assertThat(first.last()).isEqualTo(whole.last());
        assertThat(first.label).isEqualTo(whole.label).isEqualTo("app");
    }

    static CannedEvent runInfo(Map<String, Object> fields) {
        Map<String, Object> all = new HashMap<>(Map.of("label", "app", "threadKind", "virtual", "command", "App"));
        all.putAll(fields);
        return new CannedEvent("loomscope.RunInfo", Instant.parse("2026-11-24T12:00:00Z"), all);
    }

    /**
     * The carriers have one source: the scheduler's parallelism the agent saw, else the processors the JVM saw, else
     * none.
     */
    @Test
    void theCarriersAreTheSchedulersParallelismElseTheProcessors() {
        SummaryReducer set = new SummaryReducer();
        set.add(runInfo(Map.of("cpus", 2L, "carriers", 4L)));
        assertThat(set.carriers().count()).isEqualTo(4);
        assertThat(set.carriers().from()).contains("scheduler parallelism");
        SummaryReducer older = new SummaryReducer(); // an agent before the carriers field
        older.add(runInfo(Map.of("cpus", 2L)));
        assertThat(older.carriers().count()).isEqualTo(2);
        assertThat(older.carriers().from()).contains("processors the JVM saw");
        assertThat(new SummaryReducer().carriers()).isNull();
    }
}
