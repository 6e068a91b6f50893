package dev.loomscope.recording;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;

/** Recordings this JVM writes for the reader's damage tests, and the places in them those tests change. */
final class TestRecordings {
    /** A type id no chunk's metadata here defines, written in two bytes as a compressed integer. */
    static final int UNDEFINED_TYPE = 16000;

    private TestRecordings() {}

    /**
     * {@code sleeps} jdk.ThreadSleep events of {@code millis} each (with stack traces if asked), recorded into
     * {@code file}.
     */
    static Path sleeps(Path file, int sleeps, long millis, boolean stackTrace) throws Exception {
        try (Recording r = new Recording()) {
            var sleep = r.enable("jdk.ThreadSleep").withThreshold(Duration.ZERO);
            if (stackTrace) {
                sleep.withStackTrace();
            }
            r.start();
            for (int i = 0; i < sleeps; i++) {
                Thread.sleep(millis);
            }
            r.stop();
            r.dump(file);
        }
        return file;
    }

    /**
     * A recording of {@code sleeps} jdk.ThreadSleep events written into {@code dir} as {@code one.jfr}, its bytes to
     * change and its first chunk's header.
     */
    static Edit edit(Path dir, int sleeps, long millis, boolean stackTrace) throws Exception {
        Path rec = sleeps(dir.resolve("one.jfr"), sleeps, millis, stackTrace);
        byte[] bytes = Files.readAllBytes(rec);
        return new Edit(rec, bytes, ChunkHeader.of(ByteBuffer.wrap(bytes), 0));
    }

    /** A recording as written ({@code original}), and its bytes as a test changes them. */
    record Edit(Path original, byte[] bytes, ChunkHeader header) {
        /** The bytes as they are now, written beside the original as {@code name}. */
        Path write(String name) throws IOException {
            return Files.write(original.resolveSibling(name), bytes);
        }
    }

    /** Writes {@link #UNDEFINED_TYPE} over the two-byte compressed type id at {@code at}. */
    static void putUndefinedType(byte[] bytes, int at) {
        bytes[at] = (byte) (0x80 | (UNDEFINED_TYPE & 0x7F));
        bytes[at + 1] = (byte) (UNDEFINED_TYPE >> 7);
    }

    /**
     * The head of the checkpoint event at {@code at}: where its delta to the one before is and that delta, its pool
     * count, and where its first pool starts.
     */
    record Checkpoint(int deltaAt, long delta, int pools, int firstPoolAt) {
        static Checkpoint at(byte[] bytes, ChunkHeader h, int at) {
            Cursor c = new Cursor(ChunkMemory.whole(bytes, bytes.length), h.compressedIntegers(), at);
            c.readInt(); // size
            c.readLong(); // type
            c.readLong(); // start
            c.readLong(); // duration
            int deltaAt = c.pos;
            long delta = c.readLong();
            c.readByte(); // kind
            int pools = c.readInt();
            return new Checkpoint(deltaAt, delta, pools, c.pos);
        }
    }
}
