package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JfrEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An event as a reader hands it over, for reducers' and views' tests: a type, a time, a duration and fields by name
 * ({@code "heapSpace.committedSize"} for a nested one; {@code "sampledThread.virtual"} for a thread's; {@link #STACK}).
 */
public record CannedEvent(String type, Instant startTime, Duration duration, Map<String, Object> fields)
        implements JfrEvent {
    /** The field holding a stack's frames ({@code List<Frame>}). */
    public static final String STACK = "stackTrace";

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

    /** The frames under {@link #STACK}, top first, or null. */
    @SuppressWarnings("unchecked")
    public List<Frame> stackFrames() {
        return (List<Frame>) fields.get(STACK);
    }

    /** A thread field's {@code virtual} under {@code field + ".virtual"}, else null. */
    @Override
    public Boolean threadIsVirtual(String field) {
        return (Boolean) fields.get(field + ".virtual");
    }

    /** A thread field's Java thread id under {@code field + ".javaThreadId"}, else -1. */
    @Override
    public long javaThreadId(String field) {
        return fields.get(field + ".javaThreadId") instanceof Number n ? n.longValue() : -1;
    }

    public String threadName(String field) {
        return null;
    }
}
