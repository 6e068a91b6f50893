package dev.loomscope.analyzer.fleet;

import java.io.IOException;
import java.util.Arrays;

/**
 * Snappy's raw block format (what Parquet pages hold) in plain Java: no native library to extract and load, on every
 * platform a JDK runs. The compressor is the format's greedy one (4-byte matches found through a hash table, 64 KB
 * blocks, so every copy's offset fits two bytes); the decompressor reads any valid block, whoever wrote it, and refuses
 * a damaged one.
 */
final class Snappy {
    private static final int BLOCK = 1 << 16;
    private static final int HASH_BITS = 14;

    private Snappy() {}

    /** Thrown for bytes that are not a whole Snappy block. */
    static final class CorruptException extends IOException {
        CorruptException(String why) {
            super("a damaged Snappy page: " + why);
        }
    }

    static byte[] compress(byte[] in) {
        byte[] out = new byte[32 + in.length + in.length / 6];
        int o = varint(out, 0, in.length);
        int[] table = new int[1 << HASH_BITS];
        for (int block = 0; block < in.length; block += BLOCK) {
            int end = Math.min(in.length, block + BLOCK);
            Arrays.fill(table, -1);
            int literal = block;
            int i = block;
            while (i + 4 <= end) {
                int word = int32(in, i);
                int h = (word * 0x1e35a7bd) >>> (32 - HASH_BITS);
                int candidate = table[h];
                table[h] = i;
                if (candidate >= block && int32(in, candidate) == word) {
                    o = literal(in, literal, i - literal, out, o);
                    int length = 4;
                    while (i + length < end && in[candidate + length] == in[i + length]) {
                        length++;
                    }
                    o = copy(i - candidate, length, out, o);
                    i += length;
                    literal = i;
                } else {
                    i++;
                }
            }
            o = literal(in, literal, end - literal, out, o);
        }
        return Arrays.copyOf(out, o);
    }

    /** The block's uncompressed length as its preamble states it. */
    static int uncompressedLength(byte[] in) throws CorruptException {
        long n = 0;
        for (int i = 0, shift = 0; i < in.length && shift <= 28; i++, shift += 7) {
            n |= (long) (in[i] & 0x7f) << shift;
            if ((in[i] & 0x80) == 0) {
                if (n > Integer.MAX_VALUE) {
                    break;
                }
                return (int) n;
            }
        }
        throw new CorruptException("no valid length at its start");
    }

    /** Decompresses a whole block into {@code out}, which must have exactly its uncompressed length. */
    static void uncompress(byte[] in, byte[] out) throws CorruptException {
        int n = uncompressedLength(in);
        if (n != out.length) {
            throw new CorruptException("it holds " + n + " bytes, the page header says " + out.length);
        }
        int i = 0;
        while ((in[i++] & 0x80) != 0) {
            // the preamble, read above
        }
        int o = 0;
        while (i < in.length) {
            int tag = in[i++] & 0xff;
            int length;
            int offset;
            switch (tag & 3) {
                case 0 -> {
                    length = tag >>> 2;
                    if (length >= 60) {
                        int bytes = length - 59;
                        need(in, i, bytes);
                        length = (int) littleEndian(in, i, bytes);
                        i += bytes;
                    }
                    length++;
                    if (length <= 0 || length > in.length - i || length > n - o) {
                        throw new CorruptException(
                                "a literal of " + Integer.toUnsignedString(length) + " bytes runs past its end");
                    }
                    System.arraycopy(in, i, out, o, length);
                    i += length;
                    o += length;
                    continue;
                }
                case 1 -> {
                    need(in, i, 1);
                    length = 4 + ((tag >>> 2) & 7);
                    offset = ((tag >>> 5) << 8) | (in[i++] & 0xff);
                }
                case 2 -> {
                    need(in, i, 2);
                    length = (tag >>> 2) + 1;
                    offset = (int) littleEndian(in, i, 2);
                    i += 2;
                }
                default -> {
                    need(in, i, 4);
                    length = (tag >>> 2) + 1;
                    long far = littleEndian(in, i, 4);
                    offset = far > Integer.MAX_VALUE ? 0 : (int) far;
                    i += 4;
                }
            }
            if (offset <= 0 || offset > o || length > n - o) {
                throw new CorruptException(
                        "a copy of " + length + " bytes from " + offset + " back, at output byte " + o);
            }
            for (int k = 0; k < length; k++, o++) { // byte by byte: a copy may overlap what it writes
                out[o] = out[o - offset];
            }
        }
        if (o != n) {
            throw new CorruptException("it ends after " + o + " of its " + n + " bytes");
        }
    }

    private static void need(byte[] in, int at, int bytes) throws CorruptException {
        if (at + bytes > in.length) {
            throw new CorruptException("it ends inside an element");
        }
    }

    private static long littleEndian(byte[] in, int at, int bytes) {
        long v = 0;
        for (int k = 0; k < bytes; k++) {
            v |= (long) (in[at + k] & 0xff) << (8 * k);
        }
        return v;
    }

    private static int int32(byte[] in, int at) {
        return (in[at] & 0xff) | (in[at + 1] & 0xff) << 8 | (in[at + 2] & 0xff) << 16 | (in[at + 3] & 0xff) << 24;
    }

    private static int varint(byte[] out, int o, int v) {
        while ((v & ~0x7f) != 0) {
            out[o++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out[o++] = (byte) v;
        return o;
    }

    private static int literal(byte[] in, int from, int length, byte[] out, int o) {
        if (length == 0) {
            return o;
        }
        int n = length - 1;
        if (n < 60) {
            out[o++] = (byte) (n << 2);
        } else {
            int bytes = n < 1 << 8 ? 1 : n < 1 << 16 ? 2 : n < 1 << 24 ? 3 : 4;
            out[o++] = (byte) ((59 + bytes) << 2);
            for (int k = 0; k < bytes; k++) {
                out[o++] = (byte) (n >>> (8 * k));
            }
        }
        System.arraycopy(in, from, out, o, length);
        return o + length;
    }

    /** A match as copies of at most 64 bytes each; every offset is below 64 KB (one block). */
    private static int copy(int offset, int length, byte[] out, int o) {
        while (length >= 68) {
            o = copy2(offset, 64, out, o);
            length -= 64;
        }
        if (length > 64) {
            o = copy2(offset, 60, out, o);
            length -= 60;
        }
        if (length <= 11 && offset < 2048) {
            out[o++] = (byte) (1 | (length - 4) << 2 | (offset >>> 8) << 5);
            out[o++] = (byte) offset;
            return o;
        }
        return copy2(offset, length, out, o);
    }

    private static int copy2(int offset, int length, byte[] out, int o) {
        out[o++] = (byte) (2 | (length - 1) << 2);
        out[o++] = (byte) offset;
        out[o++] = (byte) (offset >>> 8);
        return o;
    }
}
