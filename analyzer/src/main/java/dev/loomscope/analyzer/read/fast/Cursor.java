package dev.loomscope.analyzer.read.fast;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads JFR's encodings from a buffer holding one chunk: LEB128-style variable-length integers
 * when the chunk compresses them, big-endian fixed-width ones otherwise; strings with their
 * encoding byte. Positions are offsets into the chunk.
 */
final class Cursor {
    final ByteBuffer buf;
    final boolean compressed;
    int pos;

    Cursor(ByteBuffer buf, boolean compressed, int pos) {
        this.buf = buf;
        this.compressed = compressed;
        this.pos = pos;
    }

    byte readByte() {
        return buf.get(pos++);
    }

    /** Moves {@code n} bytes on; a length that is negative or runs past the chunk is damage. */
    void skip(int n) {
        if (n < 0 || n > buf.limit() - pos) {
            throw new IllegalStateException("a length of " + n + " bytes, and " + (buf.limit() - pos) + " are left in the chunk");
        }
        pos += n;
    }

    /**
     * Checks a count read from the file before anything is sized by it: {@code n} items of at least
     * {@code minBytes} each must fit in what is left of the chunk.
     */
    void checkCount(int n, int minBytes) {
        if (n < 0 || (long) n * minBytes > buf.limit() - pos) {
            throw new IllegalStateException("a count of " + n + ", more than the " + (buf.limit() - pos) + " bytes left in the chunk can hold");
        }
    }

    long varlong() {
        long v = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            byte b = buf.get(pos++);
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return v;
            }
        }
        return v | (long) (buf.get(pos++) & 0xFF) << 56; // the ninth byte carries 8 bits
    }

    int readInt() {
        if (compressed) {
            return (int) varlong();
        }
        int v = buf.getInt(pos);
        pos += 4;
        return v;
    }

    long readLong() {
        if (compressed) {
            return varlong();
        }
        long v = buf.getLong(pos);
        pos += 8;
        return v;
    }

    short readShort() {
        if (compressed) {
            return (short) varlong();
        }
        short v = buf.getShort(pos);
        pos += 2;
        return v;
    }

    char readChar() {
        if (compressed) {
            return (char) varlong();
        }
        char v = buf.getChar(pos);
        pos += 2;
        return v;
    }

    float readFloat() {
        float v = buf.getFloat(pos);
        pos += 4;
        return v;
    }

    double readDouble() {
        double v = buf.getDouble(pos);
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
            case 0, 1 -> { }
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
        byte[] b = new byte[len];
        buf.get(pos, b);
        pos += len;
        return b;
    }

    /** A reference into a constant pool, resolved when the chunk's pools are known. */
    record PoolRef(long typeId, long id) {}
}
