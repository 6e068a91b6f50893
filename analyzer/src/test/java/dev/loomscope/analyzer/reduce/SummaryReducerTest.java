package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryReducerTest {
    static CannedEvent cpu(double user, double system, double machine) {
        return new CannedEvent("jdk.CPULoad", Instant.parse("2026-11-24T12:00:00Z"), Map.of("jvmUser", user, "jvmSystem", system, "machineTotal", machine));
    }

    /** JFR's first jdk.CPULoad has no reading before it and says 0 everywhere: a JVM that lived one period is not idle for that. */
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
}
