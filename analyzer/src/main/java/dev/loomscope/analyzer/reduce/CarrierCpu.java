package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JdkFrames;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.RawFrame;
import java.time.Instant;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the carriers spend their CPU on, from JFR's CPU samples: virtual threads' code, a spin (a virtual thread in
 * {@code Thread.yield} or {@code Thread.onSpinWait} keeps its carrier), and the scheduler's own frames on platform
 * threads (mounting, unmounting, the pool's scan). {@code watch} reads it window by window (the yield-spin and
 * cpu-monopoly alarms), {@code flame --threads} and the report over a recording.
 */
public final class CarrierCpu implements Reducer {
    /** How far below the top a spin frame may be (a virtual thread's yield goes through the scheduler's frames). */
    public static final int SPIN_DEPTH = 12;

    /** Frames of a spin's stack kept to show it. */
    private static final int SHOWN_FRAMES = 16;

    /** Distinct stacks read at most, then forgotten. */
    private static final int MAX_SHAPES = 100_000;

    private long samples;
    private long virtualSamples;
    private long spinSamples;
    private long schedulerSamples;
    private final Map<String, Long> spinCallers = new HashMap<>();
    private final Map<String, List<Frame>> spinStacks = new HashMap<>();
    private final Map<String, Long> running = new HashMap<>();
    /** Each distinct stack's shape, by the reader's frames list (one object per stack of a chunk); made when needed. */
    private transient Map<List<RawFrame>, Shape> shapes;
    /** Sees each CPU sample of a virtual thread as it comes (watch's cpu-monopoly alarm follows them); may be null. */
    private final transient Consumer<Sampled> each;

    /**
     * One CPU sample of a virtual thread: its Java thread id (-1 when not recorded), the sample's time, its first frame
     * outside the JDK (or the top frame), whether in a spin frame.
     */
    public record Sampled(long thread, Instant at, String frame, boolean spinning) {}

    /** Counts only. */
    public CarrierCpu() {
        this(null);
    }

    /** Counts, and hands each virtual thread's sample to {@code each}. */
    public CarrierCpu(Consumer<Sampled> each) {
        this.each = each;
    }

    @Override
    public Set<String> eventTypes() {
        return Set.of(JdkEvents.EXECUTION_SAMPLE, JdkEvents.CPU_TIME_SAMPLE);
    }

    @Override
    public void add(JfrEvent e) {
        String thread = switch (e.type()) {
            case JdkEvents.EXECUTION_SAMPLE -> JdkFields.SAMPLED_THREAD;
            case JdkEvents.CPU_TIME_SAMPLE -> JdkFields.EVENT_THREAD;
            default -> null;
        };
        if (thread == null) {
            return;
        }
        samples++;
        Shape shape = shapeOf(e);
        if (!Boolean.TRUE.equals(e.threadIsVirtual(thread))) {
            if (shape != null && shape.scheduler()) {
                schedulerSamples++;
            }
            return;
        }
        virtualSamples++;
        if (shape == null) {
            return;
        }
        long id = e.javaThreadId(thread);
        if (shape.spinCaller() != null) {
            spinSamples++;
            spinCallers.merge(shape.spinCaller(), 1L, Long::sum);
            spinStacks.putIfAbsent(shape.spinCaller(), shape.spinStack());
        } else if (shape.outsideJdk()) {
            running.merge(shape.own(), 1L, Long::sum);
        }
        handOn(new Sampled(id, e.startTime(), shape.own(), shape.spinCaller() != null));
    }

    /**
     * What a sample's stack says: whether its top frame is the scheduler's, its first frame outside the JDK (else the
     * top frame) and whether there is one, and the caller of a spin frame with the stack's top frames (null without a
     * spin).
     */
    private record Shape(boolean scheduler, String own, boolean outsideJdk, String spinCaller, List<Frame> spinStack) {}

    /** The sample's stack read once for each distinct stack of a chunk (the reader's frames list), or null without. */
    private Shape shapeOf(JfrEvent e) {
        List<RawFrame> raw = e.rawFrames();
        if (raw == null) {
            return shape(e.stackFrames());
        }
        if (shapes == null || shapes.size() >= MAX_SHAPES) {
            shapes = new IdentityHashMap<>(); // the stacks of chunks handed on long ago
        }
        return shapes.computeIfAbsent(raw, r -> shape(e.stackFrames()));
    }

    private static Shape shape(List<Frame> frames) {
        if (frames == null) {
            return null;
        }
        boolean scheduler =
                !frames.isEmpty() && JdkFrames.isSchedulerCode(frames.get(0).className());
        Frame ownFrame = frames.stream()
                .filter(f -> !JdkFrames.isJdk(f.className()))
                .findFirst()
                .orElse(null);
        String own = ownFrame != null
                ? ownFrame.text()
                : frames.isEmpty() ? "(no frames)" : frames.get(0).text();
        for (int i = 0; i < Math.min(SPIN_DEPTH, frames.size()); i++) {
            Frame f = frames.get(i);
            if (JdkFrames.isSpin(f.className(), f.methodName())) {
                return new Shape(
                        scheduler,
                        own,
                        ownFrame != null,
                        caller(frames, i + 1, f.methodName()),
                        List.copyOf(frames.subList(0, Math.min(frames.size(), SHOWN_FRAMES))));
            }
        }
        return new Shape(scheduler, own, ownFrame != null, null, null);
    }

    private void handOn(Sampled s) {
        if (each != null) {
            each.accept(s);
        }
    }

    /** Takes {@code o}'s samples in too. */
    public void merge(CarrierCpu o) {
        samples += o.samples;
        virtualSamples += o.virtualSamples;
        spinSamples += o.spinSamples;
        schedulerSamples += o.schedulerSamples;
        o.spinCallers.forEach((k, n) -> spinCallers.merge(k, n, Long::sum));
        o.spinStacks.forEach(spinStacks::putIfAbsent);
        o.running.forEach((k, n) -> running.merge(k, n, Long::sum));
    }

    /** The CPU samples, of every thread. */
    public long samples() {
        return samples;
    }

    /** The CPU samples of virtual threads. */
    public long virtualSamples() {
        return virtualSamples;
    }

    /** The virtual threads' CPU samples in a spin frame ({@link #SPIN_DEPTH}). */
    public long spinSamples() {
        return spinSamples;
    }

    /** The platform threads' CPU samples in the scheduler's own frames: its churn. */
    public long schedulerSamples() {
        return schedulerSamples;
    }

    /** The share of the virtual threads' CPU samples in a spin frame, NaN without any. */
    public double spinShare() {
        return virtualSamples > 0 ? (double) spinSamples / virtualSamples : Double.NaN;
    }

    /**
     * The callers of a spin frame (the first frame below it outside the JDK's thread classes, named with its spin) ->
     * samples.
     */
    public Map<String, Long> spinCallers() {
        return spinCallers;
    }

    /** One stack (its top frames) of each caller in {@link #spinCallers}. */
    public Map<String, List<Frame>> spinStacks() {
        return spinStacks;
    }

    /** The other CPU samples of virtual threads by their first frame outside the JDK: what the carriers run. */
    public Map<String, Long> running() {
        return running;
    }

    /** The callers of a spin frame with their samples, the most first (ties by name). */
    public List<Map.Entry<String, Long>> spinCallersByCount() {
        return spinCallers.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .toList();
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
