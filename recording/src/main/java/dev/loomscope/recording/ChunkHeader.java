package dev.loomscope.recording;

import java.nio.ByteBuffer;

/**
 * A JFR chunk's 68-byte header, the one place its layout is read (the agent's, the flame graphs' and the analyzer's
 * chunk walks all go through it): magic {@code FLR\0}, format version, the chunk's size, where its constant pools and
 * metadata start, its start and duration in epoch nanoseconds, its clock (start ticks, ticks a second), whether it was
 * finished, and whether its integers are compressed. Values are as written; checking them is the walker's job.
 */
public record ChunkHeader(
        int major,
        int minor,
        long size,
        long constantPoolOffset,
        long metadataOffset,
        long startNanos,
        long durationNanos,
        long startTicks,
        long ticksPerSecond,
        boolean finished,
        boolean compressedIntegers) {
    /** The header's length: a chunk's events start right after it. */
    public static final int SIZE = 68;

    /** {@code FLR\0}, big-endian. */
    public static final int MAGIC = 0x464C5200;

    /** The byte that is 0 once the chunk is finished (the JVM writes another value while it writes the chunk). */
    public static final int STATE_BYTE = 64;

    /** The byte whose lowest bit says the chunk's integers are compressed (LEB128). */
    static final int FLAGS_BYTE = 67;

    /** Whether {@code b} holds a chunk's magic at {@code at}. */
    public static boolean hasMagic(ByteBuffer b, int at) {
        return b.getInt(at) == MAGIC;
    }

    /** The header at {@code at} of {@code b} (big-endian, as JFR writes it); the magic is not checked. */
    public static ChunkHeader of(ByteBuffer b, int at) {
        return new ChunkHeader(
                b.getShort(at + 4),
                b.getShort(at + 6),
                b.getLong(at + 8),
                b.getLong(at + 16),
                b.getLong(at + 24),
                b.getLong(at + 32),
                b.getLong(at + 40),
                b.getLong(at + 48),
                b.getLong(at + 56),
                b.get(at + STATE_BYTE) == 0,
                (b.get(at + FLAGS_BYTE) & 1) != 0);
    }

    /** The chunk's end, in epoch nanoseconds. */
    public long endNanos() {
        return startNanos + durationNanos;
    }

    /** Whether the header's clock is one: ticks a second above zero, start and duration not negative. */
    public boolean clockIsSound() {
        return ticksPerSecond > 0 && startNanos >= 0 && durationNanos >= 0;
    }
}
