package dev.loomscope.analyzer.read.fast;

import dev.loomscope.analyzer.reduce.JfrEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.Function;
import jdk.jfr.consumer.RecordedStackTrace;

/** An event decoded by {@link FastReader}: its fields by name; constant-pool values resolved in its chunk. */
public final class FastEvent implements JfrEvent {
    private final String type;
    private final Map<String, Object> fields;
    private final Function<Cursor.PoolRef, Object> pools;

    FastEvent(String type, Map<String, Object> fields, Function<Cursor.PoolRef, Object> pools) {
        this.type = type;
        this.fields = fields;
        this.pools = pools;
    }

    private Object value(String name) {
        Object v = fields.get(name);
        if (!fields.containsKey(name)) {
            throw new IllegalArgumentException("no field " + name + " in " + type);
        }
        return v instanceof Cursor.PoolRef ref ? pools.apply(ref) : v;
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
        return fields.get("duration") instanceof FastReader.Nanos n ? Duration.ofNanos(n.value()) : Duration.ZERO;
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
            v = m.values().iterator().next();
            if (v instanceof Cursor.PoolRef ref) {
                v = pools.apply(ref);
            }
        }
        return v instanceof String s ? s : null;
    }

    @Override
    public long longValue(String name) {
        Object v = value(name);
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof FastReader.Nanos n) {
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
        return v instanceof FastReader.Nanos n ? Duration.ofNanos(n.value()) : Duration.ofNanos(longValue(name));
    }

    @Override
    public Long nestedLong(String field, String member) {
        return fields.get(field) instanceof Map<?, ?> m && m.get(member) instanceof Long l ? l : null;
    }

    @Override
    public RecordedStackTrace stackTrace() {
        return null;
    }

    @Override
    public String threadName(String field) {
        return null;
    }
}
