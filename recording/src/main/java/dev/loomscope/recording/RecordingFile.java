package dev.loomscope.recording;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The door into one .jfr file, whoever reads it (the CLI's sources through {@link RecordingParts}, the rules, the
 * export, the agent's exit graph): its chunk structure checked ({@link #scan}), its complete chunks read by loomscope's
 * parser ({@link #read}), or walked value by value for damage ({@link #check}). A file that is no recording is a
 * {@link BadRecordingException}; one of a format loomscope's parser does not read (JFR 0.x, JDK 7 and 8) is said by its
 * scan ({@link Prefix#olderFormat}), and reading it is an {@link UnsupportedVersionException}; damage met while reading
 * is a {@link DamagedRecordingException} naming the chunk and the byte offset.
 */
public final class RecordingFile {
    private RecordingFile() {}

    /**
     * What a reader may read of a file.
     *
     * @param completeBytes length of the prefix to read
     * @param chunks chunks in that prefix
     * @param warning what was left out, or null
     * @param unfinishedAt offset of a last chunk that was still being written (its data up to the last flush is
     *     readable once marked finished), or -1
     * @param span the time those chunks cover, from their headers
     * @param olderFormat null, or why loomscope's parser does not read the file (its format version; JMC's parser reads
     *     JFR 0.x): nothing else was walked
     */
    public record Prefix(
            long completeBytes,
            int chunks,
            String warning,
            long unfinishedAt,
            RecordingSpan span,
            String olderFormat) {}

    /** What {@link #read} read: events by type, the span of the file's chunks, and what it has to say of the file. */
    public record Read(Map<String, Long> counts, RecordingSpan span, List<String> warnings) {}

    /** What {@link #check} walked: events by type, and how many chunks. */
    public record Walked(Map<String, Long> counts, int chunks) {}

    /**
     * The cheap checks, then the chunk walk: a last chunk that runs past the end of the file (a JVM killed while
     * writing) is cut off with a warning, as is a chunk still being written; anything else out of place is a
     * {@link BadRecordingException} naming its offset.
     */
    public static Prefix scan(Path file) throws BadRecordingException {
        return ChunkScan.scan(file);
    }

    /**
     * The file's complete chunks read, the events of the {@code wanted} types handed to {@code sink} in file order with
     * the span of the file's chunks. Events of a type the chunk's metadata does not define are counted and said, not
     * read.
     */
    public static Read read(Path file, Set<String> wanted, BiConsumer<JfrEvent, RecordingSpan> sink)
            throws BadRecordingException, IOException {
        return read(file, scan(file), wanted, sink);
    }

    /**
     * {@link #read(Path, Set, BiConsumer)} of a file {@link #scan}ned before, by that scan: its chunk headers are not
     * walked again.
     */
    public static Read read(Path file, Prefix scan, Set<String> wanted, BiConsumer<JfrEvent, RecordingSpan> sink)
            throws BadRecordingException, IOException {
        if (scan.olderFormat() != null) {
            throw new UnsupportedVersionException(scan.olderFormat());
        }
        JfrParser.Result read = JfrParser.read(file, scan.completeBytes(), wanted, e -> sink.accept(e, scan.span()));
        List<String> warnings = new ArrayList<>();
        if (scan.warning() != null) {
            warnings.add(scan.warning());
        }
        Long unsound = read.counts().remove(JfrParser.UNSOUND_CHAIN);
        if (unsound != null) {
            warnings.add(file + ": " + unsound
                    + " chunk(s) whose checkpoint chain cannot be followed (the checkpoints do not point to each other"
                    + " as the JDK's writer makes them: another writer's, Datadog's profiler writes such): read event"
                    + " by event, checkpoints too; the JDK's parser, which follows the chain, does not read this file");
        }
        read.counts().forEach((type, n) -> {
            if (type.endsWith(JfrParser.UNDEFINED)) {
                warnings.add(file + ": " + n + " event(s) of type " + type.substring(0, type.indexOf(' '))
                        + ", which the chunk's metadata does not define, skipped (an emergency dump, hs_err, writes"
                        + " such; the JDK's jfr skips them too)");
            }
        });
        return new Read(read.counts(), scan.span(), warnings);
    }

    /**
     * Walks the whole file (a complete prefix: checked by {@link #scan} before) as {@link #locateDamage} does
     * (metadata, every event and every constant pool value by value, nothing kept), counting the events; damage is a
     * {@link DamagedRecordingException}. What passes can be handed to a parser that trusts every length.
     */
    public static Walked check(Path file) throws IOException {
        JfrParser.Result r = JfrParser.check(file, Files.size(file));
        return new Walked(r.counts(), r.chunks());
    }

    /** Where the file breaks JFR's format, by the walk of {@link #check}; null when the walk finds nothing wrong. */
    public static DamagedRecordingException locateDamage(Path file) throws IOException {
        try {
            check(file);
            return null;
        } catch (DamagedRecordingException e) {
            return e;
        }
    }
}
