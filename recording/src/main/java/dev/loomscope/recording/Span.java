package dev.loomscope.recording;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** A value annotated as a time span: its raw number and unit (TICKS, NANOSECONDS, ..., SECONDS). */
record Span(long raw, String unit) {
    /**
     * As the JDK's parser converts it ({@code RecordedObject.getDuration}): MIN and MAX stand for minus and plus
     * forever.
     */
    Duration duration(ChunkReader chunk) {
        if (raw == 0) {
            return Duration.ZERO;
        }
        if (raw == Long.MIN_VALUE) {
            return Duration.ofSeconds(Long.MIN_VALUE, 0);
        }
        if (raw == Long.MAX_VALUE) {
            return ChronoUnit.FOREVER.getDuration();
        }
        return switch (unit) {
            case "MICROSECONDS" -> Duration.ofNanos(1000 * raw);
            case "SECONDS" -> Duration.ofSeconds(raw);
            case "MILLISECONDS" -> Duration.ofMillis(raw);
            case "TICKS" -> Duration.ofNanos(chunk.ticksToNanos(raw));
            default -> Duration.ofNanos(raw);
        };
    }

    long nanos(ChunkReader chunk) {
        return duration(chunk).toNanos();
    }
}
