package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CarrierCpuTest {
    private static final Frame YIELD = new Frame("java.lang.Thread", "yield", 0, 1);
    private static final Frame TRY_YIELD = new Frame("java.lang.VirtualThread", "tryYield", 0, 1);
    private static final Frame BORROW = new Frame("com.zaxxer.hikari.util.ConcurrentBag", "borrow", 166, 1);
    private static final Frame HANDLER = new Frame("app.Handler", "serve", 40, 1);
    private static final Frame SCAN = new Frame("java.util.concurrent.ForkJoinPool", "scan", 0, 1);
    private static final Frame HASH = new Frame("java.util.HashMap", "hash", 0, 1);

    static CannedEvent sample(String type, boolean virtual, long id, int ms, Frame... stack) {
        String thread = type.equals(JdkEvents.CPU_TIME_SAMPLE) ? JdkFields.EVENT_THREAD : JdkFields.SAMPLED_THREAD;
        Map<String, Object> fields = new HashMap<>();
        fields.put(thread + ".virtual", virtual);
        fields.put(thread + ".javaThreadId", id);
        fields.put(CannedEvent.STACK, List.of(stack));
        return new CannedEvent(type, Instant.ofEpochSecond(100).plusMillis(ms), fields);
    }

    @Test
    void spinsAreCountedByTheirCallerSchedulerChurnOnPlatformThreadsAndTheRestByTheirCode() {
        List<CarrierCpu.Sampled> seen = new ArrayList<>();
        CarrierCpu cpu = new CarrierCpu(seen::add);
        // JDK 21's yield goes through VirtualThread.tryYield: the spin is below the top
        cpu.add(sample(JdkEvents.EXECUTION_SAMPLE, true, 31, 0, TRY_YIELD, YIELD, BORROW, HANDLER));
        cpu.add(sample(JdkEvents.CPU_TIME_SAMPLE, true, 32, 10, YIELD, BORROW, HANDLER));
        cpu.add(sample(JdkEvents.EXECUTION_SAMPLE, true, 33, 20, HASH, HANDLER));
        cpu.add(sample(JdkEvents.EXECUTION_SAMPLE, true, 34, 30, HASH));
        cpu.add(sample(JdkEvents.EXECUTION_SAMPLE, false, 2, 40, SCAN));
        cpu.add(sample(JdkEvents.EXECUTION_SAMPLE, false, 3, 50, HANDLER));
        cpu.add(new CannedEvent(JdkEvents.NATIVE_METHOD_SAMPLE, Instant.ofEpochSecond(100), Map.of()));

        assertThat(cpu.samples()).isEqualTo(6);
        assertThat(cpu.virtualSamples()).isEqualTo(4);
        assertThat(cpu.spinSamples()).isEqualTo(2);
        assertThat(cpu.spinShare()).isEqualTo(0.5);
        assertThat(cpu.schedulerSamples()).isEqualTo(1);
        String caller = "com.zaxxer.hikari.util.ConcurrentBag.borrow:166 (Thread.yield)";
        assertThat(cpu.spinCallers()).containsExactly(Map.entry(caller, 2L));
        assertThat(cpu.spinCallersByCount().get(0)).isEqualTo(Map.entry(caller, 2L));
        assertThat(cpu.spinStacks().get(caller)).containsExactly(TRY_YIELD, YIELD, BORROW, HANDLER);
        assertThat(cpu.running()).containsExactly(Map.entry("app.Handler.serve:40", 1L));
        assertThat(seen)
                .containsExactly(
                        new CarrierCpu.Sampled(
                                31,
                                Instant.ofEpochSecond(100),
                                "com.zaxxer.hikari.util.ConcurrentBag.borrow:166",
                                true),
                        new CarrierCpu.Sampled(
                                32,
                                Instant.ofEpochSecond(100).plusMillis(10),
                                "com.zaxxer.hikari.util.ConcurrentBag.borrow:166",
                                true),
                        new CarrierCpu.Sampled(
                                33, Instant.ofEpochSecond(100).plusMillis(20), "app.Handler.serve:40", false),
                        new CarrierCpu.Sampled(
                                34, Instant.ofEpochSecond(100).plusMillis(30), "java.util.HashMap.hash", false));
    }

    @Test
    void aSpinDeeperThanTheDepthIsTheThreadsCodeAndMergingAddsEveryCount() {
        Frame[] deep = new Frame[CarrierCpu.SPIN_DEPTH + 2];
        for (int i = 0; i < CarrierCpu.SPIN_DEPTH; i++) {
            deep[i] = HASH;
        }
        deep[CarrierCpu.SPIN_DEPTH] = YIELD;
        deep[CarrierCpu.SPIN_DEPTH + 1] = HANDLER;
        CarrierCpu one = new CarrierCpu();
        one.add(sample(JdkEvents.EXECUTION_SAMPLE, true, 5, 0, deep));
        assertThat(one.spinSamples()).isZero();
        assertThat(one.running()).containsExactly(Map.entry("app.Handler.serve:40", 1L));

        CarrierCpu other = new CarrierCpu();
        other.add(sample(JdkEvents.EXECUTION_SAMPLE, true, 6, 0, YIELD, HANDLER));
        other.add(sample(JdkEvents.EXECUTION_SAMPLE, false, 7, 0, SCAN));
        one.merge(other);
        assertThat(one.samples()).isEqualTo(3);
        assertThat(one.virtualSamples()).isEqualTo(2);
        assertThat(one.spinSamples()).isEqualTo(1);
        assertThat(one.schedulerSamples()).isEqualTo(1);
        assertThat(one.spinCallers()).containsExactly(Map.entry("app.Handler.serve:40 (Thread.yield)", 1L));
        assertThat(new CarrierCpu().spinShare()).isNaN();
        assertThat(new CarrierCpu().spinCallersByCount()).isEmpty();
    }
}
