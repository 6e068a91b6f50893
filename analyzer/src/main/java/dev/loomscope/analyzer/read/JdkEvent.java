package dev.loomscope.analyzer.read;

import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedObject;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * An event as the JDK's own consumer gives it ({@code jdk.jfr.consumer}): what {@code watch} streams from a live JVM
 * (the JDK's remote stream is the only way to one), and in tests the reference loomscope's parser is held to.
 */
public record JdkEvent(RecordedEvent e) implements JfrEvent {
    @Override
    public String type() {
        return e.getEventType().getName();
    }

    @Override
    public Instant startTime() {
        return e.getStartTime();
    }

    @Override
    public Instant endTime() {
        return e.getEndTime();
    }

    @Override
    public Duration duration() {
        return e.getDuration();
    }

    @Override
    public boolean hasField(String name) {
        return e.hasField(name);
    }

    @Override
    public String string(String name) {
        return e.getString(name);
    }

    @Override
    public long longValue(String name) {
        return e.getLong(name);
    }

    @Override
    public double doubleValue(String name) {
        return e.getDouble(name);
    }

    @Override
    public boolean bool(String name) {
        return e.getBoolean(name);
    }

    @Override
    public Duration durationField(String name) {
        return e.getDuration(name);
    }

    @Override
    public Long nestedLong(String field, String member) {
        return e.getValue(field) instanceof RecordedObject o && o.hasField(member) ? o.getLong(member) : null;
    }

    @Override
    public List<Frame> stackFrames() {
        RecordedStackTrace st = e.getStackTrace();
        if (st == null) {
            return null;
        }
        List<Frame> out = new ArrayList<>(st.getFrames().size());
        for (RecordedFrame f : st.getFrames()) {
            out.add(new Frame(
                    f.getMethod().getType().getName(),
                    f.getMethod().getName(),
                    f.getLineNumber(),
                    Frame.type(f.getType())));
        }
        return out;
    }

    @Override
    public String threadName(String field) {
        if (!e.hasField(field)) {
            return null;
        }
        RecordedThread t = e.getThread(field);
        return t == null ? null : t.getJavaName();
    }

    @Override
    public String threadDisplayName(String field) {
        if (!e.hasField(field)) {
            return null;
        }
        RecordedThread t = e.getThread(field);
        return t == null ? null : t.getJavaName() != null ? t.getJavaName() : t.getOSName();
    }

    @Override
    public String threadGroupName(String field) {
        if (!e.hasField(field)) {
            return null;
        }
        RecordedThread t = e.getThread(field);
        return t == null || t.getThreadGroup() == null
                ? null
                : t.getThreadGroup().getName();
    }

    @Override
    public long javaThreadId(String field) {
        if (!e.hasField(field)) {
            return -1;
        }
        RecordedThread t = e.getThread(field);
        return t == null || t.getJavaThreadId() <= 0 ? -1 : t.getJavaThreadId();
    }

    @Override
    public Boolean threadIsVirtual(String field) {
        if (!e.hasField(field)) {
            return null;
        }
        RecordedThread t = e.getThread(field);
        return t == null || !t.hasField(JdkFields.VIRTUAL) ? null : t.getBoolean(JdkFields.VIRTUAL);
    }
}
