package dev.loomscope.recording;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The entrance to a recording as the user named it ({@link RecordingSource}: a file, or a disk repository's parts):
 * each part expanded when compressed ({@link Compressed}), its chunk structure scanned once, a truncated last chunk cut
 * off (into a temporary copy) and an unfinished one marked finished, with a warning each; unreadable parts of a
 * repository skipped with a warning. Whoever reads the parts gets them ready to parse, with the scan that says which
 * parser reads them ({@link Readable#olderFormat}); the temporary copies go when the reader returns.
 */
public final class RecordingParts {
    private RecordingParts() {}

    /**
     * One file of a recording as the user named it ({@code original}) and as a parser can read it ({@code readable}:
     * the file itself, or a copy of its complete prefix at the same offsets), with its scan ({@code prefix}: what
     * {@link RecordingFile#read(Path, RecordingFile.Prefix, java.util.Set, java.util.function.BiConsumer)} reads, its
     * warning said already).
     */
    public record Part(Path original, Path readable, RecordingFile.Prefix prefix) {}

    /**
     * The parts of a recording, ready to parse, and the time their chunks cover; {@code olderFormat} is null, or why
     * loomscope's parser does not read them (JFR 0.x: JMC's parser does).
     */
    public record Readable(List<Part> parts, RecordingSpan span, String olderFormat) {
        public List<Path> paths() {
            return parts.stream().map(Part::readable).toList();
        }
    }

    /** What a reader does with the parts of a recording, ready to parse. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(Readable readable) throws IOException, BadRecordingException;
    }

    /**
     * Hands {@code body} the parts of {@code source} as a parser can read them (see the class); what cannot be read is
     * a {@link BadRecordingException} naming the user's file.
     */
    public static <T> T read(RecordingSource source, Consumer<String> warnings, Reader<T> body)
            throws BadRecordingException {
        List<Part> readable = new ArrayList<>();
        List<Path> temporaries = new ArrayList<>();
        RecordingSpan span = new RecordingSpan();
        String olderFormat = null;
        try {
            for (Path part : source.parts()) {
                Compressed.Kind compression = Compressed.detect(part);
                Path plain = part;
                if (compression != null) {
                    plain = Compressed.expand(part, compression, warnings);
                    temporaries.add(plain);
                }
                // what the checks say of an expanded copy, they say of the user's file
                String copy = plain.toAbsolutePath().toString();
                String named = part.toAbsolutePath()
                        + (compression == null ? "" : " (expanded from " + compression.label + ")");
                RecordingFile.Prefix scan;
                try {
                    scan = RecordingFile.scan(plain);
                } catch (BadRecordingException e) {
                    if (source.parts().size() > 1) {
                        warnings.accept(e.getMessage().replace(copy, named)
                                + "; skipped"); // an unfinished chunk of a repository
                        continue;
                    }
                    throw new BadRecordingException(e.getMessage().replace(copy, named), e);
                }
                if (scan.olderFormat() != null) {
                    olderFormat = scan.olderFormat().replace(copy, named);
                    readable.add(new Part(part, plain, scan));
                    continue;
                }
                span.add(scan.span());
                if (scan.warning() == null) {
                    readable.add(new Part(part, plain, scan));
                    continue;
                }
                warnings.accept(scan.warning().replace(copy, named));
                readable.add(new Part(
                        part,
                        completeCopy(part, plain, scan, temporaries),
                        new RecordingFile.Prefix(scan.completeBytes(), scan.chunks(), null, -1, scan.span(), null)));
            }
            try {
                return body.read(new Readable(readable, span, olderFormat));
            } catch (IOException e) {
                throw new BadRecordingException(
                        source.name().toAbsolutePath() + ": cannot read: " + e.getMessage() + " (check the file)", e);
            }
        } finally {
            temporaries.forEach(TempFiles::delete);
        }
    }

    /** A temporary copy of {@code plain}'s complete chunks, an unfinished last one marked finished. */
    private static Path completeCopy(Path part, Path plain, RecordingFile.Prefix scan, List<Path> temporaries)
            throws BadRecordingException {
        try {
            Path tmp = TempFiles.create("loomscope-complete-", ".jfr");
            temporaries.add(tmp);
            copyPrefix(plain, tmp, scan.completeBytes());
            if (scan.unfinishedAt() >= 0) {
                try (var ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.wrap(new byte[] {0}), scan.unfinishedAt() + ChunkHeader.STATE_BYTE);
                }
            }
            return tmp;
        } catch (IOException e) {
            throw new BadRecordingException(
                    part.toAbsolutePath() + ": cannot copy its complete chunks to a temporary file: " + e.getMessage()
                            + " (check the space in " + System.getProperty("java.io.tmpdir") + ")",
                    e);
        }
    }

    private static void copyPrefix(Path from, Path to, long bytes) throws IOException {
        try (InputStream in = Files.newInputStream(from);
                OutputStream out = Files.newOutputStream(to)) {
            byte[] buf = new byte[1 << 16];
            long left = bytes;
            while (left > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                if (n < 0) {
                    break;
                }
                out.write(buf, 0, n);
                left -= n;
            }
        }
    }

    /**
     * A parser stopped on one of {@code parts}: the one wording of damage, naming the file, chunk and byte offset where
     * the walk over their structure finds it (the first damaged part), else what the parser said with what was found
     * sound.
     */
    public static String damaged(List<Part> parts, Throwable parserError) {
        Path file = parts.get(0).original().toAbsolutePath();
        DamagedRecordingException located = null;
        for (Part part : parts) {
            try {
                located = RecordingFile.locateDamage(part.readable());
            } catch (IOException | RuntimeException e) {
                // the walk could not say where; the message below says what the parser said
            }
            if (located != null) {
                file = part.original().toAbsolutePath();
                break;
            }
        }
        if (located != null) {
            return file + ": " + located.getMessage() + " (the recording is damaged; the parser said: "
                    + Said.by(parserError) + ")";
        }
        return file + ": cannot be parsed: " + Said.by(parserError)
                + " (its chunk structure, metadata and constant pools are sound, so an event's content is damaged or of"
                + " a kind loomscope's reader rejects)";
    }
}
