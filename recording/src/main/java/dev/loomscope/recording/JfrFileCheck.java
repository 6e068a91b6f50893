package dev.loomscope.recording;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The cheap checks before a .jfr is parsed: it exists, is a readable regular file, is not empty, starts with the
 * {@code FLR\0} magic; and whether its chunk format version is one loomscope's parser reads ({@link #olderFormat}).
 */
public final class JfrFileCheck {
    /**
     * Chunk format major versions: 1 (JDK 9 and 10: events named com.oracle.jdk.*), 2 (JDK 11 and later,
     * async-profiler).
     */
    static final int MIN_MAJOR = 1;

    static final int MAX_MAJOR = 2;

    private JfrFileCheck() {}

    /**
     * Checks {@code path}; throws with a message of the form {@code <absolute path>: <what> (<hint>)}. Answers the
     * first chunk's header.
     */
    public static ChunkHeader check(Path path) throws BadRecordingException {
        Path abs = path.toAbsolutePath();
        if (!Files.exists(abs)) {
            throw new BadRecordingException(abs + ": no such file (check the path)");
        }
        if (Files.isDirectory(abs)) {
            throw new BadRecordingException(abs + ": is a directory (name a .jfr file)");
        }
        notSpecial(abs);
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
            throw new BadRecordingException(
                    abs + ": empty file (the recording was never written; was the JVM killed?)");
        }
        if (n < 4 || !ChunkHeader.hasMagic(ByteBuffer.wrap(head), 0)) {
            throw new BadRecordingException(abs + ": not a JFR recording (it does not start with FLR\\0)");
        }
        if (n < ChunkHeader.SIZE) {
            throw new BadRecordingException(abs + ": truncated inside the first chunk header (" + n + " bytes)");
        }
        return ChunkHeader.of(ByteBuffer.wrap(head), 0);
    }

    /**
     * A pipe, device or socket at {@code path} is not read (what is read from it is gone); a regular file, a directory
     * or nothing passes.
     */
    static void notSpecial(Path path) throws BadRecordingException {
        Path abs = path.toAbsolutePath();
        if (Files.exists(abs) && !Files.isRegularFile(abs) && !Files.isDirectory(abs)) {
            throw new BadRecordingException(
                    abs + ": not a regular file (a pipe, device or socket is not read; save it to a file first)");
        }
    }

    /**
     * Why loomscope's parser does not read {@code file}, whose first chunk has header {@code first} (JFR 0.x of JDK 7
     * and 8, or a version newer than it knows), or null when it does.
     */
    public static String olderFormat(Path file, ChunkHeader first) {
        if (first.major() >= MIN_MAJOR && first.major() <= MAX_MAJOR) {
            return null;
        }
        return file.toAbsolutePath() + ": JFR format version " + first.major() + "." + first.minor()
                + " is not supported (this tool reads versions " + MIN_MAJOR + ".x to " + MAX_MAJOR + ".x)";
    }
}
