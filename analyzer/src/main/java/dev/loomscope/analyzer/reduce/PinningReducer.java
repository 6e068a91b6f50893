package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.PinFrames;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * jdk.VirtualThreadPinned grouped by the frame that pinned ({@link PinFrames#culprit}), with JDK 24+ reasons when
 * recorded.
 */
public final class PinningReducer implements Reducer {
    public static final int STACK_DEPTH = 64;

    /** One group: durations in ms, reasons, blocking operations, carriers and the first stack seen. */
    public static final class Group implements Serializable {
        public final String frame;
        public final Samples millis = new Samples();
        public final Set<String> reasons = new TreeSet<>();
        public final Set<String> blockingOperations = new TreeSet<>();
        public final Set<String> carriers = new TreeSet<>();
        /** The first stack seen, innermost first, at most {@link #STACK_DEPTH} frames. */
        public List<Frame> stack = List.of();

        Group(String frame) {
            this.frame = frame;
        }

        void merge(Group o) {
            millis.addAll(o.millis);
            reasons.addAll(o.reasons);
            blockingOperations.addAll(o.blockingOperations);
            carriers.addAll(o.carriers);
            if (stack.isEmpty()) {
                stack = o.stack;
            }
        }
    }

    private final Map<String, Group> groups = new LinkedHashMap<>();
    private final Samples all = new Samples();
    /** Every pin's duration (ms) at the time it started: a run's pins. */
    private final Timeline allInTime = new Timeline();

    private final Map<String, Samples> byReason = new LinkedHashMap<>();
    private boolean reasonsRecorded;
    private long submitFailed;

    @Override
    public Set<String> eventTypes() {
        return Set.of(JdkEvents.VIRTUAL_THREAD_PINNED, JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED);
    }

    @Override
    public void add(JfrEvent e) {
        if (e.type().equals(JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED)) {
            submitFailed++;
            return;
        }
        String frame = PinFrames.culpritMethod(e.stackFrames());
        Group g = groups.computeIfAbsent(frame, Group::new);
        double ms = e.duration().toNanos() / 1e6;
        g.millis.add(ms);
        all.add(ms);
        allInTime.add(e.startTime(), ms);
        if (e.hasField(JdkFields.PINNED_REASON)) {
            reasonsRecorded = true;
            String r = e.string(JdkFields.PINNED_REASON);
            if (r != null) {
                g.reasons.add(r);
            }
            String b = e.hasField(JdkFields.BLOCKING_OPERATION) ? e.string(JdkFields.BLOCKING_OPERATION) : null;
            if (b != null) {
                g.blockingOperations.add(b);
            }
            String reasonKey = (r == null ? "(none)" : r.replaceAll(" to \\S+\\.<clinit>", " to <clinit>")) + "\u0000"
                    + (b == null ? "(none)" : b);
            byReason.computeIfAbsent(reasonKey, k -> new Samples()).add(ms);
            String carrier = e.threadName(JdkFields.CARRIER_THREAD);
            if (carrier != null) {
                g.carriers.add(carrier);
            }
        }
        if (g.stack.isEmpty()) {
            List<Frame> frames = e.stackFrames();
            g.stack = frames == null ? List.of() : List.copyOf(frames.subList(0, Math.min(STACK_DEPTH, frames.size())));
        }
    }

    /**
     * The pinned share of carrier time: pins' time over the carriers' time (carriers x span), the one meaning of
     * "pinned share" (the rules' {@code pinning.share}, {@code watch --pinned-share}): 1 is every carrier pinned all
     * the time. NaN when the carriers or the span are not known.
     */
    public static double shareOfCarrierTime(double pinnedMs, int carriers, double spanMs) {
        return carriers > 0 && spanMs > 0 ? pinnedMs / (carriers * spanMs) : Double.NaN;
    }

    public void merge(PinningReducer o) {
        o.groups.forEach((k, g) -> groups.computeIfAbsent(k, Group::new).merge(g));
        all.addAll(o.all);
        o.byReason.forEach(
                (k, s) -> byReason.computeIfAbsent(k, x -> new Samples()).addAll(s));
        reasonsRecorded |= o.reasonsRecorded;
        submitFailed += o.submitFailed;
    }

    public Map<String, Group> groups() {
        return groups;
    }

    /** "reason NUL blocking operation" -> durations in ms (class names in clinit reasons folded). */
    public Map<String, Samples> reasonGroups() {
        return byReason;
    }

    public Samples all() {
        return all;
    }

    public Timeline allInTime() {
        return allInTime;
    }

    /** False on JDK 21-23, whose event has no pinnedReason field. */
    public boolean reasonsRecorded() {
        return reasonsRecorded;
    }

    public long submitFailed() {
        return submitFailed;
    }
}
