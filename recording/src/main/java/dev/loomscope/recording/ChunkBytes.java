package dev.loomscope.recording;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A chunk's bytes from the file into an array the reader walks. JDK 21: read a megabyte at a time
 * (a read into an array goes through a direct buffer of the read's size, made per thread and made
 * again when a read is larger: a piece at a time keeps that one small buffer warm). JDK 22 and
 * later map the chunk instead (the version in {@code java22}): one copy, not two.
 */
final class ChunkBytes {
    /** Bytes a read asks for at a time. */
    private static final int READ_PIECE = 1 << 20;

    private ChunkBytes() {}

    /** Copies {@code length} bytes of {@code ch} from {@code offset} into {@code into}; a file that ends before them is damage to chunk {@code number}. */
    static void copy(FileChannel ch, long offset, byte[] into, int length, int number) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(into, 0, length);
        while (buf.position() < length) {
            buf.limit(Math.min(length, buf.position() + READ_PIECE));
            if (ch.read(buf, offset + buf.position()) < 0) {
                throw new DamagedRecordingException(number, offset, offset + buf.position(), "the file ends inside the chunk", null);
            }
        }
    }
}
