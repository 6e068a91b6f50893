package dev.loomscope.recording;

/** A value annotated as a time span: its raw number and unit (TICKS, NANOSECONDS, ..., SECONDS). */
record Span(long raw, String unit) {
    /** As the JDK's parser converts it ({@code RecordedObject.getDuration}): MIN and MAX stand for minus and plus forever. */
    java.time.Duration duration(ChunkReader chunk) {
        if (raw == 0) {
            return java.time.Duration.ZERO;
        }
        if (raw == Long.MIN_VALUE) {
            return java.time.Duration.ofSeconds(Long.MIN_VALUE, 0);
        }
        if (raw == Long.MAX_VALUE) {
            return java.time.temporal.ChronoUnit.FOREVER.getDuration();
        }
        return switch (unit) {
            case "MICROSECONDS" -> java.time.Duration.ofNanos(1000 * raw);
            case "SECONDS" -> java.time.Duration.ofSeconds(raw);
            case "MILLISECONDS" -> java.time.Duration.ofMillis(raw);
            case "TICKS" -> java.time.Duration.ofNanos(chunk.ticksToNanos(raw));
            default -> java.time.Duration.ofNanos(raw);
        };
    }

    long nanos(ChunkReader chunk) {
        return duration(chunk).toNanos();
    }
}
