package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrFileCheckTest {
    @Name("test.Marker")
    static class Marker extends Event {
        String which;
    }

    @TempDir
    Path dir;

    @Test
    void firstChunkEndingAfterSkipsTheChunksThatEndedBefore() throws Exception {
        Path jfr = dir.resolve("two-chunks.jfr");
        Instant between;
        try (Recording r = new Recording()) {
            r.enable(Marker.class);
            r.setToDisk(true);
            r.start();
            mark("before");
            try (Recording other = new Recording()) { // starting another recording begins a new chunk
                other.start();
                other.stop();
            }
            between = Instant.now();
            Thread.sleep(20);
            mark("after");
            r.stop();
            r.dump(jfr);
        }
        long size = Files.size(jfr);
        assertThat(Chunks.wholeLength(jfr)).isEqualTo(size);
        assertThat(Chunks.walk(jfr).firstEndingAfter(0)).isZero();
        assertThat(Chunks.walk(jfr).firstEndingAfter(Long.MAX_VALUE)).isEqualTo(size);

        long offset = Chunks.walk(jfr).firstEndingAfter(between.getEpochSecond() * 1_000_000_000L + between.getNano());
        assertThat(offset).isBetween(1L, size - 1);
        Path tail = dir.resolve("tail.jfr");
        try (FileChannel in = FileChannel.open(jfr, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(tail, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            in.transferTo(offset, size - offset, out);
        }
        assertThat(markers(tail)).containsExactly("after");
        assertThat(markers(jfr)).containsExactly("before", "after");
    }

    private static void mark(String which) {
        Marker m = new Marker();
        m.which = which;
        m.commit();
    }

    private static List<String> markers(Path jfr) throws IOException {
        return RecordingFile.readAllEvents(jfr).stream()
                .filter(e -> e.getEventType().getName().equals("test.Marker"))
                .sorted(Comparator.comparing(RecordedEvent::getStartTime))
                .map(e -> e.getString("which"))
                .toList();
    }
}
