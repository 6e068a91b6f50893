package dev.loomscope.analyzer.read.fast;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * A fast reader for what a summary needs: it walks each chunk's events by their headers (size and
 * type, the way {@code jfr summary} counts them), decodes only the event types asked for, and of
 * the constant pools keeps only the small ones those events refer to (strings, GC names, causes
 * and phases), skipping threads and stack traces without building them. The JDK's parser builds
 * every constant pool entry of every chunk; on recordings with millions of virtual threads that
 * is where its time and memory go.
 *
 * <p>Stack traces and threads are not resolved: a {@link FastEvent} answers null for them. Any
 * surprise in the format is an {@link IllegalStateException}; callers fall back to the JDK parser.
 */
public final class FastReader {
    /** Pools never kept: the big ones, which the decoded events do not need resolved. */
    private static final Set<String> UNRESOLVED = Set.of("java.lang.Thread", "jdk.types.StackTrace", "jdk.types.Method", "java.lang.Class",
            "jdk.types.Symbol", "jdk.types.ClassLoader", "jdk.types.Package", "jdk.types.Module", "jdk.types.ThreadGroup", "jdk.types.StackFrame");

    /** Events by type, and how many chunks. */
    public record Result(Map<String, Long> counts, int chunks) {}

    /** A chunk in a format this reader leaves to the JDK's parser (1.x, JDK 11-13). */
    public static final class UnsupportedException extends RuntimeException {
        UnsupportedException(String message) {
            super(message);
        }
    }

    /**
     * The bytes of a chunk do not follow JFR's format: which chunk (1-based, and where it starts)
     * and the byte offset in the file where reading stopped.
     */
    public static final class FormatException extends RuntimeException {
        public final long offset;

        FormatException(int chunk, long chunkStart, long offset, String what, Throwable cause) {
            super("damaged at byte " + offset + " (chunk " + chunk + ", which starts at byte " + chunkStart + "): " + what, cause);
            this.offset = offset;
        }
    }

    private FastReader() {}

