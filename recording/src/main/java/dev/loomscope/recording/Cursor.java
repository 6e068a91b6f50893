package dev.loomscope.recording;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads JFR's encodings from a buffer holding one chunk: LEB128-style variable-length integers when the chunk
 * compresses them, big-endian fixed-width ones otherwise; strings with their encoding byte. Positions are offsets into
 * the chunk. Reads the chunk's array directly (this runs once per event of the file), as far as its bytes are known
 * present ({@link ChunkMemory}), and asks for more there; an index past the end is an exception, never a wrong value.
 */
final class Cursor {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle CHAR = MethodHandles.byteArrayViewVarHandle(char[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.BIG_ENDIAN);

    private final ChunkMemory memory;
    private final byte[] a;
    private final int limit;
    /** Where the bytes known present in {@link #a} from {@link #pos} on end (the cursor only moves on). */
    private int present;

    final boolean compressed;
    int pos;

    /** A cursor over one chunk's bytes, from {@code pos}. */
    Cursor(ChunkMemory memory, boolean compressed, int pos) {
        this.memory = memory;
        this.a = memory.array;
        this.limit = memory.length;
        this.present = pos;
        this.compressed = compressed;
        this.pos = pos;
    }

    /** The chunk's bytes from {@code from} to {@code to} (within the chunk), at their offsets in the array returned. */
    byte[] array(int from, int to) {
        if (to > from) {
            memory.present(from, to - from);
        }
        return a;
    }

    /** Where the chunk ends. */
    int limit() {
        return limit;
    }

    byte readByte() {
        if (pos >= present) {
            more(1);
        }
        return a[pos++];
    }

    /** Makes the next {@code n} bytes present; fewer left in the chunk is an exception. */
    private void more(int n) {
        if (n > limit - pos) {
            throw new IndexOutOfBoundsException(pos);
        }
        present = memory.present(pos, n);
    }

    /** Moves {@code n} bytes on; a length that is negative or runs past the chunk is damage. */
    void skip(int n) {
        if (n < 0 || n > limit - pos) {
            throw new IllegalStateException(
                    "a length of " + n + " bytes, and " + (limit - pos) + " are left in the chunk");
        }
        pos += n;
    }

    /**
     * Checks a count read from the file before anything is sized by it: {@code n} items of at least {@code minBytes}
     * each must fit in what is left of the chunk.
     */
    void checkCount(int n, int minBytes) {
        if (n < 0 || (long) n * minBytes > limit - pos) {
            throw new IllegalStateException(
                    "a count of " + n + ", more than the " + (limit - pos) + " bytes left in the chunk can hold");
        }
    }

    /** The array, once {@code n} bytes from pos are known to lie in the chunk. */
    private byte[] checked(int n) {
        if (n > present - pos) {
            more(n);
        }
        return a;
    }

    long varlong() {
        long v = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            byte b = readByte();
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        return v | (long) (readByte() & 0xFF) << 56; // the ninth byte carries 8 bits
    }

    int readInt() {
        if (compressed) {
            return (int) varlong();
        }
        int v = (int) INT.get(checked(4), pos);
        pos += 4;
        return v;
    }

    long readLong() {
        if (compressed) {
            return varlong();
        }
        long v = (long) LONG.get(checked(8), pos);
        pos += 8;
        return v;
    }

    short readShort() {
        if (compressed) {
            return (short) varlong();
        }
        short v = (short) SHORT.get(checked(2), pos);
        pos += 2;
        return v;
    }

    char readChar() {
        if (compressed) {
            return (char) varlong();
        }
        char v = (char) CHAR.get(checked(2), pos);
        pos += 2;
        return v;
    }

    float readFloat() {
        float v = (float) FLOAT.get(checked(4), pos);
        pos += 4;
        return v;
    }

    double readDouble() {
        double v = (double) DOUBLE.get(checked(8), pos);
        pos += 8;
        return v;
    }

    /** A string; encoding 2 (a reference into the String constant pool) comes back as a {@link PoolRef}. */
    Object readString(long stringTypeId) {
        byte enc = readByte();
        switch (enc) {
            case 0:
                return null;
            case 1:
                return "";
            case 2:
                return new PoolRef(stringTypeId, readLong());
            case 3: {
                int len = readInt();
                String s = new String(bytes(len), StandardCharsets.UTF_8);
                return s;
            }
            case 4: {
                int len = readInt();
                checkCount(len, 1);
                char[] c = new char[len];
                for (int i = 0; i < len; i++) {
                    c[i] = readChar();
                }
                return new String(c);
            }
            case 5: {
                int len = readInt();
                return new String(bytes(len), StandardCharsets.ISO_8859_1);
            }
            default:
                throw new IllegalStateException("unknown string encoding " + enc);
        }
    }

    /** Moves past a string without building it. */
    void skipString() {
        byte enc = readByte();
        switch (enc) {
            case 0, 1 -> {}
            case 2 -> readLong();
            case 3, 5 -> skip(readInt());
            case 4 -> {
                int len = readInt();
                checkCount(len, 1);
                for (int i = 0; i < len; i++) {
                    readChar();
                }
            }
            default -> throw new IllegalStateException("unknown string encoding " + enc);
        }
    }

    private byte[] bytes(int len) {
        checkCount(len, 1);
        checked(len);
        byte[] b = new byte[len];
        System.arraycopy(a, pos, b, 0, len);
        pos += len;
        return b;
    }

    /** A reference into a constant pool, resolved when the chunk's pools are known. */
    record PoolRef(long typeId, long id) {}
}
