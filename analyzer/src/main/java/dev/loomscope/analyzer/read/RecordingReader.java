package dev.loomscope.analyzer.read;

import dev.loomscope.analyzer.errors.BadDataException;
import dev.loomscope.recording.BadRecordingException;
import dev.loomscope.recording.ChunkHeader;
import dev.loomscope.recording.DamagedRecordingException;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.RecordingFile;
import dev.loomscope.recording.RecordingSpan;
import dev.loomscope.recording.UnsupportedVersionException;
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
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The entrance to a recording: its parts opened, checked, cut at a truncated tail and expanded when
 * compressed ({@link #withReadableParts}), then its events streamed one at a time (never a list of
 * them) by loomscope's reader ({@link #events}). Warnings (a truncated last chunk) go to {@code warnings}.
 *
 * <p>What the parser throws is the file's damage (bad input, located by byte offset); what the
 * sink throws is the sink's own and passes through untouched: a bug in a reduction is never
 * reported as a damaged recording.
 */
public final class RecordingReader {
    private RecordingReader() {}

    /**
     * The one way main code reads a recording's events, the parser chosen here: loomscope's
     * ({@link RecordingFile}: JFR formats 1 and 2, JDK 9 and later, async-profiler) or, for format 0.x
     * (JDK 7 and 8), JMC's, with a warning that stacks are not read that way. The events of the
     * {@code wanted} types go to {@code sink} (with the span of the recording's chunks) and each
     * part's event counts to {@code counts}; damage is bad input naming the file, chunk and offset.
     * Answers the span.
     */
    public static RecordingSpan events(RecordingSource source, Set<String> wanted, Consumer<String> warnings, BiConsumer<JfrEvent, RecordingSpan> sink,
            Consumer<Map<String, Long>> counts) {
        return withReadableParts(source, warnings, readable -> {
            if (readable.olderFormat() != null) {
                return viaJmc(source, readable.olderFormat(), wanted, warnings, sink, counts);
            }
            for (Part part : readable.parts()) {
                try {
                    // every part with the whole recording's span (--from/--to count from its first chunk, whichever part)
                    RecordingFile.Read read = RecordingFile.read(part.readable(), wanted, (e, partSpan) -> sink.accept(e, readable.span()));
                    read.warnings().forEach(w -> warnings.accept(w.replace(part.readable().toString(), part.original().toString())));
                    counts.accept(read.counts());
                } catch (DamagedRecordingException damage) {
                    throw damaged(part.original(), damage);
                } catch (BadRecordingException checkedBefore) {
                    throw new BadDataException(checkedBefore.getMessage().replace(part.readable().toString(), part.original().toString()), checkedBefore);
                }
            }
            return readable.span();
        });
    }

    /**
     * A recording of format 0.x through JMC's parser, which holds it all in memory and hands on
     * every event in time order: the wanted ones go on, all are counted, and the span is the
     * events' (the chunk headers of 0.x are not read).
     */
    private static RecordingSpan viaJmc(RecordingSource source, String rejected, Set<String> wanted, Consumer<String> warnings,
            BiConsumer<JfrEvent, RecordingSpan> sink, Consumer<Map<String, Long>> counts) {
        List<JfrEvent> kept = new ArrayList<>();
        Map<String, Long> byType = new java.util.TreeMap<>();
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        try {
            JmcReader.read(source, e -> {
                byType.merge(e.type(), 1L, Long::sum);
                span[0] = Math.min(span[0], nanos(e.startTime()));
                span[1] = Math.max(span[1], nanos(e.endTime()));
                if (wanted.contains(e.type())) {
                    kept.add(e);
                }
            });
        } catch (BadDataException jmcToo) {
            throw new BadDataException(rejected + "; " + jmcToo.getMessage(), jmcToo);
        }
        warnings.accept(source.name().toAbsolutePath() + ": read with JMC's parser (" + rejected + "); stack traces are not read this way");
        RecordingSpan recorded = byType.isEmpty() ? new RecordingSpan() : RecordingSpan.of(span[0], span[1]);
        kept.forEach(e -> sink.accept(e, recorded));
        counts.accept(byType);
        return recorded;
    }

    private static long nanos(java.time.Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * One file of a recording as the user named it ({@code original}) and as a parser can read it
     * ({@code readable}: the file itself, or a copy of its complete prefix at the same offsets).
     */
    public record Part(Path original, Path readable) {}

    /**
     * The parts of a recording, ready to parse, and the time their chunks cover; {@code olderFormat}
     * is null, or why loomscope's parser does not read them (JFR 0.x: JMC's parser does).
     */
    public record Readable(List<Part> parts, RecordingSpan span, String olderFormat) {
        public List<Path> paths() {
            return parts.stream().map(Part::readable).toList();
        }
    }

    /** What a reader does with the parts of a recording, ready to parse. */
    @FunctionalInterface
    public interface PartsReader<T> {
        T read(Readable readable) throws IOException;
    }

    /**
     * Hands {@code body} the parts of {@code source} as a parser can read them: chunk structure
     * checked, a truncated last chunk cut off (into a temporary copy) and an unfinished one marked
     * finished, with a warning each; unreadable parts of a repository skipped with a warning.
     */
    public static <T> T withReadableParts(RecordingSource source, Consumer<String> warnings, PartsReader<T> body) {
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
                String named = part.toAbsolutePath() + (compression == null ? "" : " (expanded from " + compression.label + ")");
                RecordingFile.Prefix scan;
                try {
                    scan = RecordingFile.scan(plain);
                } catch (UnsupportedVersionException e) {
                    olderFormat = e.getMessage().replace(copy, named);
                    readable.add(new Part(part, plain));
                    continue;
                } catch (BadRecordingException e) {
                    BadDataException shown = new BadDataException(e.getMessage().replace(copy, named), e);
                    if (source.parts().size() > 1) {
                        warnings.accept(shown.getMessage() + "; skipped"); // an unfinished chunk of a repository
                        continue;
                    }
                    throw shown;
                }
                span.add(scan.span());
                if (scan.warning() == null) {
                    readable.add(new Part(part, plain));
                    continue;
                }
                warnings.accept(scan.warning().replace(copy, named));
                try {
                    Path tmp = TempFiles.create("loomscope-complete-", ".jfr");
                    temporaries.add(tmp);
                    copyPrefix(plain, tmp, scan.completeBytes());
                    if (scan.unfinishedAt() >= 0) {
                        markFinished(tmp, scan.unfinishedAt() + ChunkHeader.STATE_BYTE);
                    }
                    readable.add(new Part(part, tmp));
                } catch (IOException e) {
                    throw new BadDataException(part.toAbsolutePath() + ": cannot copy its complete chunks to a temporary file: "
                            + e.getMessage() + " (check the space in " + System.getProperty("java.io.tmpdir") + ")", e);
                }
            }
            try {
                return body.read(new Readable(readable, span, olderFormat));
            } catch (IOException e) {
                throw new BadDataException(source.name().toAbsolutePath() + ": cannot read: " + e.getMessage() + " (check the file)", e);
            }
        } finally {
            temporaries.forEach(TempFiles::delete);
        }
    }

    /** Damage loomscope's reader found in {@code file}: bad input, with the chunk and the offset. */
    public static BadDataException damaged(Path file, DamagedRecordingException damage) {
        return new BadDataException(BadRecordingException.said(file, damage), damage);
    }

    /**
     * A parser stopped on {@code part}: bad input, named by file, chunk and byte offset where the
     * walk over its structure finds the damage.
     */
    public static BadDataException damaged(Part part, Throwable parserError) {
        return damaged(List.of(part), parserError);
    }

    /** {@link #damaged(Part, Throwable)} for a parser that read several parts at once: the first damaged part is named. */
    public static BadDataException damaged(List<Part> parts, Throwable parserError) {
        if (parserError instanceof BadDataException b) {
            return b;
        }
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
        String parser = said(parserError);
        if (located != null) {
            return new BadDataException(file + ": " + located.getMessage() + " (the recording is damaged; the parser said: " + parser + ")",
                    parserError);
        }
        return new BadDataException(file + ": cannot be parsed: " + parser + " (its chunk structure, metadata and constant pools are sound,"
                + " so an event's content is damaged or of a kind loomscope's reader rejects)", parserError);
    }

    private static void markFinished(Path copy, long stateByte) throws IOException {
        try (var ch = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {0}), stateByte);
        }
    }

    private static void copyPrefix(Path from, Path to, long bytes) throws IOException {
        try (InputStream in = Files.newInputStream(from); OutputStream out = Files.newOutputStream(to)) {
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

    /** A message on one line: a parser's multi-line text joined at its line breaks. */
    public static String oneLine(String message) {
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** The most of a parser's message a line shows. */
    static final int SAID = 300;

    /**
     * What a parser said, on one line: its message, or for an error without one its name in words
     * ({@code InvalidJfrFileException}: "invalid jfr file"), never a class name the user must decode.
     */
    public static String said(Throwable e) {
        if (e.getMessage() != null && !e.getMessage().isBlank()) {
            String line = oneLine(e.getMessage());
            return line.length() <= SAID ? line : line.substring(0, SAID) + "..."; // a parser may put a whole schema in its message
        }
        String name = e.getClass().getSimpleName().replaceFirst("(Exception|Error)$", "");
        return name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
    }
}
