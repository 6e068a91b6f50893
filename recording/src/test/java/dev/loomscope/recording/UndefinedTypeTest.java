package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Type ids a chunk's metadata does not define, in recordings this JVM writes with one id changed to such: an event of
 * such a type (a JVM's emergency dump, hs_err, writes them) is skipped and counted under its type id, as the JDK's jfr
 * does, and the rest is read; an empty constant pool of such a type (other profilers' JFR writers leave them) holds
 * nothing to read: the recording reads whole, not as damage.
 */
class UndefinedTypeTest {
    @TempDir
    Path dir;

    @Test
    void anEventOfAnUndefinedTypeIsSkippedAndCounted() throws Exception {
        TestRecordings.Edit edit = TestRecordings.edit(dir, 3, 2, false);
        byte[] bytes = edit.bytes();
        long chunkSize = edit.header().size();
        Map<String, Long> before =
                JfrParser.read(edit.original(), chunkSize, Set.of(), e -> {}).counts();
        assertThat(before.get("jdk.ThreadSleep")).isEqualTo(3);
        // the first event whose type id takes two bytes (ids 128 to 16383: the JDK's event types) gets the id 16000
        int at = ChunkHeader.SIZE;
        while (true) {
            Cursor c = new Cursor(ChunkMemory.whole(bytes, bytes.length), true, at);
            int size = c.readInt();
            int typeAt = c.pos;
            long type = c.readLong();
            if (type >= 128 && c.pos - typeAt == 2) {
                TestRecordings.putUndefinedType(bytes, typeAt);
                break;
            }
            at += size;
        }
        Path edited = edit.write("edited.jfr");
        Map<String, Long> after =
                JfrParser.read(edited, chunkSize, Set.of(), e -> {}).counts();
        assertThat(after.get("16000" + JfrParser.UNDEFINED)).isEqualTo(1);
        long total = before.values().stream().mapToLong(Long::longValue).sum();
        assertThat(after.values().stream().mapToLong(Long::longValue).sum())
                .as("every other event still read")
                .isEqualTo(total);
    }

    @Test
    void anEmptyPoolOfAnUndefinedTypeIsNoDamage() throws Exception {
        TestRecordings.Edit edit = TestRecordings.edit(dir, 3, 2, false);
        byte[] bytes = edit.bytes();
        ChunkHeader h = edit.header();
        Map<String, Long> before = JfrParser.check(edit.original(), h.size()).counts();
        // the chain of checkpoints, from the header's last one back: the first whose only pool has a two-byte type id
        // and a one-byte count
        int at = (int) h.constantPoolOffset();
        int typeAt = -1;
        while (typeAt < 0) {
            TestRecordings.Checkpoint checkpoint = TestRecordings.Checkpoint.at(bytes, h, at);
            Cursor c = new Cursor(
                    ChunkMemory.whole(bytes, bytes.length), h.compressedIntegers(), checkpoint.firstPoolAt());
            c.readLong();
            int countStart = c.pos;
            int count = c.readInt();
            if (checkpoint.pools() == 1
                    && countStart - checkpoint.firstPoolAt() == 2
                    && c.pos - countStart == 1
                    && count > 0) {
                typeAt = checkpoint.firstPoolAt();
                // no entries (the bytes of the old ones stay, unread, inside the checkpoint's size)
                bytes[countStart] = 0;
            } else if (checkpoint.delta() == 0) {
                throw new AssertionError("no checkpoint with one pool in " + edit.original());
            }
            at += (int) checkpoint.delta();
        }
        TestRecordings.putUndefinedType(bytes, typeAt);
        Path edited = edit.write("edited.jfr");
        assertThat(RecordingFile.locateDamage(edited)).isNull();
        assertThat(JfrParser.check(edited, h.size()).counts()).isEqualTo(before);
    }
}
