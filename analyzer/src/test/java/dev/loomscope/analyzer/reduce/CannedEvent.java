package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JfrEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An event as a reader hands it over, for reducers' and views' tests: a type, a time, a duration and fields by name
 * ({@code "heapSpace.committedSize"} for a nested one).
 */
public record CannedEvent(String type, Instant startTime, Duration duration, Map<String, Object> fields)
        implements JfrEvent {
    /** An instant event. */
    public CannedEvent(String type, Instant startTime, Map<String, Object> fields) {
        this(type, startTime, Duration.ZERO, fields);
    }

    public Instant endTime() {
        return startTime.plus(duration);
    }

    public boolean hasField(String name) {
        return fields.containsKey(name);
    }

    public String string(String name) {
        return (String) fields.get(name);
    }

    public long longValue(String name) {
        return ((Number) fields.get(name)).longValue();
    }

    public double doubleValue(String name) {
        return ((Number) fields.get(name)).doubleValue();
    }

    public boolean bool(String name) {
        return (Boolean) fields.get(name);
    }

    public Duration durationField(String name) {
        return (Duration) fields.get(name);
    }

    public Long nestedLong(String field, String member) {
        Object v = fields.get(field + "." + member);
        return v == null ? null : ((Number) v).longValue();
    }

    public List<Frame> stackFrames() {
        return null;
    }

    public String threadName(String field) {
        return null;
    }
}
