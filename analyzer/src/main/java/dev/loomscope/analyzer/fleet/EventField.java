package dev.loomscope.analyzer.fleet;

import dev.loomscope.analyzer.fleet.FleetColumn.Type;
import dev.loomscope.analyzer.reduce.Timeline;
import dev.loomscope.recording.JfrEvent;

/**
 * How a column of an event table reads its value from an event ({@link #read}), and under which field name a row gives
 * it back as an event ({@link #field}, null for the event's own start, duration and type).
 */
public record EventField(FleetColumn column, Kind kind, String field, String member) {

    /** Where the value comes from. */
    public enum Kind {
        /** The event's start, epoch nanoseconds. */
        START,
        /** The event's duration, nanoseconds. */
        DURATION,
        /** The event's type name (a table of several types). */
        TYPE,
        STRING,
        LONG,
        DOUBLE,
        BOOLEAN,
        /** A field holding a time span (sumOfPauses), nanoseconds. */
        SPAN,
        /** A number inside an object field (heapSpace.committedSize). */
        NESTED_LONG,
        /** A thread field's Java name. */
        THREAD
    }

    public static EventField start() {
        return new EventField(
                FleetColumn.of("start_ns", Type.LONG, "event start, nanoseconds since the epoch"),
                Kind.START,
                null,
                null);
    }

    public static EventField duration() {
        return new EventField(
                FleetColumn.of("duration_ns", Type.LONG, "event duration, nanoseconds"), Kind.DURATION, null, null);
    }

    public static EventField type() {
        return new EventField(FleetColumn.of("event_type", Type.STRING, "JFR event type"), Kind.TYPE, null, null);
    }

    public static EventField of(String column, Kind kind, String field, String description) {
        Type type = switch (kind) {
            case STRING, THREAD, TYPE -> Type.STRING;
            case DOUBLE -> Type.DOUBLE;
            case BOOLEAN -> Type.BOOLEAN;
            default -> Type.LONG;
        };
        return new EventField(FleetColumn.of(column, type, description), kind, field, null);
    }

    public static EventField nested(String column, String field, String member, String description) {
        return new EventField(FleetColumn.of(column, Type.LONG, description), Kind.NESTED_LONG, field, member);
    }

    /** The value of this column for {@code e}; null when the event has no such field. */
    public Object read(JfrEvent e) {
        return switch (kind) {
            case START -> Timeline.epochNanos(e.startTime());
            case DURATION -> e.duration().toNanos();
            case TYPE -> e.type();
            default ->
                !e.hasField(field)
                        ? null
                        : switch (kind) {
                            case STRING -> e.string(field);
                            case LONG -> e.longValue(field);
                            case DOUBLE -> e.doubleValue(field);
                            case BOOLEAN -> e.bool(field);
                            case SPAN -> e.durationField(field).toNanos();
                            case NESTED_LONG -> e.nestedLong(field, member);
                            case THREAD -> e.threadName(field);
                            default -> throw new IllegalStateException(kind.name());
                        };
        };
    }
}
