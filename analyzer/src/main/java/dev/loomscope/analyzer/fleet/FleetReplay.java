package dev.loomscope.analyzer.fleet;

import dev.loomscope.analyzer.read.RecordingSource;
import dev.loomscope.analyzer.read.RecordingSpan;
import dev.loomscope.analyzer.read.fast.FastEvent;
import dev.loomscope.analyzer.reduce.Frame;
import dev.loomscope.analyzer.reduce.JfrEvent;
import dev.loomscope.analyzer.reduce.MissingFieldException;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A recording's facts made again from its rows in an export: each event table's row handed to the
 * reducers as the event it was ({@link RowEvent}), so every figure, verdict and view computed from
 * an export is the one computed from the recording.
 */
public final class FleetReplay {
    private FleetReplay() {}

    /** The facts of {@code recording} from its rows; with its CPU samples for flame graphs when {@code flames}. */
    public static RecordingFacts facts(String recording, Map<FleetTable, List<Object[]>> rows, boolean flames) {
        RecordingFacts f = RecordingFacts.empty(new RecordingSource(Path.of(recording), List.of()), flames);
        List<Object[]> recordings = rows.getOrDefault(FleetSchema.RECORDINGS, List.of());
        Object[] r = recordings.isEmpty() ? FleetSchema.RECORDINGS.newRow(recording) : recordings.get(0);
        FleetTable t = FleetSchema.RECORDINGS;
        var s = f.summary;
        s.label = (String) r[t.index("label")];
        s.threadKind = (String) r[t.index("thread_kind")];
        s.command = (String) r[t.index("command")];
        s.agentOptions = (String) r[t.index("agent_options")];
        s.profilingMode = (String) r[t.index("profiling_mode")];
        s.jvm = (String) r[t.index("jvm")];
        s.youngCollector = (String) r[t.index("young_collector")];
        s.oldCollector = (String) r[t.index("old_collector")];
        s.peakThreads = r[t.index("peak_threads")] instanceof Double d ? d.longValue() : -1; // the metric's column
        s.peakActiveThreads = r[t.index("peak_active_threads")] instanceof Long l ? l : -1;
        if (r[t.index("start_ns")] instanceof Long start && r[t.index("end_ns")] instanceof Long end) {
            s.span(RecordingSpan.of(start, end));
        }
        if (r[t.index("warnings")] instanceof String w) {
            f.warnings.addAll(List.of(w.split("\n")));
        }
        boolean reasons = Boolean.TRUE.equals(r[t.index("pin_reasons_recorded")]);

        Map<String, Long> counts = new TreeMap<>();
        for (Object[] row : rows.getOrDefault(FleetSchema.EVENT_TYPES, List.of())) {
            counts.put((String) row[1], row[2] == null ? 0 : (Long) row[2]);
            if (Boolean.TRUE.equals(row[3])) {
                f.settings.enable((String) row[1]);
            }
        }
        s.counted(counts);

        Map<Long, List<Object[]>> stacks = new HashMap<>();
        for (Object[] row : rows.getOrDefault(FleetSchema.STACKS, List.of())) {
            stacks.computeIfAbsent((Long) row[1], k -> new ArrayList<>()).add(row);
        }
        stacks.values().forEach(frames -> frames.sort(java.util.Comparator.comparingInt(x -> (Integer) x[2])));

        for (FleetTable table : FleetSchema.EVENT_TABLES) {
            for (Object[] row : rows.getOrDefault(table, List.of())) {
                RowEvent e = RowEvent.of(table, row, table == FleetSchema.PINS ? frames(stacks, row[table.index("stack_id")]) : null);
                if (table == FleetSchema.PINS && reasons) {
                    e.present("pinnedReason", "blockingOperation", "carrierThread");
                }
                if (table == FleetSchema.CPU_LOAD) {
                    s.fields(e);
                } else {
                    f.dispatch(e);
                }
            }
        }
        for (long i = counts.getOrDefault("jdk.VirtualThreadSubmitFailed", 0L); i > 0; i--) {
            f.dispatch(new RowEvent("jdk.VirtualThreadSubmitFailed", Instant.EPOCH, Duration.ZERO, Map.of(), null));
        }
        if (f.flames != null) {
            f.flames.counted(counts);
            for (Object[] row : rows.getOrDefault(FleetSchema.SAMPLES, List.of())) {
                List<FastEvent.RawFrame> raw = rawFrames(stacks, row[4]);
                boolean nativeIsC = Boolean.TRUE.equals(row[5]);
                long events = (Long) row[6];
                long samples = (Long) row[7];
                if (f.flames.eventTypes().contains((String) row[1])) {
                    f.flames.split.addStack((String) row[2], raw, nativeIsC, events, samples);
                    f.flames.diff.addStack((String) row[2], raw, nativeIsC, events, samples);
                }
            }
        }
        return f;
    }

