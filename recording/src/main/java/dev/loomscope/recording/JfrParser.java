package dev.loomscope.recording;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * loomscope's reader of JFR format 2 (JDK 11 and later, async-profiler): it walks each chunk's events by their headers
 * (size and type, the way {@code jfr summary} counts them), decodes only the event types asked for, and resolves their
 * constant-pool values (threads, stack traces, strings) lazily by id (see {@link ChunkReader}). The JDK's parser builds
 * every constant-pool entry of every chunk; on recordings with millions of virtual threads that is where its time and
 * memory go.
 *
 * <p>Chunks are read in parallel, a few ahead of the one being handed on, each into one of a few buffers, taken again
 * once its events are consumed: memory is bounded by a few chunks and what their wanted events hold, not by the file.
 * Events reach the sink in file order, on the calling thread. Nothing is sized by a field of the file before it is
 * checked against the chunk: a damaged file is a {@link DamagedRecordingException} naming the chunk and the byte
 * offset.
 */
public final class JfrParser {

    /**
     * The name the counts give events of a type the chunk's metadata does not define, as the JDK's jfr summary names
     * them: {@code 732 (missing event metadata)}.
     */
    public static final String UNDEFINED = " (missing event metadata)";
    /**
     * Counted once a chunk whose checkpoint chain is not sound ({@link ChunkReader}); said in a warning, not an event
     * type.
     */
    public static final String UNSOUND_CHAIN = " (chunks whose checkpoint chain cannot be followed)";

    /** Events by type, and how many chunks. */
    public record Result(Map<String, Long> counts, int chunks) {}

    private JfrParser() {}

    /**
     * Reads the whole chunks of {@code file}'s first {@code bytes} (a complete prefix); the decoded events of the
     * {@code wanted} types reach {@code sink} in file order, on the calling thread.
     */
    public static Result read(Path file, long bytes, Set<String> wanted, Consumer<ParsedEvent> sink)
            throws IOException {
        return read(file, bytes, wanted, false, sink);
    }

