package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.reduce.PinningReducer;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.PinFrames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code pinning}: pinned virtual threads grouped by the frame that pinned ({@link PinFrames#culprit}), all inputs
 * merged.
 */
public final class PinningView {
    /**
     * A recording that began this long after its JVM started says so wherever it counts pins: what came before is not
     * in it.
     */
    static final double LATE_SECONDS = SummaryReducer.LATE_SECONDS;

    private PinningView() {}

    public static PinningReducer merged(List<RecordingFacts> all) {
        PinningReducer merged = new PinningReducer();
        all.forEach(f -> merged.merge(f.pinning));
        return merged;
    }

    /**
     * Whether a recording can show pins at all, and from which length on (its settings' threshold; null when they do
     * not say).
     */
    public record Coverage(RecordingFacts recording, boolean recorded, Duration threshold) {}

    /** What each recording could hold of pins: the event recorded or not, and its threshold. */
    public static List<Coverage> coverage(List<RecordingFacts> all) {
        return all.stream()
                .map(f -> new Coverage(
                        f,
                        f.recorded(JdkEvents.VIRTUAL_THREAD_PINNED),
                        f.settings.threshold(JdkEvents.VIRTUAL_THREAD_PINNED)))
                .toList();
    }

    /** A threshold as people write it: 20 ms, 1 ms, 0 ms, 500 us. */
    public static String duration(Duration d) {
        return d.toNanos() % 1_000_000 == 0
                ? d.toMillis() + " ms"
                : d.toNanos() % 1000 == 0 ? d.toNanos() / 1000 + " us" : d.toNanos() + " ns";
    }

    /** The coverage as a table: a row a recording, whether pins were recorded and from which length. */
    static Table recorded(List<Coverage> coverage) {
        Table t = new Table(
                "pinning-recorded",
                "What each recording can show of pins",
                List.of(Table.text("recording"), Table.text(JdkEvents.VIRTUAL_THREAD_PINNED), Table.text("threshold")));
        for (Coverage c : coverage) {
            t.row(
                    c.recording().source.shortName(),
                    c.recorded() ? "recorded" : "not recorded",
                    !c.recorded() ? null : c.threshold() == null ? "not stated" : duration(c.threshold()));
        }
        long missing = coverage.stream().filter(c -> !c.recorded()).count();
        if (missing > 0) {
            t.note(missing + " of " + coverage.size() + " recording(s) did not record "
                    + JdkEvents.VIRTUAL_THREAD_PINNED + " (an async-profiler-only recording, or JFR settings without"
                    + " the event): they cannot show pins, and none here is no evidence of none");
        }
        if (coverage.stream()
                .anyMatch(c ->
                        c.recorded() && c.threshold() != null && c.threshold().toMillis() >= 20)) {
            t.note("a threshold of 20 ms (JFR's default) hides most pins: the loomscope agent records from 1 ms"
                    + " (pinned-threshold=)");
        }
        return t;
    }

    /** Up to two values, then how many more. */
    static String few(Set<String> values) {
        List<String> v = new ArrayList<>(values);
        return v.size() <= 2 ? String.join("; ", v) : v.get(0) + "; " + v.get(1) + "; +" + (v.size() - 2) + " more";
    }

    /** JDK 24+: the same pins grouped by why they pinned and what blocked. */
    static Table byReason(PinningReducer p) {
        Table t = new Table(
                "pinning-by-reason",
                "Pinned virtual threads by reason and blocking operation",
                List.of(
                        Table.text("reason"),
                        Table.text("blocking operation"),
                        Table.number("count", "events", 0),
                        Table.number("total", "ms", 2),
                        Table.number("max", "ms", 2)));
        var byReason = new TreeMap<String, Samples>();
        p.reasonGroups().forEach((k, s) -> byReason.put(k, s));
        byReason.forEach((k, s) -> {
            String[] rb = k.split("\u0000", 2);
            t.row(rb[0], rb[1], (long) s.count(), s.sum(), s.max());
        });
        return t;
    }

    /**
     * A group's first stack as the agent's trace prints it: from the JDK call into the application, {@code depth}
     * frames, and below them the frames that pinned (class initializers, native methods, the call that went native)
     * with the frames around them; "..." where frames are left out.
     */
    static Table stack(PinningReducer.Group g, int depth) {
        Table s = new Table(
                "pinning-stack",
                "Stack of " + g.frame + " (from the JDK call it made, down to the frames that pinned)",
                List.of(Table.text("frame")));
        List<Frame> frames = g.stack;
        PinFrames.lines(frames, PinFrames.shortTrace(frames, Math.max(PinFrames.SHORT_FRAMES, depth)), false)
                .forEach(s::row);
        return s;
    }

    public static List<Table> of(List<RecordingFacts> all, int stackDepth) {
        PinningReducer p = merged(all);
        Table t = new Table(
                "pinning",
                "Pinned virtual threads by the frame that pinned",
                List.of(
                        Table.text("frame"),
                        Table.number("count", "events", 0),
                        Table.number("total", "ms", 2),
                        Table.number("p50", "ms", 2),
                        Table.number("p99", "ms", 2),
                        Table.number("max", "ms", 2),
                        Table.text("reason"),
                        Table.text("blocking operation"),
                        Table.text("carriers")));
        List<PinningReducer.Group> groups = new ArrayList<>(p.groups().values());
        groups.sort(Comparator.comparingDouble((PinningReducer.Group g) -> g.millis.sum())
                .reversed());
        String notRecorded = "not recorded by this JDK";
        for (PinningReducer.Group g : groups) {
            t.row(
                    g.frame,
                    (long) g.millis.count(),
                    g.millis.sum(),
                    g.millis.quantile(0.5),
                    g.millis.quantile(0.99),
                    g.millis.max(),
                    p.reasonsRecorded() ? few(g.reasons) : notRecorded,
                    p.reasonsRecorded() ? few(g.blockingOperations) : notRecorded,
                    p.reasonsRecorded() ? few(g.carriers) : notRecorded);
        }
        List<Coverage> coverage = coverage(all);
        if (groups.isEmpty()) {
            long withEvent = all.stream()
                    .filter(f -> f.summary.count(JdkEvents.VIRTUAL_THREAD_PINNED) > 0
                            || f.summary.counts().size() > 0)
                    .count();
            t.note(
                    withEvent == 0
                            ? "no events read"
                            : coverage.stream().noneMatch(Coverage::recorded)
                                    ? "pins not recorded: no recording here recorded " + JdkEvents.VIRTUAL_THREAD_PINNED
                                            + ", so none here says nothing of pinning"
                                    : all.stream().allMatch(f -> f.summary.platformOnly())
                                            ? "no virtual thread ran in these recordings (platform threads), so none"
                                                    + " could pin: loomscope advise tells where virtual threads would"
                                            : "no pinned virtual threads recorded (at or above each recording's "
                                                    + JdkEvents.VIRTUAL_THREAD_PINNED + " threshold, listed below)");
        }
        for (RecordingFacts f : all) {
            Double late = f.summary.beganAfterJvmStart();
            if (late != null && late >= LATE_SECONDS && f.summary.appRanBeforeRecording()) {
                t.note(String.format(
                        Locale.ROOT,
                        "%s began %.2f s after the JVM started: pins before that (at class loading and start-up) are"
                                + " not in it, so %s (the agent's startup=before-main records from the start)",
                        f.source.shortName(),
                        late,
                        groups.isEmpty() ? "none recorded is not none" : "the counts are of what came after"));
            }
        }
        if (!p.reasonsRecorded() && !groups.isEmpty()) {
            t.note("pinnedReason, blockingOperation and carrierThread are recorded from JDK 24 on");
        }
        if (p.submitFailed() > 0) {
            t.note(p.submitFailed() + " virtual thread submit failures (jdk.VirtualThreadSubmitFailed)");
        }
        List<Table> out = new ArrayList<>(List.of(t, recorded(coverage)));
        if (p.reasonsRecorded()) {
            out.add(byReason(p));
        }
        for (PinningReducer.Group g : groups) {
            out.add(stack(g, stackDepth));
        }
        return out;
    }
}
