package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event of a type the chunk's metadata does not define (a JVM's emergency dump, hs_err, writes
 * such) is skipped and counted under its type id, as the JDK's jfr does, and the rest is read: a
 * recording this JVM writes, one event's type id made one the metadata lacks.
 */
class UndefinedEventTypeTest {
    @TempDir
    Path dir;

    @Test
    void anEventOfAnUndefinedTypeIsSkippedAndCounted() throws Exception {
        Path rec = TestRecordings.sleeps(dir.resolve("one.jfr"), 3, 2, false);
        byte[] bytes = Files.readAllBytes(rec);
        ChunkHeader h = ChunkHeader.of(ByteBuffer.wrap(bytes), 0);
        Map<String, Long> before = JfrParser.read(rec, h.size(), Set.of(), e -> { }).counts();
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
        Path edited = Files.write(dir.resolve("edited.jfr"), bytes);
        Map<String, Long> after = JfrParser.read(edited, h.size(), Set.of(), e -> { }).counts();
        assertThat(after.get("16000" + JfrParser.UNDEFINED)).isEqualTo(1);
        long total = before.values().stream().mapToLong(Long::longValue).sum();
        assertThat(after.values().stream().mapToLong(Long::longValue).sum()).as("every other event still read").isEqualTo(total);
    }
}
