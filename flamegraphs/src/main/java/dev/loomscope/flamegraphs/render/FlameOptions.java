package dev.loomscope.flamegraphs.render;

import java.util.regex.Pattern;

/**
 * How to draw a flame graph.
 *
 * @param kind      which samples
 * @param threads   one root per thread
 * @param splitKind one root for samples of virtual threads (on their carriers) and one for platform threads
 * @param include   keep only stacks with a frame matching this, or null
 * @param exclude   drop stacks with a frame matching this, or null
 * @param fromMs    start, ms from the recording start (negative: from its end), or 0
 * @param toMs      end, likewise, or 0
 * @param title     page title, or null for a default
 * @param reverse   reversed (callers on top of callees) graph
 * @param applicationThreads only stacks with a Java frame: the application's threads, not the JVM's
 *                  own (JIT compilers, GC, VM thread), whose stacks are native code only
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
        boolean applicationThreads) {

    public static FlameOptions of(SampleKind kind) {
        return new FlameOptions(kind, false, false, null, null, 0, 0, null, false, false);
    }

    public FlameOptions withSplitKind(boolean split) {
        return new FlameOptions(kind, threads, split, include, exclude, fromMs, toMs, title, reverse, applicationThreads);
    }

    public FlameOptions withTitle(String newTitle) {
        return new FlameOptions(kind, threads, splitKind, include, exclude, fromMs, toMs, newTitle, reverse, applicationThreads);
    }

    /** Only the application's threads' stacks (with a Java frame), or every thread's. */
    public FlameOptions withApplicationThreads(boolean only) {
        return new FlameOptions(kind, threads, splitKind, include, exclude, fromMs, toMs, title, reverse, only);
    }

    /** Samples from {@code from} to {@code to} ms after the recording's start. */
    public FlameOptions withWindow(long from, long to) {
        return new FlameOptions(kind, threads, splitKind, include, exclude, from, to, title, reverse, applicationThreads);
    }
}
