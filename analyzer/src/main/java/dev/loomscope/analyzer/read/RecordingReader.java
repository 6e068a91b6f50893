package dev.loomscope.analyzer.read;

import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.BadRecordingException;
import dev.loomscope.recording.DamagedRecordingException;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.RecordingFile;
import dev.loomscope.recording.RecordingParts;
import dev.loomscope.recording.RecordingParts.Part;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A recording's events for the analyzer: its parts made readable by {@link RecordingParts}, then streamed one at a time
 * (never a list of them) by the parser its scan chose ({@link #events}), and what cannot be read said as bad input.
 * Warnings (a truncated last chunk) go to {@code warnings}.
 *
 * <p>What the parser throws is the file's damage (bad input, located by byte offset); what the sink throws is the
 * sink's own and passes through untouched: a bug in a reduction is never reported as a damaged recording.
 */
public final class RecordingReader {
    private RecordingReader() {}

    /**
     * The one way main code reads a recording's events, the parser chosen here: loomscope's ({@link RecordingFile}: JFR
     * formats 1 and 2, JDK 9 and later, async-profiler) or, for format 0.x (JDK 7 and 8), JMC's, with a warning that
     * stacks are not read that way. The events of the {@code wanted} types go to {@code sink} (with the span of the
     * recording's chunks) and each part's event counts to {@code counts}; damage is bad input naming the file, chunk
     * and offset. Answers the span.
     */
    public static RecordingSpan events(
            RecordingSource source,
            Set<String> wanted,
            Consumer<String> warnings,
            BiConsumer<JfrEvent, RecordingSpan> sink,
            Consumer<Map<String, Long>> counts) {
        return withReadableParts(
                source, warnings, readable -> all(source, readable, wanted, warnings, new PartSink(sink, counts)));
    }

    /**
     * Where one part's events go: the events of the wanted types (with the recording's span), then the part's event
     * counts.
     */
    public record PartSink(BiConsumer<JfrEvent, RecordingSpan> events, Consumer<Map<String, Long>> counts) {}

    /**
     * As {@link #events}, for a reduction that does not depend on the order of the parts (a flame graph's samples,
     * which merge): the parts are read on up to as many threads as there are processors, each thread into a sink of its
     * own from {@code sinks} (asked for on this thread), so that the small part the agent's async-profiler samples make
     * beside a large recording is reduced while the large one is read, not after it. The warnings come in the order of
     * the parts; where parts failed, what the first of them threw is thrown. Answers the span.
     */
    public static RecordingSpan eventsByPart(
            RecordingSource source, Set<String> wanted, Consumer<String> warnings, Supplier<PartSink> sinks) {
        return withReadableParts(source, warnings, readable -> {
            List<Part> parts = readable.parts();
            int threads = Math.min(parts.size(), Runtime.getRuntime().availableProcessors());
            if (readable.olderFormat() != null || threads <= 1) {
                return all(source, readable, wanted, warnings, sinks.get());
            }
            RecordingFile.Read[] reads = new RecordingFile.Read[parts.size()];
            Throwable[] failed = new Throwable[parts.size()];
            // the parts after the first that failed are not needed: every part before it is read, as in order
            AtomicInteger firstFailed = new AtomicInteger(Integer.MAX_VALUE);
            try (ExecutorService pool = Executors.newFixedThreadPool(
                    threads,
                    Thread.ofPlatform().name("loomscope-part-reader").daemon().factory())) {
                for (int first = 0; first < threads; first++) {
                    int from = first;
                    PartSink sink = sinks.get();
                    pool.execute(() -> {
                        for (int i = from; i < parts.size() && i < firstFailed.get(); i += threads) {
                            try {
                                reads[i] = part(parts.get(i), wanted, readable.span(), sink);
                            } catch (Exception | Error e) {
                                failed[i] = e;
                                firstFailed.accumulateAndGet(i, Math::min);
                                return;
                            }
                        }
                    });
                }
            }
            for (int i = 0; i < parts.size(); i++) {
                if (failed[i] != null) {
                    throw rethrown(failed[i]);
                }
                reads[i].warnings().forEach(warnings);
            }
            return readable.span();
        });
    }

    /** The parts of {@code readable}, one after the other, into {@code sink}; answers the span. */
    private static RecordingSpan all(
            RecordingSource source,
            RecordingParts.Readable readable,
            Set<String> wanted,
            Consumer<String> warnings,
            PartSink sink)
            throws IOException, BadRecordingException {
        if (readable.olderFormat() != null) {
            return viaJmc(source, readable.olderFormat(), wanted, warnings, sink.events(), sink.counts());
        }
        for (Part part : readable.parts()) {
            part(part, wanted, readable.span(), sink).warnings().forEach(warnings);
        }
        return readable.span();
    }

    /** One part's events and counts into {@code sink}; answers what was read, its warnings naming the user's file. */
    private static RecordingFile.Read part(Part part, Set<String> wanted, RecordingSpan span, PartSink sink)
            throws IOException, BadRecordingException {
        try {
            // every part with the whole recording's span (--from/--to count from its first chunk, whichever part)
            RecordingFile.Read read = RecordingFile.read(
                    part.readable(),
                    part.prefix(),
                    wanted,
                    (e, partSpan) -> sink.events().accept(e, span));
            sink.counts().accept(read.counts());
            return new RecordingFile.Read(
                    read.counts(),
                    read.span(),
                    read.warnings().stream()
                            .map(w -> w.replace(
                                    part.readable().toString(), part.original().toString()))
                            .toList());
        } catch (DamagedRecordingException damage) {
            throw damaged(part.original(), damage);
        }
    }

    /**
     * What a part's reader threw, to be thrown on the calling thread as it was (an error, an unchecked exception, the
     * reader's checked ones).
     */
    private static RuntimeException rethrown(Throwable e) throws IOException, BadRecordingException {
        if (e instanceof IOException io) {
            throw io;
        }
        if (e instanceof BadRecordingException bad) {
            throw bad;
        }
        if (e instanceof Error err) {
            throw err;
        }
        return e instanceof RuntimeException re ? re : new IllegalStateException(e);
    }

    /**
     * A recording of format 0.x through JMC's parser, which holds it all in memory and hands on every event in time
     * order: the wanted ones go on, all are counted, and the span is the events' (the chunk headers of 0.x are not
     * read).
     */
    private static RecordingSpan viaJmc(
            RecordingSource source,
            String rejected,
            Set<String> wanted,
            Consumer<String> warnings,
            BiConsumer<JfrEvent, RecordingSpan> sink,
            Consumer<Map<String, Long>> counts) {
        List<JfrEvent> kept = new ArrayList<>();
        Map<String, Long> byType = new TreeMap<>();
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
        warnings.accept(source.name().toAbsolutePath() + ": read with JMC's parser (" + rejected
                + "); stack traces are not read this way");
        RecordingSpan recorded = byType.isEmpty() ? new RecordingSpan() : RecordingSpan.of(span[0], span[1]);
        kept.forEach(e -> sink.accept(e, recorded));
        counts.accept(byType);
        return recorded;
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * Hands {@code body} the parts of {@code source} as a parser can read them ({@link RecordingParts#read}); what
     * cannot be read is bad input naming the user's file.
     */
    public static <T> T withReadableParts(
            RecordingSource source, Consumer<String> warnings, RecordingParts.Reader<T> body) {
        try {
            return RecordingParts.read(source, warnings, body);
        } catch (BadRecordingException e) {
            throw new BadDataException(e.getMessage(), e);
        }
    }

    /** Damage loomscope's reader found in {@code file}: bad input, with the chunk and the offset. */
    public static BadDataException damaged(Path file, DamagedRecordingException damage) {
        return new BadDataException(BadRecordingException.said(file, damage), damage);
    }

    /** A parser stopped on {@code part}: bad input, in the one wording of damage ({@link RecordingParts#damaged}). */
    public static BadDataException damaged(Part part, Throwable parserError) {
        return damaged(List.of(part), parserError);
    }

    /**
     * {@link #damaged(Part, Throwable)} for a parser that read several parts at once: the first damaged part is named.
     */
    public static BadDataException damaged(List<Part> parts, Throwable parserError) {
        return parserError instanceof BadDataException b
                ? b
                : new BadDataException(RecordingParts.damaged(parts, parserError), parserError);
    }
}
