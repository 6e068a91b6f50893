package dev.loomscope.flamegraphs.jfr;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The cheap checks before a .jfr is parsed: it exists, is a readable regular file, is not empty,
 * starts with the {@code FLR\0} magic and has a chunk format version this tool reads.
 */
public final class JfrFileCheck {
    /** Chunk format major versions: 1 (JDK 11-13 and async-profiler), 2 (JDK 14+). */
    static final int MIN_MAJOR = 1;
    static final int MAX_MAJOR = 2;

    private JfrFileCheck() {}

    /**
     * Checks {@code path}; throws with a message of the form {@code <absolute path>: <what> (<hint>)}.
     */
    public static void check(Path path) throws BadRecordingException {
        Path abs = path.toAbsolutePath();
        if (!Files.exists(abs)) {
            throw new BadRecordingException(abs + ": no such file (check the path)");
        }
        if (Files.isDirectory(abs)) {
            throw new BadRecordingException(abs + ": is a directory (name a .jfr file)");
        }
        if (!Files.isReadable(abs)) {
            throw new BadRecordingException(abs + ": not readable (check its permissions)");
        }
        byte[] head = new byte[ChunkHeader.SIZE];
        int n;
        try (InputStream in = Files.newInputStream(abs)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new BadRecordingException(abs + ": cannot read: " + e.getMessage() + " (check the file)");
        }
        if (n == 0) {
            throw new BadRecordingException(abs + ": empty file (the recording was never written; was the JVM killed?)");
        }
        if (n < 4 || head[0] != 'F' || head[1] != 'L' || head[2] != 'R' || head[3] != 0) {
            throw new BadRecordingException(abs + ": not a JFR recording (it does not start with FLR\\0)");
        }
        if (n < ChunkHeader.SIZE) {
            throw new BadRecordingException(abs + ": truncated inside the first chunk header (" + n + " bytes)");
        }
        ChunkHeader first = ChunkHeader.of(ByteBuffer.wrap(head), 0);
        if (first.major() < MIN_MAJOR || first.major() > MAX_MAJOR) {
            throw new UnsupportedVersionException(abs + ": JFR format version " + first.major() + "." + first.minor()
                    + " is not supported (this tool reads versions " + MIN_MAJOR + ".x to " + MAX_MAJOR + ".x)");
        }
    }

    /**
     * The length of the prefix of {@code path} made of whole chunks: a chunk still being written
     * (its size field a placeholder, or running past the end of the file) and what follows it are
     * left out. A file being appended to by its writer can be copied this far.
     */
    public static long completeChunksLength(Path path) throws IOException {
        return walk(path, Long.MAX_VALUE);
    }

    /**
     * Where the first whole chunk of {@code path} that ends at or after {@code epochNanos} begins
     * (its header's start time plus duration); the complete chunks' length if none does. A reader
     * of the recent events can skip what comes before.
     */
    public static long firstChunkEndingAfter(Path path, long epochNanos) throws IOException {
        return walk(path, epochNanos);
    }

    private static long walk(Path path, long stopAtEnd) throws IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.READ)) {
            long size = ch.size();
            long offset = 0;
            ByteBuffer header = ByteBuffer.allocate(ChunkHeader.SIZE);
            while (offset + ChunkHeader.SIZE <= size) {
                header.clear();
                if (ch.read(header, offset) < ChunkHeader.SIZE || !ChunkHeader.hasMagic(header, 0)) {
                    break;
                }
                ChunkHeader h = ChunkHeader.of(header, 0);
                if (h.size() < ChunkHeader.SIZE || offset + h.size() > size || h.endNanos() >= stopAtEnd) {
                    break;
                }
                offset += h.size();
            }
            return offset;
        }
    }
}
