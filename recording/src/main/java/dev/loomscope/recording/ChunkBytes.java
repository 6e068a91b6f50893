package dev.loomscope.recording;

import java.nio.channels.FileChannel;

/**
 * Where a chunk's bytes are mapped from (JDK 22 and later, the version in {@code java22}). JDK 21 maps nothing: the
 * arena that unmaps a mapping is a preview API there, and a mapping left to the garbage collector keeps the pages read
 * in the process. Its chunks are read whole ({@link ChunkMemory}).
 */
final class ChunkBytes {
    private ChunkBytes() {}

    /** No mapping: the chunk is read. */
    static ChunkMemory.Mapping map(FileChannel ch, long offset, int length, int number) {
        return null;
    }
}