    /**
     * Reads whole chunks of {@code file} ({@code bytes} of it: a complete prefix), chunks in
     * parallel (each is self-contained: its own metadata and constant pools); the decoded events
     * reach {@code sink} in file order, on the calling thread.
     */
    public static Result read(Path file, long bytes, Set<String> wanted, Consumer<FastEvent> sink) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            List<long[]> chunks = new ArrayList<>();
            long offset = 0;
            while (offset + 68 <= bytes) {
                ByteBuffer head = ch.map(FileChannel.MapMode.READ_ONLY, offset, 68);
                long size = head.getLong(8);
                if (head.getInt(0) != 0x464C5200 || size < 68 || offset + size > bytes || size > Integer.MAX_VALUE) {
                    throw new FormatException(chunks.size() + 1, offset, offset, "not a chunk header", null);
                }
                if (head.getShort(4) != 2) {
                    // written and tested against format 2 (JDK 14+); 1.x (JDK 11-13) goes to the JDK's parser
                    throw new UnsupportedException("JFR format " + head.getShort(4) + "." + head.getShort(6) + " at byte " + offset);
                }
                chunks.add(new long[] {offset, size});
                offset += size;
            }
            int threads = Math.max(1, Math.min(chunks.size(), Runtime.getRuntime().availableProcessors()));
            try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
                List<Future<Chunk>> futures = new ArrayList<>();
                for (int i = 0; i < chunks.size(); i++) {
                    long[] c = chunks.get(i);
                    int number = i + 1;
                    futures.add(pool.submit(() -> {
                        Chunk chunk = new Chunk(ch.map(FileChannel.MapMode.READ_ONLY, c[0], c[1]));
                        try {
                            chunk.read(wanted);
                        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                            throw new FormatException(number, c[0], c[0] + chunk.position(), what(e), e);
                        }
                        return chunk;
                    }));
                }
                for (Future<Chunk> f : futures) {
                    Chunk c = join(f);
                    c.counts.forEach((t, n) -> counts.merge(t, n, Long::sum));
                    c.decoded.forEach(sink);
                    c.decoded.clear();
                }
            }
            return new Result(counts, chunks.size());
        }
    }

    /**
     * Where {@code file}'s first {@code bytes} break JFR's format, by a walk over every chunk's
     * metadata, constant pools and event headers; null when the walk finds nothing wrong.
     */
    public static FormatException locateDamage(Path file, long bytes) throws IOException {
        try {
            read(file, bytes, Set.of(), e -> { });
            return null;
        } catch (FormatException e) {
            return e;
        }
    }

    private static String what(Throwable e) {
        if (e instanceof IndexOutOfBoundsException || e instanceof java.nio.BufferUnderflowException) {
            return "a length or an offset points past the end of its chunk";
        }
        if (e instanceof NegativeArraySizeException) {
            return "a negative length";
        }
        if (e instanceof OutOfMemoryError) {
            return "a length too large to be real";
        }
        if (e instanceof StackOverflowError) {
            return "the metadata nests deeper than any real recording";
        }
        if (e instanceof NullPointerException || e instanceof NumberFormatException) {
            return "the chunk's metadata is incomplete (" + e.getClass().getSimpleName() + ")";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static Chunk join(Future<Chunk> f) throws IOException {
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

    /** One chunk: its header, metadata and events. */
    private static final class Chunk {
        final ByteBuffer buf;
        final boolean compressed;
        final long startNanos;
        final long startTicks;
        final double ticksPerNano;
        /** The cursor in use (metadata or events), for where an error stopped it. */
        Cursor active;
        /** The raw value of the last integer field read, and the start time of the event being decoded. */
        long lastTicksRead;
        long eventStartTicks;
        Metadata meta;
        long stringTypeId = -1;
        /** Kept pools: type id -> entry id -> value (a String or a field map). */
        final Map<Long, Map<Long, Object>> pools = new HashMap<>();
        final Set<Long> keep = new HashSet<>();

        Chunk(ByteBuffer buf) {
            this.buf = buf;
            this.compressed = (buf.get(67) & 1) != 0;
            this.startNanos = buf.getLong(32);
            this.startTicks = buf.getLong(48);
            long ticksPerSecond = buf.getLong(56);
            this.ticksPerNano = ticksPerSecond > 0 ? ticksPerSecond / 1_000_000_000.0 : 1; // as the JDK's parser converts
        }

        final Map<String, Long> counts = new HashMap<>();
        final List<FastEvent> decoded = new ArrayList<>();

        void read(Set<String> wanted) {
            long metaOffset = buf.getLong(24);
            if (metaOffset < 68 || metaOffset >= buf.limit()) {
                throw new IllegalStateException("the metadata offset " + metaOffset + " lies outside the chunk");
            }
            active = new Cursor(buf, compressed, (int) metaOffset);
            meta = Metadata.parse(active);
            Long s = meta.idsByName.get("java.lang.String");
            stringTypeId = s == null ? -1 : s;
            Set<Long> wantedIds = new HashSet<>();
            for (String w : wanted) {
                Long id = meta.idsByName.get(w);
                if (id != null) {
                    wantedIds.add(id);
                    for (Metadata.Field f : meta.classes.get(id).fields()) {
                        Metadata.JfrClass type = meta.classes.get(f.typeId());
                        if (f.constantPool() && type != null && !UNRESOLVED.contains(type.name())) {
                            keep.add(f.typeId());
                        }
                    }
                }
            }
            if (stringTypeId >= 0) {
                keep.add(stringTypeId);
            }
            Map<Long, long[]> countsById = new HashMap<>();
            Cursor c = new Cursor(buf, compressed, 68);
            active = c;
            int limit = buf.limit();
            while (c.pos < limit) {
                int at = c.pos;
                int size = c.readInt();
                if (size <= 0 || at + size > limit) {
                    c.pos = at;
                    throw new IllegalStateException("an event's size is " + size + " bytes");
                }
                long type = c.readLong();
                if (type == 1) {
                    checkpoint(c);
                } else if (type != 0) {
                    countsById.computeIfAbsent(type, k -> new long[1])[0]++;
                    Metadata.JfrClass cls = meta.classes.get(type);
                    if (cls == null) {
                        throw new IllegalStateException("an event of type " + type + ", which the chunk's metadata does not define");
                    }
                    if (wantedIds.contains(type)) {
                        decoded.add(new FastEvent(cls.name(), decodeFields(c, cls), this::resolve));
                    }
                }
                c.pos = at + size;
            }
            countsById.forEach((id, n) -> {
                Metadata.JfrClass cls = meta.classes.get(id);
                counts.merge(cls == null ? "type " + id : cls.name(), n[0], Long::sum);
            });
        }

        /** Where reading stopped, in the chunk. */
        long position() {
            return active == null ? 0 : active.pos;
        }

        Instant instant(long ticks) {
            return Instant.ofEpochSecond(0, nanos(ticks));
        }

        long nanos(long ticks) {
            return startNanos + (long) ((ticks - startTicks) / ticksPerNano);
        }

        private void checkpoint(Cursor c) {
            c.readLong(); // start
            c.readLong(); // duration
            c.readLong(); // delta to the previous checkpoint
            c.readByte(); // kind (flush, chunk header, statics, threads)
            int poolCount = c.readInt();
            for (int p = 0; p < poolCount; p++) {
                long typeId = c.readLong();
                int count = c.readInt();
                Metadata.JfrClass cls = meta.classes.get(typeId);
                if (cls == null) {
                    throw new IllegalStateException("a constant pool of type " + typeId + ", which the chunk's metadata does not define");
                }
                boolean kept = keep.contains(typeId);
                Map<Long, Object> pool = kept ? pools.computeIfAbsent(typeId, k -> new HashMap<>()) : null;
                for (int i = 0; i < count; i++) {
                    long id = c.readLong();
                    if (kept) {
                        pool.put(id, typeId == stringTypeId ? c.readString(stringTypeId) : decodeFields(c, cls));
                    } else {
                        skipValue(c, cls);
                    }
                }
            }
        }

        /** A class's fields, in order, as a map; pool references stay references until the chunk ends. */
        private Map<String, Object> decodeFields(Cursor c, Metadata.JfrClass cls) {
            Map<String, Object> values = new LinkedHashMap<>();
            for (Metadata.Field f : cls.fields()) {
                if (f.array()) {
                    skipField(c, f);
                    continue;
                }
                Object v = readField(c, f);
                if (f.name().equals("startTime") && v instanceof Instant) {
                    eventStartTicks = lastTicksRead;
                } else if (f.name().equals("duration") && v instanceof Nanos && "TICKS".equals(f.timespan())) {
                    // as the JDK's parser: end minus start, each converted (not the span converted), to the nanosecond
                    v = new Nanos(nanos(eventStartTicks + lastTicksRead) - nanos(eventStartTicks));
                }
                values.put(f.name(), v);
            }
            return values;
        }

        private Object readField(Cursor c, Metadata.Field f) {
            if (f.constantPool()) {
                return new Cursor.PoolRef(f.typeId(), c.readLong());
            }
            Metadata.JfrClass type = meta.classes.get(f.typeId());
            Object v = switch (type.name()) {
                case "boolean" -> c.readByte() != 0;
                case "byte" -> (long) c.readByte();
                case "char" -> (long) c.readChar();
                case "short" -> (long) c.readShort();
                case "int" -> (long) c.readInt();
                case "long" -> c.readLong();
                case "float" -> (double) c.readFloat();
                case "double" -> c.readDouble();
                case "java.lang.String" -> c.readString(stringTypeId);
                default -> decodeFields(c, type);
            };
            if (v instanceof Long raw) {
                lastTicksRead = raw;
            }
            if (v instanceof Long ticks && f.timespan() != null) {
                return new Nanos(toNanos(ticks, f.timespan()));
            }
            if (v instanceof Long ticks && f.name().equals("startTime")) {
                return instant(ticks);
            }
            return v;
        }

        private long toNanos(long value, String unit) {
            return switch (unit) {
                case "TICKS" -> (long) (value / ticksPerNano);
                case "MICROSECONDS" -> value * 1_000;
                case "MILLISECONDS" -> value * 1_000_000;
                case "SECONDS" -> value * 1_000_000_000;
                default -> value;
            };
        }

        /** Moves past a field's value: an array (a count, then its elements) or one element. */
        private void skipField(Cursor c, Metadata.Field f) {
            int n = f.array() ? c.readInt() : 1;
            for (int i = 0; i < n; i++) {
                if (f.constantPool()) {
                    c.readLong();
                } else {
                    skipValue(c, meta.classes.get(f.typeId()));
                }
            }
        }

        private void skipValue(Cursor c, Metadata.JfrClass type) {
            switch (type.name()) {
                case "boolean", "byte" -> c.pos++;
                case "char" -> c.readChar();
                case "short" -> c.readShort();
                case "int" -> c.readInt();
                case "long" -> c.readLong();
                case "float" -> c.pos += 4;
                case "double" -> c.pos += 8;
                case "java.lang.String" -> c.skipString();
                default -> {
                    for (Metadata.Field f : type.fields()) {
                        skipField(c, f);
                    }
                }
            }
        }

        /** A pool reference's value in this chunk: a String, a field map, or null. */
        Object resolve(Cursor.PoolRef ref) {
            Map<Long, Object> pool = pools.get(ref.typeId());
            return pool == null ? null : pool.get(ref.id());
        }
    }

    /** A duration field's value, in nanoseconds. */
    record Nanos(long value) {}

}
