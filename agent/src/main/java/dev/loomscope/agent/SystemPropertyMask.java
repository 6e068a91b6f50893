package dev.loomscope.agent;

import dev.loomscope.recording.ChunkHeader;
import dev.loomscope.recording.Chunks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * async-profiler's own JFR output always carries the JVM's system properties (jdk.InitialSystemProperty, which may hold
 * secrets). Unless the user asked for them ({@code record-env=on}), their values are overwritten in place with '*' of
 * the same length, so the file's layout stays valid. Records are walked by their size fields; anything not exactly as
 * expected is left alone.
 */
final class SystemPropertyMask {
    /** async-profiler's fixed type id of jdk.InitialSystemProperty. */
    static final long TYPE = 112;

    private static final byte UTF8 = 3;
    private static final byte LATIN1 = 5;

    private SystemPropertyMask() {}

    /** Returns how many values were masked. */
    static int mask(Path file) throws IOException {
        int masked = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) {
                return 0; // a profile this large is not ours to rewrite in memory
            }
            ByteBuffer buf = ByteBuffer.allocate((int) size);
            while (buf.hasRemaining() && ch.read(buf) >= 0) {
                // fill
            }
            byte[] b = buf.array();
            for (Chunks.Chunk c : Chunks.walk(ByteBuffer.wrap(b)).chunks()) {
                masked += maskChunk(b, (int) c.offset(), (int) c.end());
            }
            if (masked > 0) {
                ch.write(ByteBuffer.wrap(b), 0);
            }
        }
        return masked;
    }

    private static int maskChunk(byte[] b, int start, int end) {
        int masked = 0;
        int[] pos = {start + ChunkHeader.SIZE};
        while (pos[0] < end) {
            int recordStart = pos[0];
            long recordSize = varint(b, pos, end);
            if (recordSize <= 0 || recordStart + recordSize > end) {
                return masked;
            }
            int recordEnd = (int) (recordStart + recordSize);
            if (varint(b, pos, recordEnd) == TYPE) {
                varint(b, pos, recordEnd); // start ticks
                if (skipString(b, pos, recordEnd) && maskString(b, pos, recordEnd)) {
                    masked++;
                }
            }
            pos[0] = recordEnd;
        }
        return masked;
    }

    private static boolean skipString(byte[] b, int[] pos, int end) {
        if (pos[0] >= end) {
            return false;
        }
        byte enc = b[pos[0]++];
        if (enc == UTF8 || enc == LATIN1) {
            long len = varint(b, pos, end);
            pos[0] += (int) len;
            return len >= 0 && pos[0] <= end;
        }
        return enc == 0 || enc == 1;
    }

    private static boolean maskString(byte[] b, int[] pos, int end) {
        if (pos[0] >= end) {
            return false;
        }
        byte enc = b[pos[0]++];
        if (enc != UTF8 && enc != LATIN1) {
            return false;
        }
        long len = varint(b, pos, end);
        if (len < 0 || pos[0] + len > end) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            b[pos[0] + i] = '*';
        }
        return true;
    }

    /** A JFR varint (7 bits a byte, low first, up to 9 bytes); -1 past {@code end}. */
    static long varint(byte[] b, int[] pos, int end) {
        long v = 0;
        for (int shift = 0; shift < 63 && pos[0] < end; shift += 7) {
            byte x = b[pos[0]++];
            if (shift == 56) {
                return v | ((long) (x & 0xff) << 56);
            }
            v |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                return v;
            }
        }
        return -1;
    }
}
