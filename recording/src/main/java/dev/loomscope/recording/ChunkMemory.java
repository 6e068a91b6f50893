package dev.loomscope.recording;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * One chunk's bytes as its reader sees them: an array indexed by the offset in the chunk, holding the bytes something
 * reads. Where the file can be mapped (JDK 22 and later, {@link ChunkBytes}), a page is copied from the mapping into
 * the array the first time a {@link Cursor} reaches it, and the walk past the events that are only counted reads a
 * small window instead: the bulk of a chunk (those events, and the constant pools nobody asks for) never reaches the
 * array, and the window's copy stays in the processor's cache: the reading threads' time on the 1.2 GB recording of
 * docs/benchmarks.md fell by a quarter. Elsewhere the chunk is read into the array whole and the window is the array.
 * Bytes of the array not yet copied are never read: every read goes through {@link #present}, which refuses once the
 * chunk is given back.
 */
final class ChunkMemory implements AutoCloseable {
    /** A chunk's bytes in the file, where they can be copied from piece by piece. */
    interface Mapping {
        /** Copies {@code n} bytes from offset {@code from} in the chunk into {@code into} from {@code at}. */
        void copy(int from, byte[] into, int at, int n);

        /** Gives the mapping back (again: nothing); nothing is copied after. */
        void close();
    }

    /**
     * A chunk's bytes read after it was given back: an event kept past its hand-over (a sink keeps none;
     * {@link JfrParser}). A bug of the caller's.
     */
    static final class HandedOnException extends IllegalStateException {
        HandedOnException(int number) {
            super("chunk " + number
                    + "'s bytes were read after its events were handed on (an event kept past the parser's sink)");
        }
    }

    private static final int PAGE_SHIFT = 12;
    /** The window's size: it and the counting walk's few arrays stay in a core's cache. */
    private static final int WINDOW = 128 << 10;

    /** The chunk's bytes (those copied so far) from index 0; may be longer than the chunk. */
    final byte[] array;
    /** The chunk's length. */
    final int length;

    private final Mapping mapping;
    private final int number;
    /** Pages (4 KB) of the array copied, a bit each; null when the array holds the whole chunk. */
    private final long[] copied;
    /** The counting walk's view: {@link #windowLength} bytes of the chunk from {@link #windowBase}. */
    final byte[] window;

    int windowBase;
    int windowLength;
    /** Given back (set by the thread that hands the events on or unmaps, read by the one an event is resolved on). */
    private volatile boolean closed;

    private ChunkMemory(byte[] array, int length, Mapping mapping, int number) {
        this.array = array;
        this.length = length;
        this.mapping = mapping;
        this.number = number;
        if (mapping == null) {
            copied = null;
            window = array;
            windowLength = length;
        } else {
            copied = new long[((length - 1) >>> PAGE_SHIFT >>> 6) + 1];
            window = new byte[Math.min(WINDOW, length)];
        }
    }

    /**
     * Chunk {@code number}'s {@code length} bytes of {@code ch} from {@code offset}, held in {@code into} (at least
     * that long); a file that ends before them is damage.
     */
    static ChunkMemory open(FileChannel ch, long offset, byte[] into, int length, int number) throws IOException {
        long size = ch.size();
        if (offset + length > size) {
            throw new DamagedRecordingException(number, offset, size, "the file ends inside the chunk", null);
        }
        Mapping mapping = ChunkBytes.map(ch, offset, length, number);
        if (mapping == null) {
            Chunks.read(ch, offset, offset, into, 0, length, number);
            return new ChunkMemory(into, length, null, number);
        }
        return new ChunkMemory(into, length, mapping, number);
    }

    /** A chunk held whole: its {@code length} bytes in {@code bytes} from index 0. */
    static ChunkMemory whole(byte[] bytes, int length) {
        return new ChunkMemory(bytes, length, null, 1);
    }

    /**
     * Makes the chunk's bytes from {@code from} to {@code from + n} present in {@link #array} (the range within the
     * chunk; {@code n} may be 0, an empty string's); returns where the bytes known present from {@code from} on end: at
     * least {@code from + n}.
     */
    int present(int from, int n) {
        if (closed) {
            throw new HandedOnException(number); // its buffer may hold another chunk's bytes by now
        }
        if (copied == null) {
            return length; // held whole
        }
        if (n <= 0) {
            return from;
        }
        int last = (from + n - 1) >>> PAGE_SHIFT;
        for (int page = from >>> PAGE_SHIFT; page <= last; page++) {
            if ((copied[page >>> 6] & 1L << page) == 0) {
                int at = page << PAGE_SHIFT;
                mapping.copy(at, array, at, Math.min(1 << PAGE_SHIFT, length - at));
                copied[page >>> 6] |= 1L << page;
            }
        }
        return (int) Math.min(length, (long) (last + 1) << PAGE_SHIFT); // (a chunk's last page may end at 2 GB)
    }

    /** Moves the window to start at {@code at}, within the chunk (nothing to do when the window is the whole chunk). */
    void slide(int at) {
        if (copied == null) {
            return;
        }
        windowBase = at;
        windowLength = Math.min(window.length, length - at);
        mapping.copy(at, window, 0, windowLength);
    }

    /**
     * Gives the chunk's bytes back: nothing reads them after (its array may hold another chunk's by then);
     * {@link #close} unmaps.
     */
    void handOver() {
        closed = true;
    }

    /** Gives the chunk back and unmaps it (again: nothing more). */
    @Override
    public void close() {
        closed = true;
        if (mapping != null) {
            mapping.close();
        }
    }
}
