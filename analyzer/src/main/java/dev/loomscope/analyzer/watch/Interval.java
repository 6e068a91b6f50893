package dev.loomscope.analyzer.watch;

import dev.loomscope.analyzer.read.JdkEvent;
import dev.loomscope.analyzer.reduce.ContextSwitchReducer;
import dev.loomscope.analyzer.reduce.GcReducer;
import dev.loomscope.analyzer.reduce.PinningReducer;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.analyzer.reduce.WorkReducer;
import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JdkFrames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The events of one refresh of {@code watch}, as they arrived from the stream, through the reducers the commands on a
 * file read them with: pins (by the frame that pinned, with JDK 24+ reasons) and submit failures as {@code pinning}
 * does, GC pauses as {@code gc}, virtual threads started and ended, the CPU load and the platform threads (JFR's
 * periodic events) and the carriers' CPU as {@code summary}, the machine's context switch rate as {@code ctxsw}, and
 * the agent's {@code work=} windows; and, its own, the CPU samples and where they spin. Filled by the stream's thread,
 * read by the watcher's once the interval ends ({@link Watcher} hands over a new one under its lock).
 */
final class Interval {
    /** How far below the top a spin frame may be (a virtual thread's yield goes through the scheduler's frames). */
    static final int SPIN_DEPTH = 12;

    final PinningReducer pins = new PinningReducer();
    final WorkReducer work = new WorkReducer();
    final GcReducer gc = new GcReducer();
    /** Virtual threads started and ended, the JVM's and the machine's CPU, the live platform threads. */
    final SummaryReducer summary = new SummaryReducer();
    /** The machine's context switch rate. */
    final ContextSwitchReducer contextSwitches = new ContextSwitchReducer();

    long samples;
    /** CPU samples of virtual threads, and of those the ones in a spin frame (the share the yield-spin alarm reads). */
    long virtualSamples;

    long spinSamples;
    /**
     * CPU samples of platform threads in the scheduler's own frames (mounting, unmounting, the pool's scan): its churn.
     */
    long schedulerSamples;
    /**
     * The callers of a spin frame (the first frame below it outside the JDK's thread classes) -> samples, and one stack
     * each.
     */
    final Map<String, Long> spinCallers = new HashMap<>();

    final Map<String, List<Frame>> spinStacks = new HashMap<>();
    /** The other CPU samples of virtual threads by their first frame outside the JDK: what the carriers run. */
    final Map<String, Long> running = new HashMap<>();
    /**
     * Each CPU sample of a virtual thread, in the order they came: whose, when, at which frame (what the cpu-monopoly
     * alarm follows).
     */
    final List<Sampled> sampled = new ArrayList<>();
    /**
     * One CPU sample of a virtual thread: its id, the sample's time, its first frame outside the JDK (or the top
     * frame), whether in a spin frame.
     */
    record Sampled(long thread, Instant at, String frame, boolean spinning) {}

    /** Takes {@code o}'s events in too: intervals a watcher that fell behind shows as one. */
    void absorb(Interval o) {
        pins.merge(o.pins);
        work.merge(o.work);
        gc.merge(o.gc);
        summary.merge(o.summary);
        contextSwitches.merge(o.contextSwitches);
        samples += o.samples;
        virtualSamples += o.virtualSamples;
        spinSamples += o.spinSamples;
        schedulerSamples += o.schedulerSamples;
        o.spinCallers.forEach((k, n) -> spinCallers.merge(k, n, Long::sum));
        o.spinStacks.forEach(spinStacks::putIfAbsent);
        o.running.forEach((k, n) -> running.merge(k, n, Long::sum));
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
            case JdkEvents.EXECUTION_SAMPLE -> sample(e, r, JdkFields.SAMPLED_THREAD);
            case JdkEvents.CPU_TIME_SAMPLE -> sample(e, r, JdkFields.EVENT_THREAD);
            default -> {
                if (e.type().equals(WorkWindowEvent.NAME)) {
                    work.add(e);
                }
            }
        }
    }

    private void sample(JdkEvent e, RecordedEvent r, String thread) {
        samples++;
        boolean virtual = Boolean.TRUE.equals(e.threadIsVirtual(thread));
        List<Frame> frames = e.stackFrames();
        if (!virtual) {
            if (frames != null
                    && !frames.isEmpty()
                    && JdkFrames.isSchedulerCode(frames.get(0).className())) {
                schedulerSamples++;
            }
            return;
        }
        virtualSamples++;
        if (frames == null) {
            return;
        }
        Frame ownFrame = frames.stream()
                .filter(f -> !JdkFrames.isJdk(f.className()))
                .findFirst()
                .orElse(null);
        String own = ownFrame != null
                ? ownFrame.text()
                : frames.isEmpty() ? "(no frames)" : frames.get(0).text();
        long id = r.getThread(thread).getJavaThreadId();
        for (int i = 0; i < Math.min(SPIN_DEPTH, frames.size()); i++) {
            Frame f = frames.get(i);
            if (JdkFrames.isSpin(f.className(), f.methodName())) {
                sampled.add(new Sampled(id, r.getStartTime(), own, true));
                spinSamples++;
                String caller = caller(frames, i + 1, f.methodName());
                spinCallers.merge(caller, 1L, Long::sum);
                spinStacks.putIfAbsent(caller, List.copyOf(frames.subList(0, Math.min(frames.size(), 16))));
                return;
            }
        }
        sampled.add(new Sampled(id, r.getStartTime(), own, false));
        if (ownFrame != null) {
            running.merge(own, 1L, Long::sum);
        }
    }

    /**
     * The first frame from {@code from} on outside java.lang.Thread and the virtual thread machinery, named with its
     * spin.
     */
    private static String caller(List<Frame> frames, int from, String spin) {
        for (int i = from; i < frames.size(); i++) {
            Frame f = frames.get(i);
            if (!f.className().equals("java.lang.Thread") && !JdkFrames.isVirtualThreadMachinery(f.className())) {
                return f.text() + " (Thread." + spin + ")";
            }
        }
        return "(no caller recorded) (Thread." + spin + ")";
    }
}
