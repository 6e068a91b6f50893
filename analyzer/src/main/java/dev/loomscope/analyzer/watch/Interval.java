package dev.loomscope.analyzer.watch;

import dev.loomscope.analyzer.read.JdkEvent;
import dev.loomscope.analyzer.reduce.CarrierCpu;
import dev.loomscope.analyzer.reduce.ContextSwitchReducer;
import dev.loomscope.analyzer.reduce.GcReducer;
import dev.loomscope.analyzer.reduce.PinningReducer;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.analyzer.reduce.WorkReducer;
import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.recording.JdkEvents;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The events of one refresh of {@code watch}, as they arrived from the stream, through the reducers the commands on a
 * file read them with: pins (by the frame that pinned, with JDK 24+ reasons) and submit failures as {@code pinning}
 * does, GC pauses as {@code gc}, virtual threads started and ended, the CPU load and the platform threads (JFR's
 * periodic events) and the carriers' CPU as {@code summary}, the machine's context switch rate as {@code ctxsw}, and
 * the agent's {@code work=} windows, and the CPU samples as {@code flame --threads} (where the carriers spin, what they
 * run). Filled by the stream's thread, read by the watcher's once the interval ends ({@link Watcher} hands over a new
 * one under its lock).
 */
final class Interval {
    final PinningReducer pins = new PinningReducer();
    final WorkReducer work = new WorkReducer();
    final GcReducer gc = new GcReducer();
    /** Virtual threads started and ended, the JVM's and the machine's CPU, the live platform threads. */
    final SummaryReducer summary = new SummaryReducer();
    /** The machine's context switch rate. */
    final ContextSwitchReducer contextSwitches = new ContextSwitchReducer();
    /**
     * Each CPU sample of a virtual thread, in the order they came: whose, when, at which frame (what the cpu-monopoly
     * alarm follows).
     */
    final List<CarrierCpu.Sampled> sampled = new ArrayList<>();
    /** The CPU samples: spins, the scheduler's churn, what the carriers run. */
    final CarrierCpu cpu = new CarrierCpu(sampled::add);

    /** Takes {@code o}'s events in too: intervals a watcher that fell behind shows as one. */
    void absorb(Interval o) {
        pins.merge(o.pins);
        work.merge(o.work);
        gc.merge(o.gc);
        summary.merge(o.summary);
        contextSwitches.merge(o.contextSwitches);
        cpu.merge(o.cpu);
        sampled.addAll(o.sampled);
    }

    void add(RecordedEvent r) {
        JdkEvent e = new JdkEvent(r);
        switch (e.type()) {
            case JdkEvents.VIRTUAL_THREAD_PINNED, JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED -> pins.add(e);
            case JdkEvents.VIRTUAL_THREAD_START,
                    JdkEvents.VIRTUAL_THREAD_END,
                    JdkEvents.CPU_LOAD,
                    JdkEvents.JAVA_THREAD_STATISTICS,
                    JdkEvents.THREAD_CPU_LOAD -> summary.add(e);
            case JdkEvents.GARBAGE_COLLECTION -> gc.add(e);
            case JdkEvents.THREAD_CONTEXT_SWITCH_RATE -> contextSwitches.add(e);
            case JdkEvents.EXECUTION_SAMPLE, JdkEvents.CPU_TIME_SAMPLE -> cpu.add(e);
            default -> {
                if (e.type().equals(WorkWindowEvent.NAME)) {
                    work.add(e);
                }
            }
        }
    }
}
