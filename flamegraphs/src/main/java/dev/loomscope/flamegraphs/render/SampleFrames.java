package dev.loomscope.flamegraphs.render;

import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.RawFrame;
import dev.loomscope.recording.RecordingSpan;
import java.time.Duration;
import java.util.List;

/**
 * What a sample event and its frames say, as every sample feature reads them alike (the flame graph, thread CPU, the
 * heatmap, the fleet's samples): its thread state and thread field, the samples it stands for, whether it falls in the
 * window asked for, which frames are Java, where a thread's own code begins, and whether a virtual thread ran the
 * stack.
 */
public final class SampleFrames {
    /** The samples a Datadog profiler event stands for (its own field, not the JDK's). */
    private static final String DATADOG_WEIGHT = "weight";

    private SampleFrames() {}

    /**
     * An execution sample's thread state: JFR's CPU-time samples have none and get {@link #FlameSamples.CPU_TIME};
     * Datadog's CPU samples get async-profiler's; JFR's native method samples, a thread in native code running or
     * waiting (a socket read), get {@link #FlameSamples.IN_NATIVE}, so that no CPU graph counts them, as JMC, jfr view
     * hot-methods and Pyroscope do not (a wall-clock graph does).
     */
    public static String executionState(JfrEvent e) {
        if (e.type().equals(JdkEvents.CPU_TIME_SAMPLE)) {
            return FlameSamples.CPU_TIME;
        }
        if (e.type().equals(JdkEvents.NATIVE_METHOD_SAMPLE)) {
            return FlameSamples.IN_NATIVE;
        }
        if (e.type().equals(FlameSamples.DATADOG_CPU)) {
            // CPU samples of async-profiler's kind (its timer engines), in the state async-profiler gives its own
            return "STATE_DEFAULT";
        }
        return e.hasField(JdkFields.STATE) && e.string(JdkFields.STATE) != null
                ? e.string(JdkFields.STATE)
                : "STATE_UNKNOWN";
    }

    /**
     * The field of an execution sample that names the thread sampled: JFR's CPU-time samples and Datadog's have it in
     * eventThread.
     */
    public static String threadField(JfrEvent e) {
        return e.type().equals(JdkEvents.CPU_TIME_SAMPLE) || e.type().startsWith("datadog.")
                ? JdkFields.EVENT_THREAD
                : JdkFields.SAMPLED_THREAD;
    }

    /** The samples an execution sample event stands for: async-profiler's wall-clock events can stand for several. */
    public static long weight(JfrEvent e) {
        if (e.type().equals("profiler.WallClockSample") && e.hasField("samples")) {
            return e.longValue("samples");
        }
        return e.type().startsWith("datadog.") && e.hasField(JdkFields.WEIGHT)
                ? Math.max(1, e.longValue(JdkFields.WEIGHT))
                : 1;
    }

    /**
     * A Java method's frame (interpreted, compiled, inlined, C1, or a Java native method), not a C or C++ function's.
     */
    public static boolean isJava(RawFrame f, boolean nativeIsC) {
        int t = f.type();
        return !f.internalClassName().isEmpty()
                && (t < 0 || t == 0 || t == 1 || t == 2 || t == 6 || t == SampleGraph.NATIVE && !nativeIsC);
    }

    /** Whether {@code e} is in the options' window (--from, --to) of a recording spanning {@code span}. */
    public static boolean inWindow(FlameOptions options, JfrEvent e, RecordingSpan span) {
        if (options.fromMs() == 0 && options.toMs() == 0 || span.isEmpty()) {
            return true;
        }
        long ms = Duration.between(span.first(), e.startTime()).toMillis();
        long length = Duration.between(span.first(), span.last()).toMillis();
        long from = options.fromMs() < 0 ? length + options.fromMs() : options.fromMs();
        long to = options.toMs() == 0 ? Long.MAX_VALUE : options.toMs() < 0 ? length + options.toMs() : options.toMs();
        return ms >= from && ms <= to;
    }

    /**
     * Where a thread's own code begins: the frame that calls it (the leaf-most such frame counts). A virtual thread
     * mounted again after it yielded has only its top frames thawed, above the continuation's return barrier (a stub
     * frame): that is where its code begins then.
     */
    public static boolean threadEntry(RawFrame f) {
        String c = f.internalClassName();
        String m = f.methodName();
        return m.equals("cont_returnBarrier")
                || c.equals("java/lang/Thread") && (m.equals("run") || m.equals("runWith"))
                || c.equals("java/lang/VirtualThread") && m.equals("run")
                || c.startsWith("java/lang/VirtualThread$VThreadContinuation") && m.equals("run");
    }

    /**
     * A virtual thread's frames sit above the continuation entry, on a carrier or not; or, mounted again after it
     * yielded and sampled by async-profiler, above the continuation's return barrier (a stub frame at the stack's root:
     * only the frames thawed so far are walked).
     */
    public static boolean isVirtual(List<RawFrame> frames) {
        if (!frames.isEmpty() && frames.get(frames.size() - 1).methodName().equals("cont_returnBarrier")) {
            return true;
        }
        for (RawFrame f : frames) {
            if (continuationEntry(f)
                    || f.internalClassName().equals("java/lang/VirtualThread")
                            && f.methodName().equals("run")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The continuation's entry ({@code Continuation.enter}, {@code enterSpecial}): a virtual thread's frames are above
     * it.
     */
    public static boolean continuationEntry(RawFrame f) {
        return f.internalClassName().equals("jdk/internal/vm/Continuation")
                && f.methodName().startsWith("enter");
    }
}
