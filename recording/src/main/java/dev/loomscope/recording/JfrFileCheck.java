package dev.loomscope.recording;

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
    /** Chunk format major versions: 1 (JDK 9 and 10: events named com.oracle.jdk.*), 2 (JDK 11 and later, async-profiler). */
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
        if (!Files.isRegularFile(abs)) {
            throw new BadRecordingException(abs + ": not a regular file (a pipe, device or socket is not read; save it to a file first)");
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
        if (n < 4 || !ChunkHeader.hasMagic(ByteBuffer.wrap(head), 0)) {
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
}
