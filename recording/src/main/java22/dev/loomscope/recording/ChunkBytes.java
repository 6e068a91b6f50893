package dev.loomscope.recording;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;

/**
 * A chunk's bytes through a mapping of the file (JDK 22 and later): {@link ChunkMemory} copies from it only what is
 * read, each byte once, where a read copies every byte twice (into a direct buffer, then the array). The mapping is a
 * shared arena's (the chunk is walked on a reading thread and its constant pools read on the thread its events go to),
 * unmapped when the chunk is done with. A channel that cannot map (a file system that refuses, or another provider's
 * channel without the arena's {@code map}) gives none, and the chunk is read.
 */
record ChunkBytes(Arena arena, MemorySegment segment, int number, long offset) implements ChunkMemory.Mapping {
    /**
     * Chunk {@code number}'s {@code length} bytes of {@code ch} from {@code offset}, mapped; null when the channel
     * cannot map.
     */
    static ChunkMemory.Mapping map(FileChannel ch, long offset, int length, int number) {
        Arena arena = Arena.ofShared();
        try {
            return new ChunkBytes(arena, ch.map(FileChannel.MapMode.READ_ONLY, offset, length, arena), number, offset);
        } catch (IOException | UnsupportedOperationException e) {
            // the mapping refused (only map throws these)
            arena.close();
            return null;
        }
    }

    @Override
    public void copy(int from, byte[] into, int at, int n) {
        try {
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, from, into, at, n);
        } catch (InternalError e) {
            // a page of the mapping went away as it was copied: the file was cut short while it was read
            throw new DamagedRecordingException(
                    number, offset, offset + from, "the file was cut short while it was read", e);
        }
    }

    @Override
    public synchronized void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
