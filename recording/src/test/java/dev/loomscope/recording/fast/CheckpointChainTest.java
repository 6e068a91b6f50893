package dev.loomscope.recording.fast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.recording.ChunkHeader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint chain a parser follows from the chunk header: on a recording this JVM writes the
 * chain is sound; with the first checkpoint's delta made to point forward (the chain then never
 * ends for a parser that follows it) the reader calls it damage.
 */
class CheckpointChainTest {
    @TempDir
    Path dir;

    @Test
    void aChainThatPointsForwardIsDamage() throws Exception {
        Path rec = TestRecordings.sleeps(dir.resolve("one.jfr"), 1, 5, true);
        byte[] bytes = Files.readAllBytes(rec);
        ChunkHeader h = ChunkHeader.of(ByteBuffer.wrap(bytes), 0);
        assertThat(FastReader.locateDamage(rec, h.size())).isNull();
        // walk the chain back to its first checkpoint, whose delta is 0 (one byte, compressed or not it is the field's last byte of 0)
        int at = (int) h.constantPoolOffset();
        TestRecordings.Checkpoint checkpoint = TestRecordings.Checkpoint.at(bytes, h, at);
        while (checkpoint.delta() != 0) {
            at += (int) checkpoint.delta();
            checkpoint = TestRecordings.Checkpoint.at(bytes, h, at);
        }
        int deltaAt = checkpoint.deltaAt();
        assertThat(h.compressedIntegers()).as("the JDK writes compressed integers: a one-byte 0").isTrue();
        assertThat(bytes[deltaAt]).isZero();
        bytes[deltaAt] = 5; // +5: forward, a loop for whoever follows it
        Path looped = Files.write(dir.resolve("looped.jfr"), bytes);
        assertThatThrownBy(() -> FastReader.read(looped, bytes.length, Set.of(), e -> { })).isInstanceOf(FastReader.FormatException.class)
                .hasMessageContaining("checkpoint chain loops");
    }
}