    private static List<Frame> frames(Map<Long, List<Object[]>> stacks, Object id) {
        List<Object[]> rows = id == null ? null : stacks.get((Long) id);
        return rows == null ? null : rows.stream().map(x -> new Frame((String) x[3], (String) x[4], (Integer) x[5], (Integer) x[6])).toList();
    }

    private static List<FastEvent.RawFrame> rawFrames(Map<Long, List<Object[]>> stacks, Object id) {
        List<Object[]> rows = id == null ? null : stacks.get((Long) id);
        return rows == null ? null
                : rows.stream().map(x -> new FastEvent.RawFrame(internalName((String) x[3]), (String) x[4], (Integer) x[5], (Integer) x[6])).toList();
    }

    /** A class's name as the JVM writes it: slashes, but a hidden class keeps the dot before its address ({@code Foo$$Lambda.0x1234}). */
    static String internalName(String binaryName) {
        return binaryName.replaceAll("\\.(?!0x)", "/");
    }

    /** A row of an event table as the event it was: its fields under their JFR names. */
    static final class RowEvent implements JfrEvent {
        private final String type;
        private final Instant start;
        private final Duration duration;
        private final Map<String, Object> fields;
        private final List<Frame> frames;
        private final java.util.Set<String> present = new java.util.HashSet<>();

        RowEvent(String type, Instant start, Duration duration, Map<String, Object> fields, List<Frame> frames) {
            this.type = type;
            this.start = start;
            this.duration = duration;
            this.fields = fields;
            this.frames = frames;
            fields.forEach((k, v) -> {
                if (v != null) {
                    present.add(k);
                }
            });
        }

        static RowEvent of(FleetTable table, Object[] row, List<Frame> frames) {
            String type = table.eventTypes().get(0);
            Instant start = Instant.EPOCH;
            Duration duration = Duration.ZERO;
            Map<String, Object> fields = new HashMap<>();
            for (int i = 0; i < table.fields().size(); i++) {
                EventField field = table.fields().get(i);
                Object v = row[i + 1];
                switch (field.kind()) {
                    case START -> start = Instant.ofEpochSecond(0, (Long) v);
                    case DURATION -> duration = Duration.ofNanos(v == null ? 0 : (Long) v);
                    case TYPE -> type = (String) v;
                    case NESTED_LONG -> fields.put(field.field() + "." + field.member(), v);
                    default -> fields.put(field.field(), v);
                }
            }
            return new RowEvent(type, start, duration, fields, frames);
        }

        /** Fields the event had although their value is null (pins of a JDK that records a reason, without one). */
        void present(String... names) {
            present.addAll(List.of(names));
        }

        private Object value(String name) {
            if (!present.contains(name)) {
                throw new MissingFieldException(type, name);
            }
            return fields.get(name);
        }

        @Override
        public String type() {
            return type;
        }

        @Override
        public Instant startTime() {
            return start;
        }

        @Override
        public Instant endTime() {
            return start.plus(duration);
        }

        @Override
        public Duration duration() {
            return duration;
        }

        @Override
        public boolean hasField(String name) {
            return present.contains(name);
        }

        @Override
        public String string(String name) {
            return (String) fields.get(name);
        }

        @Override
        public long longValue(String name) {
            return ((Number) value(name)).longValue();
        }

        @Override
        public double doubleValue(String name) {
            return ((Number) value(name)).doubleValue();
        }

        @Override
        public boolean bool(String name) {
            return (Boolean) value(name);
        }

        @Override
        public Duration durationField(String name) {
            return Duration.ofNanos(((Number) value(name)).longValue());
        }

        @Override
        public Long nestedLong(String field, String member) {
            return (Long) fields.get(field + "." + member);
        }

        @Override
        public List<Frame> stackFrames() {
            return frames;
        }

        @Override
        public String threadName(String field) {
            return (String) fields.get(field);
        }
    }
}
