package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkpoint chain a parser follows from the chunk header: on a recording this JVM writes the chain is sound; with
 * the first checkpoint's delta made to point forward (the chain then never ends for a parser that follows it) the
 * reader, which does not follow it, reads every event as before and says so in a warning.
 */
class CheckpointChainTest {
    @TempDir
    Path dir;

    @Test
    void aChainThatCannotBeFollowedIsSaidAndTheEventsRead() throws Exception {
        TestRecordings.Edit edit = TestRecordings.edit(dir, 1, 5, true);
        Path rec = edit.original();
        byte[] bytes = edit.bytes();
        ChunkHeader h = edit.header();
        assertThat(RecordingFile.locateDamage(rec)).isNull();
        assertThat(RecordingFile.read(rec, Set.of(), (e, span) -> {}).warnings())
                .isEmpty();
        // walk the chain back to its first checkpoint, whose delta is 0 (one byte, compressed or not it is the field's
        // last byte of 0)
        int at = (int) h.constantPoolOffset();
        TestRecordings.Checkpoint checkpoint = TestRecordings.Checkpoint.at(bytes, h, at);
        while (checkpoint.delta() != 0) {
            at += (int) checkpoint.delta();
            checkpoint = TestRecordings.Checkpoint.at(bytes, h, at);
        }
        int deltaAt = checkpoint.deltaAt();
        assertThat(h.compressedIntegers())
                .as("the JDK writes compressed integers: a one-byte 0")
                .isTrue();
        assertThat(bytes[deltaAt]).isZero();
        bytes[deltaAt] = 5; // +5: forward, into the middle of an event, and a loop for whoever follows it
        Path looped = edit.write("looped.jfr");
        RecordingFile.Read sound = RecordingFile.read(rec, Set.of(), (e, span) -> {});
        RecordingFile.Read read = RecordingFile.read(looped, Set.of(), (e, span) -> {});
        assertThat(read.counts()).isEqualTo(sound.counts());
        assertThat(read.warnings())
                .singleElement()
                .asString()
                .contains(looped + ": 1 chunk(s) whose checkpoint chain cannot be followed");
    }
}
