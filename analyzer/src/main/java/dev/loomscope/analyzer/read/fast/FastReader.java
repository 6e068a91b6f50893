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

    /** Events by type, the span from the chunk headers, and how many chunks. */
    public record Result(Map<String, Long> counts, Instant first, Instant last, int chunks) {}

    private FastReader() {}

    /**
     * Reads whole chunks of {@code file} ({@code bytes} of it: a complete prefix), chunks in
     * parallel (each is self-contained: its own metadata and constant pools); the decoded events
     * reach {@code sink} in file order, on the calling thread.
     */
    public static Result read(Path file, long bytes, Set<String> wanted, Consumer<FastEvent> sink) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        Instant first = null;
        Instant last = null;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            List<long[]> chunks = new ArrayList<>();
            long offset = 0;
            while (offset + 68 <= bytes) {
                ByteBuffer head = ch.map(FileChannel.MapMode.READ_ONLY, offset, 68);
                long size = head.getLong(8);
                if (head.getInt(0) != 0x464C5200 || size < 68 || offset + size > bytes || size > Integer.MAX_VALUE) {
                    throw new IllegalStateException("unexpected chunk header at byte " + offset);
                }
                if (head.getShort(4) != 2) {
                    // written and tested against format 2 (JDK 14+); 1.x (JDK 11-13) goes to the JDK's parser
                    throw new IllegalStateException("JFR format " + head.getShort(4) + "." + head.getShort(6) + " at byte " + offset);
                }
                chunks.add(new long[] {offset, size});
                offset += size;
            }
            int threads = Math.max(1, Math.min(chunks.size(), Runtime.getRuntime().availableProcessors()));
            try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
                List<Future<Chunk>> futures = new ArrayList<>();
                for (long[] c : chunks) {
                    futures.add(pool.submit(() -> {
                        Chunk chunk = new Chunk(ch.map(FileChannel.MapMode.READ_ONLY, c[0], c[1]));
                        chunk.read(wanted);
                        return chunk;
                    }));
                }
                for (Future<Chunk> f : futures) {
                    Chunk c = join(f);
                    c.counts.forEach((t, n) -> counts.merge(t, n, Long::sum));
                    c.decoded.forEach(sink);
                    c.decoded.clear();
                    if (c.firstTicks <= c.lastTicks) {
                        Instant from = c.instant(c.firstTicks);
                        Instant to = c.instant(c.lastTicks);
                        first = first == null || from.isBefore(first) ? from : first;
                        last = last == null || to.isAfter(last) ? to : last;
                    }
                }
            }
            return new Result(counts, first, last, chunks.size());
        }
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
        long firstTicks = Long.MAX_VALUE;
        /** The raw value of the last integer field read, and the start time of the event being decoded. */
        long lastTicksRead;
        long eventStartTicks;
        long lastTicks = Long.MIN_VALUE;
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
            meta = Metadata.parse(new Cursor(buf, compressed, (int) metaOffset));
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
            int limit = buf.limit();
            while (c.pos < limit) {
                int at = c.pos;
                int size = c.readInt();
                if (size <= 0 || at + size > limit) {
                    throw new IllegalStateException("bad event size " + size + " at chunk offset " + at);
                }
                long type = c.readLong();
                if (type == 1) {
                    checkpoint(c);
                } else if (type != 0) {
                    countsById.computeIfAbsent(type, k -> new long[1])[0]++;
                    Metadata.JfrClass cls = meta.classes.get(type);
                    if (cls == null) {
                        throw new IllegalStateException("event of unknown type " + type + " at chunk offset " + at);
                    }
                    if (wantedIds.contains(type)) {
                        span(new Cursor(buf, compressed, c.pos), cls);
                        decoded.add(new FastEvent(cls.name(), decodeFields(c, cls), this::resolve));
                    } else {
                        span(c, cls);
                    }
                }
                c.pos = at + size;
            }
            countsById.forEach((id, n) -> {
                Metadata.JfrClass cls = meta.classes.get(id);
                counts.merge(cls == null ? "type " + id : cls.name(), n[0], Long::sum);
            });
        }

        /** Every event starts with its start time, and its duration when it has one: they give the span. */
        private void span(Cursor c, Metadata.JfrClass cls) {
            List<Metadata.Field> f = cls.fields();
            if (f.isEmpty() || !f.get(0).name().equals("startTime")) {
                return;
            }
            long start = c.readLong();
            long duration = f.size() > 1 && f.get(1).name().equals("duration") ? c.readLong() : 0;
            firstTicks = Math.min(firstTicks, start);
            lastTicks = Math.max(lastTicks, start + duration);
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
                    throw new IllegalStateException("constant pool of unknown type " + typeId);
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
