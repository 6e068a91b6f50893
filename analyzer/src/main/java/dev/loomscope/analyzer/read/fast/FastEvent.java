package dev.loomscope.analyzer.read.fast;

import dev.loomscope.analyzer.reduce.Frame;
import dev.loomscope.analyzer.reduce.JfrEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An event decoded by {@link FastReader}: its fields by name; constant-pool values (strings,
 * threads, stack traces) resolved in its chunk when asked for.
 */
public final class FastEvent implements JfrEvent {
    private final String type;
    private final Map<String, Object> fields;
    private final ChunkReader chunk;

    FastEvent(String type, Map<String, Object> fields, ChunkReader chunk) {
        this.type = type;
        this.fields = fields;
        this.chunk = chunk;
    }

    private Object value(String name) {
        if (!fields.containsKey(name)) {
            throw new IllegalArgumentException("no field " + name + " in " + type);
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
        return (Instant) fields.get("startTime");
    }

    @Override
    public Instant endTime() {
        return startTime().plus(duration());
    }

    @Override
    public Duration duration() {
        return fields.get("duration") instanceof ChunkReader.Nanos n ? Duration.ofNanos(n.value()) : Duration.ZERO;
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
        if (v instanceof ChunkReader.Span span) {
            return span.raw(); // as the JDK's getLong: the number as recorded
        }
        if (v instanceof ChunkReader.Nanos n) {
            return n.value();
        }
        if (v instanceof Double d) {
            return d.longValue();
        }
        throw new IllegalArgumentException(type + "." + name + " is not a number");
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
        throw new IllegalArgumentException(type + "." + name + " is not a number");
    }

    @Override
    public boolean bool(String name) {
        return Boolean.TRUE.equals(value(name));
    }

    @Override
    public Duration durationField(String name) {
        Object v = value(name);
        if (v instanceof ChunkReader.Span span) {
            return span.duration(chunk);
        }
        return v instanceof ChunkReader.Nanos n ? Duration.ofNanos(n.value()) : Duration.ofNanos(longValue(name));
    }

    @Override
    public Long nestedLong(String field, String member) {
        return fields.get(field) instanceof Map<?, ?> m && m.get(member) instanceof Long l ? l : null;
    }

    @Override
    public List<Frame> stackFrames() {
        if (!(fields.get("stackTrace") instanceof Cursor.PoolRef ref) || !(chunk.resolve(ref) instanceof Map<?, ?> trace)
                || !(trace.get("frames") instanceof List<?> frames)) {
            return null;
        }
        List<Frame> out = new ArrayList<>(frames.size());
        for (Object f : frames) {
            if (f instanceof Map<?, ?> frame && resolved(frame.get("method")) instanceof Map<?, ?> method) {
                String className = "";
                if (resolved(method.get("type")) instanceof Map<?, ?> cls && symbol(cls.get("name")) instanceof String n) {
                    className = n.replace('/', '.');
                }
                String methodName = symbol(method.get("name"));
                int line = frame.get("lineNumber") instanceof Long l ? l.intValue() : -1;
                out.add(new Frame(className, methodName == null ? "" : methodName, line));
            }
        }
        return out;
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
    public String threadName(String field) {
        if (!fields.containsKey(field) || !(value(field) instanceof Map<?, ?> thread)) {
            return null;
        }
        return resolved(thread.get("javaName")) instanceof String s ? s : null;
    }
}
