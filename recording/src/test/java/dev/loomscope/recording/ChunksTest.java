package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chunk walk on canned chunks: a header and a body of zeros each, put together the ways files end up. */
class ChunksTest {
    @TempDir
    Path dir;

    /**
     * A chunk of {@code size} bytes whose header says {@code sizeField}, finished, 1 s long from {@code startSeconds}.
     */
    static byte[] chunk(int size, long sizeField, long startSeconds) {
        ByteBuffer b = ByteBuffer.allocate(size);
        b.putInt(0, ChunkHeader.MAGIC)
                .putShort(4, (short) 2)
                .putShort(6, (short) 1)
                .putLong(8, sizeField);
        b.putLong(32, startSeconds * 1_000_000_000L).putLong(40, 1_000_000_000L).putLong(56, 1_000_000_000L);
        return b.array();
    }

    static byte[] concat(byte[]... parts) {
        ByteBuffer all =
                ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) {
            all.put(p);
        }
        return all.array();
    }

    @Test
    void wholeChunksEndAtTheEndOfTheFile() throws Exception {
        byte[] file = concat(chunk(100, 100, 10), chunk(200, 200, 11));
        Chunks.Walk w = Chunks.walk(ByteBuffer.wrap(file));
        assertThat(w.end()).isEqualTo(Chunks.End.WHOLE);
        assertThat(w.at()).isEqualTo(300);
        assertThat(w.chunks())
                .extracting(Chunks.Chunk::number, Chunks.Chunk::offset)
                .containsExactly(Tuple.tuple(1, 0L), Tuple.tuple(2, 100L));
        Path p = Files.write(dir.resolve("two.jfr"), file);
        assertThat(Chunks.walk(p)).isEqualTo(w); // from a file as from memory
        assertThat(Chunks.wholeLength(p)).isEqualTo(300);
        assertThat(Chunks.walk(p).firstEndingAfter(11_500_000_000L)).isEqualTo(100); // the first chunk ended at 11 s
        assertThat(Chunks.walk(p).firstEndingAfter(99_000_000_000L)).isEqualTo(300);
    }

    @Test
    void eachWayAFileEndsBadlyIsNamedWhereItHappens() {
        byte[] first = chunk(100, 100, 10);
        assertThat(walk(concat(first, new byte[40]))).isEqualTo("SHORT_HEADER at 100 after 1");
        assertThat(walk(concat(first, new byte[100]))).isEqualTo("NO_MAGIC at 100 after 1");
        assertThat(walk(concat(first, chunk(100, 500, 11)))).isEqualTo("INCOMPLETE at 100 after 1"); // cut short
        assertThat(walk(concat(first, chunk(100, 0, 11)))).isEqualTo("INCOMPLETE at 100 after 1"); // size never written
        assertThat(walk(concat(first, chunk(100, 20, 11)))).isEqualTo("BAD_SIZE at 100 after 1");
        assertThat(walk(new byte[0])).isEqualTo("WHOLE at 0 after 0");
    }

    @Test
    void theWalkStopsAtTheLengthItIsGiven() throws Exception {
        byte[] file = concat(chunk(100, 100, 10), chunk(100, 100, 11), new byte[7]);
        Path p = Files.write(dir.resolve("tail.jfr"), file);
        try (var ch = FileChannel.open(p)) {
            assertThat(Chunks.walk(ch, 200).end()).isEqualTo(Chunks.End.WHOLE);
            assertThat(Chunks.walk(ch, ch.size()).end()).isEqualTo(Chunks.End.SHORT_HEADER);
        }
    }

    private static String walk(byte[] file) {
        Chunks.Walk w = Chunks.walk(ByteBuffer.wrap(file));
        return w.end() + " at " + w.at() + " after " + w.chunks().size();
    }
}
