package dev.loomscope.agent;

import dev.loomscope.recording.Chunks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * A stopped recording's chunks taken out of JFR's disk repository into one file on a disk with little room: the first
 * chunk moved (no bytes written), each later one appended and then removed, so that at most one chunk's size is needed
 * beyond what the repository already holds. Chunks that another recording of this JVM still uses are copied, not moved.
 * A chunk that finds no room is left out, and so are those after it: what is kept is whole chunks from the start.
 */
final class RepositoryChunks {
    private RepositoryChunks() {}

    /**
     * Fills {@code target} (empty) with {@code stopped}'s chunks; returns a line saying what could not be kept, or
     * null.
     */
    static String moveInto(Path target, Recording stopped) throws IOException {
        String dir = System.getProperty("jdk.jfr.repository");
        if (dir == null) {
            return "JFR's repository is not known: nothing of the recording could be kept";
        }
        long since = stopped.getStartTime().toEpochMilli() * 1_000_000L;
        List<Chunk> chunks = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of(dir))) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".jfr"))
                    .toList()) {
                Chunks.Walk walk = Chunks.walk(f);
                if (walk.end() == Chunks.End.WHOLE
                        && walk.chunks().size() == 1
                        && walk.chunks().get(0).header().endNanos() >= since) {
                    chunks.add(new Chunk(f, walk.chunks().get(0).header().startNanos(), walk.at()));
                }
            }
        }
        chunks.sort(Comparator.comparingLong(Chunk::startNanos));
        boolean shared = FlightRecorder.getFlightRecorder().getRecordings().stream()
                .anyMatch(r -> r != stopped && r.getState() != RecordingState.CLOSED);
        long kept = 0;
        int i = 0;
        for (; i < chunks.size(); i++) {
            Chunk c = chunks.get(i);
            try {
                if (i == 0 && !shared) {
                    Files.move(c.file(), target, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    OutputFiles.copyRange(
                            c.file(), 0, c.bytes(), target,
                            kept); // appended; cut back to what was kept when it finds no room
                    if (!shared) {
                        Files.delete(c.file());
                    }
                }
                kept += c.bytes();
            } catch (IOException noRoom) {
                break;
            }
        }
        if (i == chunks.size()) {
            return chunks.isEmpty()
                    ? "JFR's repository held none of the recording's chunks: nothing of it could be kept"
                    : null;
        }
        long lost = chunks.subList(i, chunks.size()).stream()
                .mapToLong(Chunk::bytes)
                .sum();
        return "the last " + (chunks.size() - i) + " of the recording's " + chunks.size() + " chunks (" + lost / 1024
                + " KB) found no room on the disk and are not in it";
    }

    private record Chunk(Path file, long startNanos, long bytes) {}
}
