package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chunk header as the JVM writes it, and the fields at their offsets. */
class ChunkHeaderTest {
    @TempDir
    Path dir;

    @Test
    void readsTheHeaderOfARecordingThisJvmWrites() throws Exception {
        Path jfr = dir.resolve("one-chunk.jfr");
        Instant before = Instant.now();
        try (Recording r = new Recording()) {
            r.start();
            Thread.sleep(20);
            r.stop();
            r.dump(jfr);
        }
        Instant after = Instant.now();
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(jfr));
        assertThat(ChunkHeader.hasMagic(bytes, 0)).isTrue();
        ChunkHeader h = ChunkHeader.of(bytes, 0);
        assertThat(h.major()).isEqualTo(2);
        assertThat(h.size()).isEqualTo(Files.size(jfr)); // one chunk: the whole file
        assertThat(h.metadataOffset()).isBetween((long) ChunkHeader.SIZE, h.size() - 1);
        assertThat(h.constantPoolOffset()).isBetween((long) ChunkHeader.SIZE, h.size() - 1);
        long beforeNanos = before.getEpochSecond() * 1_000_000_000L + before.getNano();
        long afterNanos = after.getEpochSecond() * 1_000_000_000L + after.getNano();
        assertThat(h.startNanos()).isBetween(beforeNanos - 1_000_000_000L, afterNanos);
        assertThat(h.endNanos()).isBetween(h.startNanos(), afterNanos + 1_000_000_000L);
        assertThat(h.ticksPerSecond()).isPositive();
        assertThat(h.finished()).isTrue();
        assertThat(h.clockIsSound()).isTrue();
    }

    @Test
    void fieldsSitAtTheirOffsets() {
        ByteBuffer b = ByteBuffer.allocate(10 + ChunkHeader.SIZE);
        int at = 10; // a header further into a buffer, as a file's later chunks are
        b.putInt(at, ChunkHeader.MAGIC)
                .putShort(at + 4, (short) 1)
                .putShort(at + 6, (short) 3)
                .putLong(at + 8, 4096)
                .putLong(at + 16, 300)
                .putLong(at + 24, 200)
                .putLong(at + 32, 1_700_000_000_000_000_000L)
                .putLong(at + 40, 5_000_000_000L)
                .putLong(at + 48, 77)
                .putLong(at + 56, 1_000_000_000L)
                .put(at + ChunkHeader.STATE_BYTE, (byte) 255)
                .put(at + 67, (byte) 1);
        ChunkHeader h = ChunkHeader.of(b, at);
        assertThat(h)
                .isEqualTo(new ChunkHeader(
                        1,
                        3,
                        4096,
                        300,
                        200,
                        1_700_000_000_000_000_000L,
                        5_000_000_000L,
                        77,
                        1_000_000_000L,
                        false,
                        true));
        assertThat(h.endNanos()).isEqualTo(1_700_000_005_000_000_000L);
        assertThat(ChunkHeader.hasMagic(b, at)).isTrue();
        assertThat(ChunkHeader.hasMagic(b, 0)).isFalse();
        assertThat(new ChunkHeader(2, 1, 4096, 300, 200, 0, 1, 0, 0, true, false).clockIsSound())
                .isFalse(); // no ticks a second
    }
}
