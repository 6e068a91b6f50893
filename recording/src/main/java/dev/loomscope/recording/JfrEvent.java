package dev.loomscope.recording;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * An event as the reducers see it, whichever parser read it: loomscope's reader's
 * ({@code FastEvent}), JMC's (recordings of format 0.x) or, in tests, the JDK's.
 */
public interface JfrEvent extends FieldValues {
    String type();

    Instant startTime();

    Instant endTime();

    Duration duration();

    /** A field holding a time span (e.g. sumOfPauses). */
    Duration durationField(String name);

    /** A number inside a nested object field (e.g. heapSpace.committedSize), or null. */
    Long nestedLong(String field, String member);

    /** The stack trace's frames, top first, or null when not recorded or not read. */
    List<Frame> stackFrames();

    /** The Java name of a thread field, or null when absent or not read. */
    String threadName(String field);

    /**
     * The name of the event type a field holds by its id (jdk.ActiveSetting's {@code id}), or null
     * when the reader cannot say (the JDK's parser does not expose a chunk's type ids).
     */
    default String eventTypeName(String field) {
        return null;
    }
}