    private static Result read(
            Path file, long bytes, Set<String> wanted, boolean checkPools, Consumer<ParsedEvent> sink)
            throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            List<long[]> chunks = chunks(ch, bytes);
            int threads =
                    Math.max(1, Math.min(chunks.size(), Runtime.getRuntime().availableProcessors()));
            int ahead = threads + 1; // chunks read or being read beyond the one handed on
            int bufferSize = bufferSize(chunks, ahead + 1);
            // the chunks' mappings not yet given back: every one is, once the reading threads have ended, whatever
            // happened
            Queue<ChunkMemory> open = new ConcurrentLinkedQueue<>();
            // a mapping's unmapping waits for every thread to pass a safepoint (a shared arena's close): a millisecond
            // each that
            // the thread handing events on spent waiting, not handing on (on the 1.2 GB recording, 51 chunks: a tenth
            // of its time)
            try (ExecutorService unmapper = Executors.newSingleThreadExecutor(Thread.ofPlatform()
                            .name("loomscope-chunk-unmapper")
                            .daemon()
                            .factory());
                    ExecutorService pool = Executors.newFixedThreadPool(
                            threads,
                            Thread.ofPlatform()
                                    .name("loomscope-chunk-reader")
                                    .daemon()
                                    .factory())) {
                Deque<Future<ChunkReader>> window = new ArrayDeque<>();
                // buffers of chunks whose events were handed on, for the next chunks (no allocation per chunk)
                Queue<byte[]> free = new ConcurrentLinkedQueue<>();
                Metadata.Cache metadata = new Metadata.Cache();
                int next = 0;
                try {
                    while (next < chunks.size() || !window.isEmpty()) {
                        while (next < chunks.size() && window.size() < ahead) {
                            window.add(submit(
                                    pool,
                                    ch,
                                    chunks.get(next),
                                    next + 1,
                                    wanted,
                                    checkPools,
                                    free,
                                    bufferSize,
                                    metadata,
                                    open));
                            next++;
                        }
                        ChunkReader c = join(window.poll());
                        c.counts.forEach((t, n) -> counts.merge(t, n, Long::sum));
                        c.decoded.forEach(sink);
                        c.decoded.clear();
                        // the sink keeps no event: nothing reads this chunk's bytes now (one that does is told so), its
                        // buffer is free
                        ChunkMemory done = c.memory;
                        done.handOver();
                        unmapper.execute(() -> {
                            done.close();
                            open.remove(done);
                        });
                        free.add(done.array);
                    }
                } catch (RuntimeException | Error e) {
                    window.forEach(f -> f.cancel(true)); // the chunks read ahead are not needed now
                    throw e;
                }
            } finally {
                open.forEach(ChunkMemory::close);
            }
            return new Result(counts, chunks.size());
        }
    }

    /**
     * Where each chunk starts and how long it is, from the chunk walk; in the part the scan found whole, a header out
     * of place is damage.
     */
    private static List<long[]> chunks(FileChannel ch, long bytes) throws IOException {
        Chunks.Walk walk = Chunks.walk(ch, bytes);
        if (walk.end() != Chunks.End.WHOLE) {
            throw new DamagedRecordingException(
                    walk.chunks().size() + 1, walk.at(), walk.at(), "not a chunk header", null);
        }
        List<long[]> chunks = new ArrayList<>();
        for (Chunks.Chunk c : walk.chunks()) {
            ChunkHeader h = c.header();
            if (h.size() > Integer.MAX_VALUE - 8) {
                throw new DamagedRecordingException(
                        c.number(),
                        c.offset(),
                        c.offset(),
                        "a chunk of " + h.size() + " bytes (2 GB and more are not read)",
                        null);
            }
            if (h.major() != 1 && h.major() != 2) {
                // format 1 (JDK 9, 10) lays chunks out as 2 does (the JDK's parser reads both with one code); only its
                // names differ
                // (Metadata.currentName). The first chunk's format was checked before (JfrFileCheck): a later one's is
                // damage.
                throw new DamagedRecordingException(
                        c.number(),
                        c.offset(),
                        c.offset(),
                        "a chunk of JFR format " + h.major() + "." + h.minor()
                                + " (1.x and 2.x are JFR's formats since JDK 9)",
                        null);
            }
            chunks.add(new long[] {c.offset(), h.size()});
        }
        return chunks;
    }

    /**
     * The size of a chunk's buffer: the largest chunk's, so that the {@code buffers} made first serve every chunk after
     * them. A buffer made to one chunk's size is too small for the next larger one, and each made anew is memory the
     * system must hand over and zero (on a 1.2 GB recording of 51 chunks of 16-51 MB, 15 buffers made and a third of
     * the command's system time). The buffers together stay within half the heap: a chunk larger than that allows gets
     * a buffer of its size.
     */
    private static int bufferSize(List<long[]> chunks, int buffers) {
        long largest = chunks.stream().mapToLong(c -> c[1]).max().orElse(0);
        return (int) Math.min(largest, Runtime.getRuntime().maxMemory() / 2 / buffers);
    }

    private static Future<ChunkReader> submit(
            ExecutorService pool,
            FileChannel ch,
            long[] c,
            int number,
            Set<String> wanted,
            boolean checkPools,
            Queue<byte[]> free,
            int bufferSize,
            Metadata.Cache metadata,
            Queue<ChunkMemory> open) {
        return pool.submit(() -> {
            byte[] reused = free.poll();
            byte[] bytes =
                    reused != null && reused.length >= c[1] ? reused : new byte[(int) Math.max(c[1], bufferSize)];
            ChunkMemory memory = ChunkMemory.open(ch, c[0], bytes, (int) c[1], number);
            open.add(memory);
            ChunkReader chunk = new ChunkReader(memory, number, c[0], metadata);
            try {
                chunk.read(wanted, checkPools);
                if (checkPools) {
                    chunk.checkPools();
                }
            } catch (DamagedRecordingException e) {
                throw e; // the file cut short under the mapping: said already
            } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                throw new DamagedRecordingException(number, c[0], c[0] + chunk.position(), what(e), e);
            }
            return chunk;
        });
    }

    /**
     * Walks {@code file}'s first {@code bytes} as {@code RecordingFile.locateDamage} does (metadata, every event and
     * every constant pool value by value, nothing kept), counting the events; damage is a
     * {@link DamagedRecordingException}. What passes can be handed to a parser that trusts every length.
     */
    public static Result check(Path file, long bytes) throws IOException {
        return read(file, bytes, Set.of(), true, e -> {});
    }

    static String what(Throwable e) {
        if (e instanceof IndexOutOfBoundsException || e instanceof BufferUnderflowException) {
            return "a length or an offset points past the end of its chunk";
        }
        if (e instanceof NegativeArraySizeException) {
            return "a negative length";
        }
        if (e instanceof OutOfMemoryError) {
            return "a length too large to be real";
        }
        if (e instanceof StackOverflowError) {
            return "values nest deeper than any real recording's";
        }
        if (e instanceof NumberFormatException) {
            return "the chunk's metadata holds a number that is not one";
        }
        if (e instanceof NullPointerException) {
            return "the chunk's metadata is incomplete";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static ChunkReader join(Future<ChunkReader> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
