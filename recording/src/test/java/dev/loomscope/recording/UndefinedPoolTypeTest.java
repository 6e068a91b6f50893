package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An empty constant pool of a type the chunk's metadata does not define (other profilers' JFR
 * writers leave such) holds nothing to read: the recording reads whole, not as damage. Made from a
 * recording this JVM writes: a checkpoint with one pool gets an undefined type id and no entries.
 */
class UndefinedPoolTypeTest {
    @TempDir
    Path dir;

    @Test
    void anEmptyPoolOfAnUndefinedTypeIsNoDamage() throws Exception {
        Path rec = TestRecordings.sleeps(dir.resolve("one.jfr"), 3, 2, false);
        byte[] bytes = Files.readAllBytes(rec);
        ChunkHeader h = ChunkHeader.of(ByteBuffer.wrap(bytes), 0);
        Map<String, Long> before = JfrParser.check(rec, h.size()).counts();
        // the chain of checkpoints, from the header's last one back: the first whose only pool has a two-byte type id and a one-byte count
        int at = (int) h.constantPoolOffset();
        int typeAt = -1;
        while (typeAt < 0) {
            TestRecordings.Checkpoint checkpoint = TestRecordings.Checkpoint.at(bytes, h, at);
            Cursor c = new Cursor(ChunkMemory.whole(bytes, bytes.length), h.compressedIntegers(), checkpoint.firstPoolAt());
            c.readLong();
            int countStart = c.pos;
            int count = c.readInt();
            if (checkpoint.pools() == 1 && countStart - checkpoint.firstPoolAt() == 2 && c.pos - countStart == 1 && count > 0) {
                typeAt = checkpoint.firstPoolAt();
                bytes[countStart] = 0; // no entries (the bytes of the old ones stay, unread, inside the checkpoint's size)
            } else if (checkpoint.delta() == 0) {
                throw new AssertionError("no checkpoint with one pool in " + rec);
            }
            at += (int) checkpoint.delta();
        }
        TestRecordings.putUndefinedType(bytes, typeAt);
        Path edited = Files.write(dir.resolve("edited.jfr"), bytes);
        assertThat(RecordingFile.locateDamage(edited)).isNull();
        assertThat(JfrParser.check(edited, h.size()).counts()).isEqualTo(before);
    }
}
