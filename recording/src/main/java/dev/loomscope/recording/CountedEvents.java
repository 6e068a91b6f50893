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
     * Walks past the events at {@code pos} that are only counted, by their size and type; returns
     * where the first event that needs more starts (a wanted type, a checkpoint, the metadata), or
     * anything this loop does not decide: an implausible size, an unknown type, the chunk's last
     * bytes. The caller's slower walk then decides, errors included. This loop runs once per event
     * of the file (33 million in a big recording), so it is small and reads the array directly.
     */
    static int skip(byte[] a, int pos, int limit, boolean compressed, boolean[] onlyCounted, long[] countById) {
        while (pos <= limit - 16) { // room for the two longest headers: neither read runs past the chunk
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
            if (size <= 0 || size > limit - pos || type >= onlyCounted.length || !onlyCounted[type]) {
                return pos;
            }
            countById[type]++;
            pos += size;
        }
        return pos;
    }
}
