package dev.loomscope.recording;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A chunk's bytes from the file into an array the reader walks. JDK 21: read ({@link Chunks#read}).
 * JDK 22 and later copy them from a mapping of the file instead (the version in {@code java22}):
 * one copy, where a read makes two.
 */
final class ChunkBytes {
    private ChunkBytes() {}

    /** Copies {@code length} bytes of {@code ch} from {@code offset} into {@code into}; a file that ends before them is damage to chunk {@code number}. */
    static void copy(FileChannel ch, long offset, byte[] into, int length, int number) throws IOException {
        Chunks.read(ch, offset, offset, into, 0, length, number);
    }
}
