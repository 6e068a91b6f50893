package dev.loomscope.flamegraphs.render;

import java.util.regex.Pattern;

/**
 * How to draw a flame graph.
 *
 * @param kind which samples
 * @param threads one root per thread
 * @param splitKind one root for samples of virtual threads (on their carriers) and one for platform threads
 * @param include keep only stacks with a frame matching this, or null
 * @param exclude drop stacks with a frame matching this, or null
 * @param fromMs start, ms from the recording start (negative: from its end), or 0
 * @param toMs end, likewise, or 0
 * @param title page title, or null for a default
 * @param reverse reversed (callers on top of callees) graph
 * @param applicationThreads only stacks with a Java frame: the application's threads, not the JVM's own (JIT compilers,
 *     GC, VM thread), whose stacks are native code only
 * @param virtualThreadIds samples of a virtual thread JFR recorded as such kept apart by its Java id (for profiles that
 *     label each sample: pprof, OTLP)
 * @param timeline samples also counted by time and thread kind ({@link FlameSamples#timeline}: the heatmap)
 */
public record FlameOptions(
        SampleKind kind,
        boolean threads,
        boolean splitKind,
        Pattern include,
        Pattern exclude,
        long fromMs,
        long toMs,
        String title,
        boolean reverse,
        boolean applicationThreads,
        boolean virtualThreadIds,
        boolean timeline) {

    public static FlameOptions of(SampleKind kind) {
        return new FlameOptions(kind, false, false, null, null, 0, 0, null, false, false, false, false);
    }

    public FlameOptions withSplitKind(boolean split) {
        return new FlameOptions(
                kind,
                threads,
                split,
                include,
                exclude,
                fromMs,
                toMs,
                title,
                reverse,
                applicationThreads,
                virtualThreadIds,
                timeline);
    }

    public FlameOptions withTitle(String newTitle) {
        return new FlameOptions(
                kind,
                threads,
                splitKind,
                include,
                exclude,
                fromMs,
                toMs,
                newTitle,
                reverse,
                applicationThreads,
                virtualThreadIds,
                timeline);
    }

    /** Only the application's threads' stacks (with a Java frame), or every thread's. */
    public FlameOptions withApplicationThreads(boolean only) {
        return new FlameOptions(
                kind,
                threads,
                splitKind,
                include,
                exclude,
                fromMs,
                toMs,
                title,
                reverse,
                only,
                virtualThreadIds,
                timeline);
    }

    /** Samples from {@code from} to {@code to} ms after the recording's start. */
    public FlameOptions withWindow(long from, long to) {
        return new FlameOptions(
                kind,
                threads,
                splitKind,
                include,
                exclude,
                from,
                to,
                title,
                reverse,
                applicationThreads,
                virtualThreadIds,
                timeline);
    }

    /** Samples of virtual threads kept apart by their Java id where JFR recorded it, or merged. */
    public FlameOptions withVirtualThreadIds(boolean apart) {
        return new FlameOptions(
                kind,
                threads,
                splitKind,
                include,
                exclude,
                fromMs,
                toMs,
                title,
                reverse,
                applicationThreads,
                apart,
                timeline);
    }

    /** Samples also counted by time and thread kind (the heatmap), or not. */
    public FlameOptions withTimeline(boolean counted) {
        return new FlameOptions(
                kind,
                threads,
                splitKind,
                include,
                exclude,
                fromMs,
                toMs,
                title,
                reverse,
                applicationThreads,
                virtualThreadIds,
                counted);
    }
}
