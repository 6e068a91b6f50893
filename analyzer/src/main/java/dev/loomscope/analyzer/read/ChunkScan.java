package dev.loomscope.analyzer.read;

import dev.loomscope.analyzer.errors.BadDataException;
import dev.loomscope.flamegraphs.jfr.BadRecordingException;
import dev.loomscope.flamegraphs.jfr.ChunkHeader;
import dev.loomscope.flamegraphs.jfr.JfrFileCheck;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Walks the chunk headers of a .jfr file before the parser sees it: each chunk starts with
 * {@code FLR\0}, a version and its size. A last chunk that runs past the end of the file (a JVM
 * killed while writing) is cut off with a warning; anything else out of place is corruption,
 * reported with its byte offset. Sizes are checked against the file, never trusted for allocation.
 */
public final class ChunkScan {
    /**
     * @param completeBytes length of the prefix to read
     * @param chunks        chunks in that prefix
     * @param warning       what was left out, or null
     * @param unfinishedAt  offset of a last chunk that was still being written (its data up to the
     *                      last flush is readable once marked finished), or -1
     * @param span          the time those chunks cover, from their headers
     */
    public record Result(long completeBytes, int chunks, String warning, long unfinishedAt, RecordingSpan span) {}

    private ChunkScan() {}

    public static Result scan(Path file) {
        try {
            JfrFileCheck.check(file);
        } catch (dev.loomscope.flamegraphs.jfr.UnsupportedVersionException e) {
            throw new ParserRejectedException(e.getMessage(), e);
        } catch (BadRecordingException e) {
            throw new BadDataException(e.getMessage(), e);
        }
        Path abs = file.toAbsolutePath();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long offset = 0;
            int chunks = 0;
            ByteBuffer header = ByteBuffer.allocate(ChunkHeader.SIZE);
            RecordingSpan span = new RecordingSpan();
            while (offset < size) {
                header.clear();
                int n = ch.read(header, offset);
                if (n < ChunkHeader.SIZE) {
                    return truncated(abs, offset, chunks, "a chunk header is cut short at byte " + offset, span);
                }
                header.flip();
                if (!ChunkHeader.hasMagic(header, 0)) {
                    throw new BadDataException(abs + ": corrupted chunk at byte " + offset
                            + " (no FLR magic where chunk " + (chunks + 1) + " should start; the file is damaged)");
                }
                ChunkHeader h = ChunkHeader.of(header, 0);
                long chunkSize = h.size();
                if (chunkSize == 0 || offset + chunkSize > size) {
                    return truncated(abs, offset, chunks, "the last chunk (at byte " + offset + ") is incomplete", span);
                }
                if (chunkSize < ChunkHeader.SIZE) {
                    throw new BadDataException(abs + ": corrupted chunk at byte " + offset + " (size field says " + chunkSize
                            + " bytes; the file is damaged)");
                }
                if (!h.clockIsSound()) {
                    throw new BadDataException(abs + ": corrupted chunk at byte " + offset + " (its header's clock is not one: " + h.ticksPerSecond()
                            + " ticks a second, starting at " + h.startNanos() + " ns for " + h.durationNanos() + " ns; the file is damaged)");
                }
                span.addChunk(h.startNanos(), h.durationNanos());
                if (!h.finished()) {
                    // a chunk of a JVM that stopped (or was killed) while recording: its header
                    // describes the data up to its last flush
                    return new Result(offset + chunkSize, chunks + 1, abs + ": the chunk at byte " + offset
                            + " was still being written when its JVM stopped; read up to its last flush", offset, span);
                }
                offset += chunkSize;
                chunks++;
            }
            return new Result(size, chunks, null, -1, span);
        } catch (IOException e) {
            throw new BadDataException(abs + ": cannot read: " + e.getMessage() + " (check the file)", e);
        }
    }

    private static Result truncated(Path abs, long offset, int chunks, String what, RecordingSpan span) {
        if (chunks == 0) {
            throw new BadDataException(abs + ": truncated: " + what + " and no chunk before it is complete"
                    + " (the JVM was stopped before the first chunk was written; a JFR repository of that JVM may hold more)");
        }
        return new Result(offset, chunks, abs + ": truncated: " + what + "; using the " + chunks + " complete chunk"
                + (chunks == 1 ? "" : "s") + " before it", -1, span);
    }
}
