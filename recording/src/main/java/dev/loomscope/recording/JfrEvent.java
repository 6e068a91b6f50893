package dev.loomscope.recording;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * An event as the reducers see it, whichever parser read it: loomscope's reader's ({@code ParsedEvent}), JMC's
 * (recordings of format 0.x) or, in tests, the JDK's.
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
     * The name of the event type a field holds by its id (jdk.ActiveSetting's {@code id}), or null when the reader
     * cannot say (the JDK's parser does not expose a chunk's type ids).
     */
    default String eventTypeName(String field) {
        return null;
    }
    /**
     * The stack trace's frames, top first, class names as written; null when none or not read. Each distinct stack of a
     * chunk is one list: events with the same stack get the same list.
     */
    default List<RawFrame> rawFrames() {
        return null;
    }

    /**
     * Whether a frame of type 3 (native) is a C function here: async-profiler's chunks, whose frame types include 5
     * (kernel), number them so; in the JDK's a native frame is a Java native method.
     */
    default boolean nativeFramesAreC() {
        return false;
    }

    /** A thread field's constant-pool id (what async-profiler's converter shows as tid), 0 when absent or not read. */
    default long threadId(String field) {
        return 0;
    }

    /** A thread's Java name, else its OS name (a native thread's), else null. */
    default String threadDisplayName(String field) {
        return threadName(field);
    }

    /**
     * Whether a thread field's thread is virtual (JDK 19+ writes the thread's {@code virtual}; a virtual thread's
     * samples from JFR's own samplers carry it), null when the recording does not say.
     */
    default Boolean threadIsVirtual(String field) {
        return null;
    }

    /** A thread field's Java thread id (Thread.threadId()), -1 when none (a native thread), absent or not read. */
    default long javaThreadId(String field) {
        return -1;
    }

    /** The name of a thread field's thread group, null when it has none (a native or virtual thread) or not read. */
    default String threadGroupName(String field) {
        return null;
    }

    /** A class field's name as the JVM writes it ({@code java/lang/String}, {@code [B}), or null. */
    default String classSymbol(String field) {
        return null;
    }
}
