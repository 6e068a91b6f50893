package dev.loomscope.recording;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;

/**
 * A chunk's bytes from the file into an array the reader walks, through mappings of the file (JDK
 * 22 and later): the page cache's pages are copied once, into the array, where a read copies them
 * into a direct buffer first and from there into the array (docs/benchmarks.md). A few megabytes
 * are mapped at a time and unmapped as their copy ends (their arena closed), so the process holds
 * no more of the file than that piece. A channel that cannot map (a file system that refuses, or
 * another provider's channel without the arena's {@code map}) is read ({@link Chunks#read}).
 */
final class ChunkBytes {
    /** Bytes mapped at a time. */
    private static final int PIECE = 4 << 20;

    private ChunkBytes() {}

    /** Copies {@code length} bytes of {@code ch} from {@code offset} into {@code into}; a file that ends before them is damage to chunk {@code number}. */
    static void copy(FileChannel ch, long offset, byte[] into, int length, int number) throws IOException {
        long size = ch.size();
        if (offset + length > size) {
            throw new DamagedRecordingException(number, offset, size, "the file ends inside the chunk", null);
        }
        for (int done = 0; done < length; done += PIECE) {
            int n = Math.min(PIECE, length - done);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment piece = ch.map(FileChannel.MapMode.READ_ONLY, offset + done, n, arena);
                MemorySegment.copy(piece, ValueLayout.JAVA_BYTE, 0, into, done, n);
            } catch (IOException | UnsupportedOperationException e) {
                // the mapping refused (only map throws these): the rest is read
                Chunks.read(ch, offset, offset + done, into, done, length - done, number);
                return;
            } catch (InternalError e) {
                // a page of the mapping went away as it was copied: the file was cut short while it was read
                throw new DamagedRecordingException(number, offset, offset + done, "the file was cut short while it was read", e);
            }
        }
    }
}
