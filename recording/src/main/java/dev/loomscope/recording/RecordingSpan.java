package dev.loomscope.recording;

import java.time.Instant;

/**
 * The time a recording covers, by definition from its chunk headers: from the earliest chunk's start to the latest
 * chunk's end (start plus duration, which JFR updates at every flush). Event times are not used: an appended
 * async-profiler chunk counts its ticks from another clock than the JVM's, and the JDK's parser converts every chunk of
 * a file with the first chunk's clock. Chunks may overlap (async-profiler's runs beside JFR's), so the span is not
 * their sum.
 */
public final class RecordingSpan {
    private long startNanos = Long.MAX_VALUE;
    private long endNanos = Long.MIN_VALUE;

    /** The span from {@code startNanos} to {@code endNanos} (epoch nanoseconds), as a recording's chunks gave it. */
    public static RecordingSpan of(long startNanos, long endNanos) {
        RecordingSpan s = new RecordingSpan();
        s.startNanos = startNanos;
        s.endNanos = endNanos;
        return s;
    }

    void addChunk(long chunkStartNanos, long chunkDurationNanos) {
        startNanos = Math.min(startNanos, chunkStartNanos);
        endNanos = Math.max(endNanos, chunkStartNanos + Math.max(0, chunkDurationNanos));
    }

    /** Widens this span to cover {@code other} too (the parts of a JFR repository). */
    public void add(RecordingSpan other) {
        startNanos = Math.min(startNanos, other.startNanos);
        endNanos = Math.max(endNanos, other.endNanos);
    }

    public boolean isEmpty() {
        return startNanos > endNanos;
    }

    /** The earliest chunk's start, or null when no chunk was read. */
    public Instant first() {
        return isEmpty() ? null : Instant.ofEpochSecond(0, startNanos);
    }

    /** The latest chunk's end, or null when no chunk was read. */
    public Instant last() {
        return isEmpty() ? null : Instant.ofEpochSecond(0, endNanos);
    }
}
