package dev.loomscope.recording;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** The fast reader's innermost loop: past the events that are only counted, straight over the chunk's bytes. */
final class CountedEvents {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private CountedEvents() {}

    /**
     * Walks past the events from {@code pos} in the chunk that are only counted, through the chunk's window
     * ({@link ChunkMemory}), slid on as the walk leaves it; returns where the first event that needs more starts, as
     * {@link #skip(byte[], int, int, int, boolean, boolean[], long[])} decides, or the chunk's end.
     */
    static int skip(ChunkMemory m, int pos, boolean compressed, boolean[] onlyCounted, long[] countById) {
        while (pos < m.length) {
            if (pos < m.windowBase || pos > m.windowBase + m.windowLength - 16) {
                m.slide(pos);
            }
            int base = m.windowBase;
            int local = skip(m.window, pos - base, m.windowLength, m.length - base, compressed, onlyCounted, countById);
            pos = base + local;
            if (local <= m.windowLength - 16 || base + m.windowLength == m.length) {
                return pos; // an event this loop does not decide, or the chunk's last bytes
            }
        }
        return pos;
    }

    /**
     * Walks past the events at {@code pos} that are only counted, by their size and type; returns where the first event
     * that needs more starts (a wanted type, a checkpoint, the metadata), or anything this loop does not decide: an
     * implausible size (past {@code end}, the chunk's end), an unknown type, the last bytes of {@code a} ({@code limit}
     * of them; an event may run past them, and the position returned then lies past them too). The caller's slower walk
     * then decides, errors included. This loop runs once per event of the file (33 million in a big recording), so it
     * is small and reads the array directly.
     */
    private static int skip(
            byte[] a, int pos, int limit, int end, boolean compressed, boolean[] onlyCounted, long[] countById) {
        while (pos <= limit - 16) { // room for the two longest headers: neither read runs past the array
            int p = pos;
            int size;
            int type;
            if (compressed) {
                int b = a[p++];
                size = b & 0x7F;
                if (b < 0) {
                    b = a[p++];
                    size |= (b & 0x7F) << 7;
                    if (b < 0) {
                        b = a[p++];
                        size |= (b & 0x7F) << 14;
                        if (b < 0) {
                            b = a[p++];
                            size |= (b & 0x7F) << 21;
                            if (b < 0) {
                                return pos; // 256 MB and more: left to the slow walk
                            }
                        }
                    }
                }
                b = a[p++];
                type = b & 0x7F;
                if (b < 0) {
                    b = a[p++];
                    type |= (b & 0x7F) << 7;
                    if (b < 0) {
                        b = a[p];
                        type |= (b & 0x7F) << 14;
                        if (b < 0) {
                            return pos;
                        }
                    }
                }
            } else {
                size = (int) INT.get(a, p);
                long t = (long) LONG.get(a, p + 4);
                if (t < 0 || t >= onlyCounted.length) {
                    return pos;
                }
                type = (int) t;
            }
            if (size <= 0 || size > end - pos || type >= onlyCounted.length || !onlyCounted[type]) {
                return pos;
            }
            countById[type]++;
            pos += size;
        }
        return pos;
    }
}
