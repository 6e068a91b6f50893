package dev.loomscope.recording;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One chunk: its header, metadata, constant pools and events. Every event is walked by its header (size and type) and
 * counted; only the wanted types are decoded. Constant pools are not read with the events: where the checkpoints are is
 * noted, and a pool is indexed (entry id to offset) the first time a value of its type is asked for (a thread's name, a
 * stack trace's frames, a GC's cause), each value decoded once. Pools nobody asks for, the big thread pools of
 * recordings with millions of virtual threads among them, are never walked. Type ids are taken to be below 2^20, as the
 * JDK's and async-profiler's are.
 */
final class ChunkReader {
    /** For {@link #index}: walk every pool, value by value, and index none. */
    private static final long EVERY_POOL = Long.MIN_VALUE;

    /** How deep constant-pool values may nest (a stack trace's frame's method's class's package is 5). */
    private static final int MAX_DEPTH = 32;

    final ChunkMemory memory;
    final boolean compressed;
    final long startNanos;
    final long startTicks;
    final double ticksPerNano;
    /** The cursor in use (metadata or events), for where an error stopped it. */
    private Cursor active;
    /** The raw value of the last integer field read, and the start time of the event being decoded. */
    private long lastTicksRead;

    private long eventStartTicks;
    Metadata meta;
    long stringTypeId = -1;
    /** Where the chunk's checkpoint events (constant pools) start. */
    private final IntList checkpoints = new IntList();
    /** Indexed pools, each made when first asked for: type id -> entry id -> offset of its value in the chunk. */
    private final Map<Long, LongIntMap> index = new HashMap<>();
    /** Stack traces as frames, each built once: stack trace id -> frames (null: no such trace). */
    private final Map<Long, List<RawFrame>> frames = new HashMap<>();
    /** Values decoded on demand: type id -> entry id -> value (a String, a field map). */
    private final Map<Long, Map<Long, Object>> decodedPools = new HashMap<>();

    final Map<String, Long> counts = new HashMap<>();
    final List<ParsedEvent> decoded = new ArrayList<>();

    /**
     * Which chunk of the file (1-based) and where it starts: for errors found after the walk, when values are resolved.
     */
    final int number;

    final long fileOffset;
    private final ChunkHeader header;

    /** The file's metadata parsed so far, shared by its chunks. */
    private final Metadata.Cache metadataCache;

    ChunkReader(ChunkMemory memory, int number, long fileOffset, Metadata.Cache metadataCache) {
        this.metadataCache = metadataCache;
        this.number = number;
        this.fileOffset = fileOffset;
        this.memory = memory;
        memory.present(0, ChunkHeader.SIZE);
        this.header = ChunkHeader.of(ByteBuffer.wrap(memory.array), 0);
        this.compressed = header.compressedIntegers();
        this.startNanos = header.startNanos();
        this.startTicks = header.startTicks();
        long ticksPerSecond = header.ticksPerSecond();
        this.ticksPerNano = ticksPerSecond > 0 ? ticksPerSecond / 1_000_000_000.0 : 1; // as the JDK's parser converts
    }

    /** Where reading stopped, in the chunk. */
    long position() {
        return active == null ? 0 : active.pos;
    }

    void read(Set<String> wanted) {
        read(wanted, false);
    }

