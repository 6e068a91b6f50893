package dev.loomscope.recording;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An event decoded by {@link JfrParser}: its fields by name; constant-pool values (strings, threads, stack traces)
 * resolved in its chunk when asked for.
 */
public final class ParsedEvent implements JfrEvent {
    private final String type;
    private final Map<String, Object> fields;
    private final ChunkReader chunk;

    ParsedEvent(String type, Map<String, Object> fields, ChunkReader chunk) {
        this.type = type;
        this.fields = fields;
        this.chunk = chunk;
    }

    private Object value(String name) {
        if (!fields.containsKey(name)) {
            throw new MissingFieldException(type, name);
        }
        return resolved(fields.get(name));
    }

    private Object resolved(Object v) {
        return v instanceof Cursor.PoolRef ref ? chunk.resolve(ref) : v;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public Instant startTime() {
        return (Instant) fields.get(JdkFields.START_TIME);
    }

    @Override
    public Instant endTime() {
        return startTime().plus(duration());
    }

    @Override
    public Duration duration() {
        return fields.get(JdkFields.DURATION) instanceof Nanos n ? Duration.ofNanos(n.value()) : Duration.ZERO;
    }

    @Override
    public boolean hasField(String name) {
        return fields.containsKey(name);
    }

    /** A string field, or a pooled object's single string (GC names, causes and phases are pooled {name: "..."}). */
    @Override
    public String string(String name) {
        Object v = value(name);
        if (v instanceof Map<?, ?> m && m.size() == 1) {
            v = resolved(m.values().iterator().next());
        }
        return v instanceof String s ? s : null;
    }

    @Override
    public long longValue(String name) {
        Object v = value(name);
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Span span) {
            return span.raw(); // as the JDK's getLong: the number as recorded
        }
        if (v instanceof Nanos n) {
            return n.value();
        }
        if (v instanceof Double d) {
            return d.longValue();
        }
        throw MissingFieldException.notANumber(type, name);
    }

    @Override
    public double doubleValue(String name) {
        Object v = value(name);
        if (v instanceof Double d) {
            return d;
        }
        if (v instanceof Long l) {
            return l;
        }
        throw MissingFieldException.notANumber(type, name);
    }

    @Override
    public boolean bool(String name) {
        return Boolean.TRUE.equals(value(name));
    }

    @Override
    public Duration durationField(String name) {
        Object v = value(name);
        if (v instanceof Span span) {
            return span.duration(chunk);
        }
        return v instanceof Nanos n ? Duration.ofNanos(n.value()) : Duration.ofNanos(longValue(name));
    }

    @Override
    public Long nestedLong(String field, String member) {
        return fields.get(field) instanceof Map<?, ?> m && m.get(member) instanceof Long l ? l : null;
    }

    @Override
    public List<Frame> stackFrames() {
        List<RawFrame> raw = rawFrames();
        return raw == null
                ? null
                : raw.stream()
                        .map(f ->
                                new Frame(f.internalClassName().replace('/', '.'), f.methodName(), f.line(), f.type()))
                        .toList();
    }

    @Override
    public List<RawFrame> rawFrames() {
        if (!(fields.get(JdkFields.STACK_TRACE) instanceof Cursor.PoolRef ref)) {
            return null;
        }
        return chunk.frames(ref.id(), () -> frames(ref));
    }

    private List<RawFrame> frames(Cursor.PoolRef ref) {
        if (!(chunk.resolve(ref) instanceof Map<?, ?> trace) || !(trace.get("frames") instanceof List<?> frames)) {
            return null;
        }
        List<RawFrame> out = new ArrayList<>(frames.size());
        for (Object f : frames) {
            if (f instanceof Map<?, ?> frame && resolved(frame.get("method")) instanceof Map<?, ?> method) {
                String className = resolved(method.get("type")) instanceof Map<?, ?> cls
                                && symbol(cls.get(JdkFields.NAME)) instanceof String n
                        ? n
                        : "";
                String methodName = symbol(method.get(JdkFields.NAME));
                int line = frame.get("lineNumber") instanceof Long l ? l.intValue() : -1;
                int type = frame.get("type") instanceof Cursor.PoolRef t && t.id() >= 0 && t.id() < 128
                        ? (int) t.id()
                        : -1;
                out.add(new RawFrame(className, methodName == null ? "" : methodName, line, type));
            }
        }
        return List.copyOf(out);
    }

    /** A Symbol's text: pooled {string: "..."} (or a plain string). */
    private String symbol(Object ref) {
        Object v = resolved(ref);
        if (v instanceof Map<?, ?> m) {
            v = resolved(m.get("string"));
        }
        return v instanceof String s ? s : null;
    }

    @Override
    public boolean nativeFramesAreC() {
        return chunk.hasConstant("jdk.types.FrameType", 5);
    }

    @Override
    public long threadId(String field) {
        return fields.get(field) instanceof Cursor.PoolRef ref ? ref.id() : 0;
    }

    @Override
    public String threadDisplayName(String field) {
        if (!fields.containsKey(field) || !(value(field) instanceof Map<?, ?> thread)) {
            return null;
        }
        return resolved(thread.get("javaName")) instanceof String s
                ? s
                : resolved(thread.get("osName")) instanceof String os ? os : null;
    }

    @Override
    public Boolean threadIsVirtual(String field) {
        if (!fields.containsKey(field) || !(value(field) instanceof Map<?, ?> thread)) {
            return null;
        }
        return thread.get(JdkFields.VIRTUAL) instanceof Boolean b ? b : null;
    }

    @Override
    public long javaThreadId(String field) {
        if (!fields.containsKey(field) || !(value(field) instanceof Map<?, ?> thread)) {
            return -1;
        }
        return thread.get("javaThreadId") instanceof Long id && id > 0 ? id : -1;
    }

    @Override
    public String threadGroupName(String field) {
        if (!fields.containsKey(field)
                || !(value(field) instanceof Map<?, ?> thread)
                || !(resolved(thread.get("group")) instanceof Map<?, ?> group)) {
            return null;
        }
        return resolved(group.get(JdkFields.NAME)) instanceof String s ? s : null;
    }

    @Override
    public String classSymbol(String field) {
        if (!fields.containsKey(field) || !(value(field) instanceof Map<?, ?> cls)) {
            return null;
        }
        return symbol(cls.get(JdkFields.NAME));
    }

    @Override
    public String eventTypeName(String field) {
        return fields.get(field) instanceof Long id ? chunk.className(id) : null;
    }

    @Override
    public String threadName(String field) {
        if (!fields.containsKey(field) || !(value(field) instanceof Map<?, ?> thread)) {
            return null;
        }
        return resolved(thread.get("javaName")) instanceof String s ? s : null;
    }
}
