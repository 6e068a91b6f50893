package dev.loomscope.analyzer.read;

import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.MissingFieldException;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.Said;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.openjdk.jmc.common.IMCThread;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.IType;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.flightrecorder.CouldNotLoadRecordingException;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;
import org.openjdk.jmc.flightrecorder.parser.IEventSink;
import org.openjdk.jmc.flightrecorder.parser.IEventSinkFactory;
import org.openjdk.jmc.flightrecorder.parser.IParserExtension;
import org.openjdk.jmc.flightrecorder.parser.ParserExtensionRegistry;
import org.openjdk.jmc.flightrecorder.parser.ValueField;

/**
 * The second parser: JDK Mission Control's, for recordings loomscope's reader rejects (formats older than JDK 11's, or
 * content it does not understand). JMC holds the recording's events in memory; they are handed on in time order. Stack
 * traces are not carried over (a pin's frame is then unknown); everything else the reducers read is.
 */
public final class JmcReader {
    private JmcReader() {}

    /** Held strongly: java.util.logging keeps only weak references to configured loggers. */
    private static final Logger JMC_LOGGER = Logger.getLogger("org.openjdk.jmc");

    /** JMC's whole collection of the recording's events: for reducers through {@link #read}, and for JMC's rules. */
    public static IItemCollection load(List<Path> parts) throws IOException, CouldNotLoadRecordingException {
        return load(parts, null);
    }

    /**
     * JMC's collection of the events of the {@code kept} types only (all types when null): the others are dropped as
     * JMC's parser meets them, so memory holds what is asked for.
     */
    public static IItemCollection load(List<Path> parts, Set<String> kept)
            throws IOException, CouldNotLoadRecordingException {
        // JMC's parser logs every field of newer JDKs it does not know, and chunks it skips, with stack traces: keep it
        // quiet
        JMC_LOGGER.setLevel(Level.OFF);
        List<IParserExtension> extensions = new ArrayList<>();
        if (kept != null) {
            extensions.add(new TypeFilter(kept));
        }
        extensions.addAll(ParserExtensionRegistry.getParserExtensions());
        return JfrLoaderToolkit.loadEvents(parts.stream().map(Path::toFile).toList(), extensions);
    }

    /** A parser extension that drops the events of types not asked for before JMC stores them. */
    private record TypeFilter(Set<String> kept) implements IParserExtension {
        @Override
        public IEventSinkFactory getEventSinkFactory(IEventSinkFactory next) {
            return new IEventSinkFactory() {
                @Override
                public IEventSink create(
                        String identifier,
                        String label,
                        String[] category,
                        String description,
                        List<ValueField> fields) {
                    return kept.contains(identifier)
                            ? next.create(identifier, label, category, description, fields)
                            : values -> {};
                }

                @Override
                public void flush() {
                    next.flush();
                }
            };
        }
    }

    public static void read(RecordingSource source, Consumer<JfrEvent> sink) {
        IItemCollection items;
        try {
            items = load(source.parts());
        } catch (IOException | CouldNotLoadRecordingException | RuntimeException e) {
            throw new BadDataException(
                    source.name().toAbsolutePath() + ": JMC's parser cannot read it either: " + Said.by(e)
                            + " (the recording is damaged or in a format neither parser knows)",
                    e);
        }
        List<JmcEvent> events = new ArrayList<>();
        for (IItemIterable it : items) {
            Accessors a = new Accessors(it.getType());
            for (IItem item : it) {
                events.add(new JmcEvent(a, item));
            }
        }
        events.sort(Comparator.comparing(JmcEvent::startTime));
        events.forEach(sink);
    }

    /** One type's fields by identifier (JMC names nested fields {@code parent:child}). */
    private static final class Accessors {
        final String type;
        final Map<String, IMemberAccessor<?, IItem>> byName = new HashMap<>();

        Accessors(IType<IItem> t) {
            type = t.getIdentifier();
            t.getAccessorKeys().keySet().forEach(k -> byName.put(k.getIdentifier(), t.getAccessor(k)));
        }
    }

    /** An event read by JMC's parser. */
    static final class JmcEvent implements JfrEvent {
        private final Accessors a;
        private final IItem item;

        JmcEvent(Accessors a, IItem item) {
            this.a = a;
            this.item = item;
        }

        private Object value(String name) {
            IMemberAccessor<?, IItem> acc = a.byName.get(name);
            if (acc == null) {
                throw new MissingFieldException(a.type, name);
            }
            return acc.getMember(item);
        }

        @Override
        public String type() {
            return a.type;
        }

        @Override
        public Instant startTime() {
            return hasField(JdkFields.START_TIME) && value(JdkFields.START_TIME) instanceof IQuantity q
                    ? Instant.ofEpochSecond(0, q.clampedLongValueIn(UnitLookup.EPOCH_NS))
                    : Instant.EPOCH;
        }

        @Override
        public Instant endTime() {
            return startTime().plus(duration());
        }

        @Override
        public Duration duration() {
            return hasField(JdkFields.DURATION) ? durationField(JdkFields.DURATION) : Duration.ZERO;
        }

        @Override
        public boolean hasField(String name) {
            return a.byName.containsKey(name);
        }

        @Override
        public String string(String name) {
            return value(name) instanceof String s ? s : null;
        }

        @Override
        public long longValue(String name) {
            return number(value(name), name).longValue();
        }

        @Override
        public double doubleValue(String name) {
            return number(value(name), name).doubleValue();
        }

        private Number number(Object v, String name) {
            if (v instanceof IQuantity q) {
                return q.getUnit().getContentType() == UnitLookup.TIMESPAN
                        ? q.clampedLongValueIn(UnitLookup.NANOSECOND)
                        : q.numberValue();
            }
            if (v instanceof Number n) {
                return n;
            }
            throw MissingFieldException.notANumber(a.type, name);
        }

        @Override
        public boolean bool(String name) {
            return Boolean.TRUE.equals(value(name));
        }

        @Override
        public Duration durationField(String name) {
            return value(name) instanceof IQuantity q
                    ? Duration.ofNanos(q.clampedLongValueIn(UnitLookup.NANOSECOND))
                    : Duration.ZERO;
        }

        @Override
        public Long nestedLong(String field, String member) {
            String key = field + ":" + member;
            return hasField(key) && value(key) instanceof IQuantity q ? q.longValue() : null;
        }

        @Override
        public List<Frame> stackFrames() {
            return null;
        }

        @Override
        public String threadName(String field) {
            return hasField(field) && value(field) instanceof IMCThread t ? t.getThreadName() : null;
        }
    }
}