    /**
     * Reads the chunk; with {@code decodeAll} the events of every other type are decoded too, and dropped (a check of
     * every value).
     */
    void read(Set<String> wanted, boolean decodeAll) {
        long metaOffset = header.metadataOffset();
        if (metaOffset < ChunkHeader.SIZE || metaOffset >= memory.length) {
            throw new IllegalStateException("the metadata offset " + metaOffset + " lies outside the chunk");
        }
        active = new Cursor(memory, compressed, (int) metaOffset);
        meta = metadataCache.parse(active);
        Long s = meta.idsByName.get("java.lang.String");
        stringTypeId = s == null ? -1 : s;
        Set<Long> wantedIds = new HashSet<>();
        for (String w : wanted) {
            Long id = meta.idsByName.get(w);
            if (id != null) {
                wantedIds.add(id);
            }
        }
        // per-event lookups by type id in arrays (ids are small numbers): this loop runs once per event of the file
        int maxId = 0;
        for (long id : meta.classes.keySet()) {
            if (id >= 0 && id < 1 << 20) {
                maxId = Math.max(maxId, (int) id);
            }
        }
        Metadata.JfrClass[] classById = new Metadata.JfrClass[maxId + 1];
        meta.classes.forEach((id, cls) -> {
            if (id >= 0 && id < classById.length) {
                classById[(int) (long) id] = cls;
            }
        });
        boolean[] wantedById = new boolean[maxId + 1];
        wantedIds.forEach(id -> {
            if (id >= 0 && id < wantedById.length) {
                wantedById[(int) (long) id] = true;
            }
        });
        long[] countById = new long[maxId + 1];
        // the events only counted (neither wanted nor checkpoints) are walked by a loop of their own
        boolean[] onlyCounted = new boolean[maxId + 1];
        for (int id = 2; id <= maxId; id++) {
            onlyCounted[id] = classById[id] != null && !wantedById[id] && !decodeAll;
        }
        Cursor c = new Cursor(memory, compressed, ChunkHeader.SIZE);
        active = c;
        int limit = memory.length;
        while (c.pos < limit) {
            c.pos = CountedEvents.skip(memory, c.pos, compressed, onlyCounted, countById);
            if (c.pos < limit) {
                event(c, classById, wantedById, countById, decodeAll);
            }
        }
        for (int id = 0; id < countById.length; id++) {
            if (countById[id] > 0) {
                counts.merge(classById[id].name(), countById[id], Long::sum);
            }
        }
        if (!CheckpointChain.isSound(header.constantPoolOffset(), checkpoints, memory, compressed)) {
            counts.merge(JfrParser.UNSOUND_CHAIN, 1L, Long::sum);
        }
    }

    /**
     * The event at the cursor, which {@link CountedEvents#skip} left: a checkpoint noted, a wanted event decoded,
     * damage thrown.
     */
    private void event(
            Cursor c, Metadata.JfrClass[] classById, boolean[] wantedById, long[] countById, boolean decodeAll) {
        int limit = memory.length;
        int at = c.pos;
        int size = c.readInt();
        if (size <= 0 || size > limit - at) {
            c.pos = at;
            throw new IllegalStateException(
                    "an event's size is " + size + " bytes, and " + (limit - at) + " are left in the chunk");
        }
        long type = c.readLong();
        if (type == 1) {
            checkpoints.add(at);
        } else if (type != 0) {
            Metadata.JfrClass cls = type > 0 && type < classById.length ? classById[(int) type] : null;
            if (cls == null) {
                // a type the metadata does not define (a JVM's emergency dump, hs_err, writes such): its size is known,
                // so it is
                // skipped and counted, as the JDK's jfr does
                counts.merge(type + JfrParser.UNDEFINED, 1L, Long::sum);
                c.pos = at + size;
                return;
            }
            countById[(int) type]++;
            if (wantedById[(int) type] || decodeAll) {
                Map<String, Object> fields = decodeEventFields(c, cls);
                if (wantedById[(int) type]) {
                    decoded.add(new ParsedEvent(cls.name(), fields, this));
                }
                if (c.pos > at + size) {
                    c.pos = at;
                    throw new IllegalStateException(
                            "a " + cls.name() + " event's fields run past its size of " + size + " bytes");
                }
            }
        }
        c.pos = at + size;
    }

