package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
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
