package dev.loomscope.recording;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What a reader may read of a .jfr file, and what it must say of the rest: the cheap checks ({@link JfrFileCheck}),
 * then the {@linkplain Chunks chunk walk}. A last chunk that runs past the end of the file (a JVM killed while writing)
 * is cut off with a warning, as is a chunk still being written (read up to its last flush); anything else out of place
 * is damage, named with its byte offset.
 */
final class ChunkScan {
    /** A chunk's size field above this (1 TiB) is damage, not a chunk cut short: no JVM writes chunks this large. */
    static final long IMPOSSIBLE_CHUNK = 1L << 40;

    private ChunkScan() {}

    /**
     * Scans {@code file}; a {@link BadRecordingException} says why it cannot be read. A format loomscope's parser does
     * not read is not walked: the prefix says so ({@link RecordingFile.Prefix#olderFormat}).
     */
    static RecordingFile.Prefix scan(Path file) throws BadRecordingException {
        String older = JfrFileCheck.olderFormat(file, JfrFileCheck.check(file));
        Path abs = file.toAbsolutePath();
        if (older != null) {
            return new RecordingFile.Prefix(0, 0, null, -1, new RecordingSpan(), older);
        }
        Chunks.Walk walk;
        try {
            walk = Chunks.walk(file);
        } catch (IOException e) {
            throw new BadRecordingException(abs + ": cannot read: " + e.getMessage() + " (check the file)", e);
        }
        RecordingSpan span = new RecordingSpan();
        int chunks = 0;
        for (Chunks.Chunk c : walk.chunks()) {
            ChunkHeader h = c.header();
            if (!h.clockIsSound()) {
                throw new BadRecordingException(abs + ": corrupted chunk at byte " + c.offset()
                        + " (its header's clock is not one: " + h.ticksPerSecond() + " ticks a second, starting at "
                        + h.startNanos() + " ns for " + h.durationNanos() + " ns; the file is damaged)");
            }
            span.addChunk(h.startNanos(), h.durationNanos());
            chunks++;
            if (!h.finished()) {
                // a chunk of a JVM that stopped (or was killed) while recording: its header
                // describes the data up to its last flush
                return new RecordingFile.Prefix(
                        c.end(),
                        chunks,
                        abs + ": the chunk at byte " + c.offset()
                                + " was still being written when its JVM stopped; read up to its last flush",
                        c.offset(),
                        span,
                        null);
            }
        }
        return switch (walk.end()) {
            case WHOLE -> new RecordingFile.Prefix(walk.at(), chunks, null, -1, span, null);
            case SHORT_HEADER ->
                truncated(abs, walk.at(), chunks, "a chunk header is cut short at byte " + walk.at(), span);
            case INCOMPLETE -> {
                if (walk.header() != null && walk.header().size() > IMPOSSIBLE_CHUNK) {
                    throw new BadRecordingException(abs + ": corrupted chunk at byte " + walk.at()
                            + " (its size field says " + walk.header().size()
                            + " bytes, more than any recording holds; the file is damaged)");
                }
                yield truncated(
                        abs, walk.at(), chunks, "the last chunk (at byte " + walk.at() + ") is incomplete", span);
            }
            case NO_MAGIC ->
                throw new BadRecordingException(abs + ": corrupted chunk at byte " + walk.at()
                        + " (no FLR magic where chunk " + (chunks + 1) + " should start; the file is damaged)");
            case BAD_SIZE ->
                throw new BadRecordingException(abs + ": corrupted chunk at byte " + walk.at() + " (size field says "
                        + walk.header().size() + " bytes; the file is damaged)");
        };
    }

    private static RecordingFile.Prefix truncated(Path abs, long offset, int chunks, String what, RecordingSpan span)
            throws BadRecordingException {
        if (chunks == 0) {
            throw new BadRecordingException(
                    abs + ": truncated: " + what + " and no chunk before it is complete (the JVM was stopped before the"
                            + " first chunk was written; a JFR repository of that JVM may hold more)");
        }
        return new RecordingFile.Prefix(
                offset,
                chunks,
                abs + ": truncated: " + what + "; using the " + chunks + " complete chunk" + (chunks == 1 ? "" : "s")
                        + " before it",
                -1,
                span,
                null);
    }
}