    /**
     * Indexes the entries of one type's pool in this chunk's checkpoints: entry id to offset. Pools of other types
     * before it in a checkpoint are walked past; after it, skipped whole.
     */
    private LongIntMap index(long wantedType) {
        LongIntMap pool = new LongIntMap();
        for (int k = 0; k < checkpoints.size(); k++) {
            Cursor c = new Cursor(memory, compressed, checkpoints.get(k));
            active = c;
            c.readInt(); // size
            c.readLong(); // type (1)
            c.readLong(); // start
            c.readLong(); // duration
            c.readLong(); // delta to the previous checkpoint
            c.readByte(); // kind (flush, chunk header, statics, threads)
            int poolCount = c.readInt();
            c.checkCount(poolCount, 2);
            for (int p = 0; p < poolCount; p++) {
                long typeId = c.readLong();
                int count = c.readInt();
                c.checkCount(count, 1);
                Metadata.JfrClass cls = meta.classes.get(typeId);
                if (cls == null && count == 0) {
                    // an empty pool of a type the writer did not define (other profilers' writers leave such): nothing
                    // to read
                    continue;
                }
                if (cls == null) {
                    throw new IllegalStateException(
                            "a constant pool of type " + typeId + ", which the chunk's metadata does not define");
                }
                boolean wanted = typeId == wantedType;
                if (!wanted && p == poolCount - 1 && wantedType != EVERY_POOL) {
                    break; // the checkpoint's last pool, of another type: not walked (thread constants, mostly)
                }
                for (int i = 0; i < count; i++) {
                    long id = c.readLong();
                    if (wanted) {
                        pool.put(id, c.pos);
                    }
                    skipValue(c, cls, 0);
                }
                if (wanted) {
                    break; // the rest of this checkpoint holds other types
                }
            }
        }
        return pool;
    }

