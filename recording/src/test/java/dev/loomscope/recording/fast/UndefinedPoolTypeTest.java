package dev.loomscope.recording.fast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.recording.ChunkHeader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;
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
        Path rec = dir.resolve("one.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ThreadSleep").withThreshold(java.time.Duration.ZERO);
            r.start();
            for (int i = 0; i < 3; i++) {
                Thread.sleep(2);
            }
            r.stop();
            r.dump(rec);
        }
        byte[] bytes = Files.readAllBytes(rec);
        ChunkHeader h = ChunkHeader.of(ByteBuffer.wrap(bytes), 0);
        Map<String, Long> before = FastReader.check(rec, h.size()).counts();
        // the chain of checkpoints, from the header's last one back: the first whose only pool has a two-byte type id and a one-byte count
        int at = (int) h.constantPoolOffset();
        int typeAt = -1;
        while (typeAt < 0) {
            Cursor c = new Cursor(ByteBuffer.wrap(bytes), h.compressedIntegers(), at);
            c.readInt();
            c.readLong();
            c.readLong();
            c.readLong();
            long delta = c.readLong();
            c.readByte();
            int pools = c.readInt();
            int typeStart = c.pos;
            c.readLong();
            int countStart = c.pos;
            int count = c.readInt();
            if (pools == 1 && countStart - typeStart == 2 && c.pos - countStart == 1 && count > 0) {
                typeAt = typeStart;
                bytes[countStart] = 0; // no entries (the bytes of the old ones stay, unread, inside the checkpoint's size)
            } else if (delta == 0) {
                throw new AssertionError("no checkpoint with one pool in " + rec);
            }
            at += (int) delta;
        }
        bytes[typeAt] = (byte) (0x80 | (16000 & 0x7F));
        bytes[typeAt + 1] = (byte) (16000 >> 7);
        Path edited = Files.write(dir.resolve("edited.jfr"), bytes);
        assertThat(FastReader.locateDamage(edited, h.size())).isNull();
        assertThat(FastReader.check(edited, h.size()).counts()).isEqualTo(before);
    }
}
