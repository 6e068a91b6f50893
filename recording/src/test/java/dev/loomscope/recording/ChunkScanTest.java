package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chunk walk on recordings this JVM writes, whole and cut or damaged as JVMs and disks leave them. */
class ChunkScanTest {
    @TempDir
    static Path dir;

    static Path recording;
    static byte[] bytes;
    static long firstChunk;
    /** Where each chunk starts, walked here from the headers. */
    static List<Long> starts = new ArrayList<>();

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("chunks.jfr");
        try (Recording r = new Recording()) {
            r.setToDisk(true);
            r.start();
            try (Recording other = new Recording()) { // starting another recording begins a new chunk
                other.start();
                other.stop();
            }
            Thread.sleep(20);
            r.stop();
            r.dump(recording);
        }
        bytes = Files.readAllBytes(recording);
        firstChunk = ChunkHeader.of(ByteBuffer.wrap(bytes), 0).size();
        for (long at = 0;
                at < bytes.length;
                at += ChunkHeader.of(ByteBuffer.wrap(bytes), (int) at).size()) {
            starts.add(at);
        }
        assertThat(starts)
                .hasSizeGreaterThanOrEqualTo(2); // starting and stopping the other recording each begin a chunk
    }

    static Path write(String name, byte[] content) throws Exception {
        return Files.write(dir.resolve(name), content);
    }

    @Test
    void aWholeRecordingIsReadToItsEnd() throws Exception {
        RecordingFile.Prefix r = ChunkScan.scan(recording);
        assertThat(r.chunks()).isEqualTo(starts.size());
        assertThat(r.completeBytes()).isEqualTo(bytes.length);
        assertThat(r.warning()).isNull();
        assertThat(r.unfinishedAt()).isEqualTo(-1);
    }

    @Test
    void aTruncatedLastChunkIsLeftOutWithAWarning() throws Exception {
        Path cut = write("cut.jfr", Arrays.copyOf(bytes, bytes.length - 10));
        RecordingFile.Prefix r = ChunkScan.scan(cut);
        int complete = starts.size() - 1;
        long last = starts.get(complete);
        assertThat(r.chunks()).isEqualTo(complete);
        assertThat(r.completeBytes()).isEqualTo(last);
        assertThat(r.warning())
                .isEqualTo(cut.toAbsolutePath() + ": truncated: the last chunk (at byte " + last
                        + ") is incomplete; using the " + complete + " complete chunk" + (complete == 1 ? "" : "s")
                        + " before it");
    }

    @Test
    void nothingCompleteIsBadData() throws Exception {
        Path cut = write("cut-in-first.jfr", Arrays.copyOf(bytes, 2000));
        assertThatThrownBy(() -> ChunkScan.scan(cut))
                .isInstanceOf(BadRecordingException.class)
                .hasMessage(cut.toAbsolutePath()
                        + ": truncated: the last chunk (at byte 0) is incomplete and no chunk before it is complete"
                        + " (the JVM was stopped before the first chunk was written; a JFR repository of that JVM may"
                        + " hold more)");
    }

    @Test
    void aChunkStillBeingWrittenIsReadUpToItsLastFlush() throws Exception {
        byte[] first = Arrays.copyOf(bytes, (int) firstChunk);
        first[ChunkHeader.STATE_BYTE] = (byte) 255; // as the JVM leaves a chunk it was writing when it stopped
        Path unfinished = write("unfinished.jfr", first);
        RecordingFile.Prefix r = ChunkScan.scan(unfinished);
        assertThat(r.unfinishedAt()).isZero();
        assertThat(r.chunks()).isEqualTo(1);
        assertThat(r.warning()).contains("was still being written when its JVM stopped; read up to its last flush");
    }

    @Test
    void aDamagedHeaderIsBadDataWithItsOffset() throws Exception {
        byte[] damaged = bytes.clone();
        damaged[(int) firstChunk] = 'X'; // the second chunk's magic
        Path file = write("damaged.jfr", damaged);
        assertThatThrownBy(() -> ChunkScan.scan(file))
                .isInstanceOf(BadRecordingException.class)
                .hasMessage(file.toAbsolutePath() + ": corrupted chunk at byte " + firstChunk
                        + " (no FLR magic where chunk 2 should start; the file is damaged)");
    }

    /** A size field no JVM writes (2^62 bytes) is damage, not a chunk the JVM was writing when it stopped. */
    @Test
    void anImpossibleChunkSizeIsDamage() throws Exception {
        byte[] damaged = bytes.clone();
        ByteBuffer.wrap(damaged).putLong((int) firstChunk + 8, 1L << 62); // the second chunk's size field
        Path file = write("huge.jfr", damaged);
        assertThatThrownBy(() -> ChunkScan.scan(file))
                .isInstanceOf(BadRecordingException.class)
                .hasMessage(file.toAbsolutePath() + ": corrupted chunk at byte " + firstChunk + " (its size field says "
                        + (1L << 62) + " bytes, more than any recording holds; the file is damaged)");
    }
}