    /** An event's fields, in order, as a map; pool references stay references until asked for. */
    private Map<String, Object> decodeEventFields(Cursor c, Metadata.JfrClass cls) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Metadata.Field f : cls.fields()) {
            Object v = readField(c, f, 0);
            if (f.name().equals(JdkFields.START_TIME) && v instanceof Instant) {
                eventStartTicks = lastTicksRead;
            } else if (f.name().equals(JdkFields.DURATION) && v instanceof Span span) {
                // as the JDK's parser: end minus start, each converted (not the span converted), to the nanosecond
                v = new Nanos(
                        "TICKS".equals(span.unit())
                                ? nanos(eventStartTicks + span.raw()) - nanos(eventStartTicks)
                                : span.nanos(this));
            }
            values.put(f.name(), v);
        }
        return values;
    }

    private Map<String, Object> decodeFields(Cursor c, Metadata.JfrClass cls, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalStateException("values nest deeper than " + MAX_DEPTH + " levels");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Metadata.Field f : cls.fields()) {
            values.put(f.name(), readField(c, f, depth));
        }
        return values;
    }

    private Object readField(Cursor c, Metadata.Field f, int depth) {
        if (f.array()) {
            int n = c.readInt();
            c.checkCount(n, 1);
            List<Object> items = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                items.add(readValue(c, f, depth + 1));
            }
            return items;
        }
        return readValue(c, f, depth);
    }

    private Object readValue(Cursor c, Metadata.Field f, int depth) {
        if (f.constantPool()) {
            return new Cursor.PoolRef(f.typeId(), c.readLong());
        }
        Metadata.JfrClass type = f.type();
        Object v = switch (type.kind()) {
            case Metadata.BOOLEAN -> c.readByte() != 0;
            case Metadata.BYTE -> (long) c.readByte();
            case Metadata.CHAR -> (long) c.readChar();
            case Metadata.SHORT -> (long) c.readShort();
            case Metadata.INT -> (long) c.readInt();
            case Metadata.LONG -> c.readLong();
            case Metadata.FLOAT -> (double) c.readFloat();
            case Metadata.DOUBLE -> c.readDouble();
            case Metadata.STRING -> c.readString(stringTypeId);
            default -> decodeFields(c, type, depth + 1);
        };
        if (v instanceof Long raw) {
            lastTicksRead = raw;
            if (f.timespan() != null) {
                return new Span(raw, f.timespan());
            }
            if (f.name().equals(JdkFields.START_TIME)) {
                return instant(raw);
            }
        }
        return v;
    }

    Instant instant(long ticks) {
        return Instant.ofEpochSecond(0, nanos(ticks));
    }

    long nanos(long ticks) {
        return startNanos + (long) ((ticks - startTicks) / ticksPerNano);
    }

    /** Ticks of this chunk's clock as nanoseconds. */
    long ticksToNanos(long ticks) {
        return (long) (ticks / ticksPerNano);
    }

    /** Moves past a field's value: an array (a count, then its elements) or one element. */
    private void skipField(Cursor c, Metadata.Field f, int depth) {
        int n = 1;
        if (f.array()) {
            n = c.readInt();
            c.checkCount(n, 1);
        }
        for (int i = 0; i < n; i++) {
            if (f.constantPool()) {
                c.readLong();
            } else {
                skipValue(c, f.type(), depth + 1);
            }
        }
    }

    private void skipValue(Cursor c, Metadata.JfrClass type, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalStateException("values nest deeper than " + MAX_DEPTH + " levels");
        }
        switch (type.kind()) {
            case Metadata.BOOLEAN, Metadata.BYTE -> c.skip(1);
            case Metadata.CHAR -> c.readChar();
            case Metadata.SHORT -> c.readShort();
            case Metadata.INT -> c.readInt();
            case Metadata.LONG -> c.readLong();
            case Metadata.FLOAT -> c.skip(4);
            case Metadata.DOUBLE -> c.skip(8);
            case Metadata.STRING -> c.skipString();
            default -> {
                for (Metadata.Field f : type.fields()) {
                    skipField(c, f, depth);
                }
            }
        }
    }

    /**
     * A pool reference's value in this chunk: a String, a field map, or null (id 0, or an entry the chunk does not
     * hold). Decoded from its offset the first time it is asked for.
     */
    Object resolve(Cursor.PoolRef ref) {
        try {
            return resolveUnchecked(ref);
        } catch (DamagedRecordingException | ChunkMemory.HandedOnException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            throw new DamagedRecordingException(number, fileOffset, fileOffset + position(), JfrParser.what(e), e);
        }
    }

    /**
     * Whether this chunk's constant pool of {@code typeName} holds an entry {@code id} (async-profiler's FrameType 5,
     * kernel, tells its chunks).
     */
    boolean hasConstant(String typeName, long id) {
        Long type = meta.idsByName.get(typeName);
        return type != null && resolve(new Cursor.PoolRef(type, id)) != null;
    }

    /** The name of the class (event type) this chunk's metadata gives id {@code id}, or null. */
    String className(long id) {
        Metadata.JfrClass cls = meta.classes.get(id);
        return cls == null ? null : cls.name();
    }

    /** The frames of stack trace {@code id}, built by {@code build} the first time. */
    List<RawFrame> frames(long id, Supplier<List<RawFrame>> build) {
        List<RawFrame> f = frames.get(id);
        if (f == null && !frames.containsKey(id)) {
            f = build.get();
            frames.put(id, f);
        }
        return f;
    }

    /**
     * Walks every constant pool of the chunk, value by value: what a check of the whole file does (nothing is kept).
     */
    void checkPools() {
        index(EVERY_POOL);
    }

    private Object resolveUnchecked(Cursor.PoolRef ref) {
        Map<Long, Object> done = decodedPools.computeIfAbsent(ref.typeId(), k -> new HashMap<>());
        if (done.containsKey(ref.id())) {
            return done.get(ref.id());
        }
        LongIntMap pool = index.get(ref.typeId());
        if (pool == null) {
            pool = index(ref.typeId());
            index.put(ref.typeId(), pool);
        }
        int at = pool.get(ref.id());
        Object value = null;
        if (at >= 0) {
            Cursor c = new Cursor(memory, compressed, at);
            Metadata.JfrClass cls = meta.classes.get(ref.typeId());
            value = ref.typeId() == stringTypeId ? c.readString(stringTypeId) : decodeFields(c, cls, 0);
        }
        done.put(ref.id(), value);
        return value;
    }
}
