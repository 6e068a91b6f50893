package dev.loomscope.analyzer.fleet;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.MissingFieldException;
import dev.loomscope.recording.RawFrame;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A recording's facts made again from its rows in an export: each event table's row handed to the reducers as the event
 * it was ({@link RowEvent}), so every figure, verdict and view computed from an export is the one computed from the
 * recording. Rows come table by table, in the order {@link #TABLES} lists (the recording's own row first, its samples
 * last), so an export is read a table at a time without holding its rows.
 */
public final class FleetReplay {
    /** The order a recording's rows are replayed in: what each step needs comes before it. */
    public static final List<FleetTable> TABLES = tables();

    private static List<FleetTable> tables() {
        List<FleetTable> order =
                new ArrayList<>(List.of(FleetSchema.RECORDINGS, FleetSchema.EVENT_TYPES, FleetSchema.STACKS));
        order.addAll(FleetSchema.EVENT_TABLES);
        order.add(FleetSchema.SAMPLES);
        return List.copyOf(order);
    }

    private final RecordingFacts facts;
    private final Stacks stacks;
    private final Map<String, Long> counts = new TreeMap<>();
    private boolean reasons;
    private boolean counted;

    /**
     * Frames of the stacks the rows refer to, by stack id (an id is its frames' hash: one entry serves every
     * recording).
     */
    public static final class Stacks {
        private final Map<Long, List<Object[]>> rows = new HashMap<>();
        private final Map<Long, String> from = new HashMap<>();
        private final Map<Long, List<Frame>> frames = new HashMap<>();
        private final Map<Long, List<RawFrame>> raw = new HashMap<>();

        /** A row of the stacks table; a stack another recording gave already is not kept twice. */
        public void add(Object[] row) {
            Long id = (Long) row[1];
            String recording = (String) row[0];
            if (from.putIfAbsent(id, recording) == null || from.get(id).equals(recording)) {
                rows.computeIfAbsent(id, k -> new ArrayList<>()).add(row);
            }
        }

        private List<Object[]> sorted(Object id) {
            List<Object[]> r = id == null ? null : rows.get((Long) id);
            if (r != null) {
                r.sort(Comparator.comparingInt(x -> (Integer) x[2]));
            }
            return r;
        }

        List<Frame> frames(Object id) {
            if (id == null) {
                return null;
            }
            return frames.computeIfAbsent((Long) id, k -> {
                List<Object[]> r = sorted(k);
                return r == null
                        ? null
                        : r.stream()
                                .map(x -> new Frame((String) x[3], (String) x[4], (Integer) x[5], (Integer) x[6]))
                                .toList();
            });
        }

        List<RawFrame> raw(Object id) {
            if (id == null) {
                return null;
            }
            return raw.computeIfAbsent((Long) id, k -> {
                List<Object[]> r = sorted(k);
                return r == null
                        ? null
                        : r.stream()
                                .map(x -> new RawFrame(
                                        internalName((String) x[3]), (String) x[4], (Integer) x[5], (Integer) x[6]))
                                .toList();
            });
        }
    }

    /** Starts the replay of {@code recording} from its row of the recordings table (null: it has none). */
    public FleetReplay(String recording, Object[] r, boolean flames, Stacks stacks) {
        this.facts = RecordingFacts.empty(new RecordingSource(Path.of(recording), List.of()), flames);
        this.stacks = stacks;
        FleetTable t = FleetSchema.RECORDINGS;
        if (r == null) {
            r = t.newRow(recording);
        }
        var s = facts.summary;
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
        s.hardwareThreads = r[t.index("hardware_threads")] instanceof Long l ? l : -1;
        if (r[t.index("start_ns")] instanceof Long start && r[t.index("end_ns")] instanceof Long end) {
            s.span(RecordingSpan.of(start, end));
        }
        if (r[t.index("warnings")] instanceof String w) {
            facts.warnings.addAll(List.of(w.split("\n")));
        }
        reasons = Boolean.TRUE.equals(r[t.index("pin_reasons_recorded")]);
    }

    /**
     * One row of {@code table} for this recording (tables in the order of {@link #TABLES}; the recordings row went to
     * the constructor).
     */
    public void row(FleetTable table, Object[] row) {
        if (table == FleetSchema.EVENT_TYPES) {
            counts.put((String) row[1], row[2] == null ? 0 : (Long) row[2]);
            if (Boolean.TRUE.equals(row[3])) {
                facts.settings.enable((String) row[1]);
            }
            return;
        }
        if (table == FleetSchema.STACKS) {
            stacks.add(row);
            return;
        }
        count();
        if (table == FleetSchema.SAMPLES) {
            if (facts.flames != null && facts.flames.eventTypes().contains((String) row[1])) {
                List<RawFrame> raw = stacks.raw(row[4]);
                boolean nativeIsC = Boolean.TRUE.equals(row[5]);
                long events = (Long) row[6];
                long samples = (Long) row[7];
                facts.flames.split.addStack((String) row[2], raw, nativeIsC, events, samples);
                facts.flames.diff.addStack((String) row[2], raw, nativeIsC, events, samples);
            }
            return;
        }
        RowEvent e =
                RowEvent.of(table, row, table == FleetSchema.PINS ? stacks.frames(row[table.index("stack_id")]) : null);
        if (table == FleetSchema.PINS && reasons) {
            e.present(JdkFields.PINNED_REASON, JdkFields.BLOCKING_OPERATION, JdkFields.CARRIER_THREAD);
        }
        if (table == FleetSchema.CPU_LOAD) {
            facts.summary.fields(e);
        } else {
            facts.dispatch(e);
        }
    }

    /** The event counts, once every event_types row is in (before the first event). */
    private void count() {
        if (counted) {
            return;
        }
        counted = true;
        facts.summary.counted(counts);
        if (facts.flames != null) {
            facts.flames.counted(counts);
        }
    }

    /** The recording's facts, once all its rows are in. */
    public RecordingFacts finish() {
        count();
        for (long i = counts.getOrDefault(JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED, 0L); i > 0; i--) {
            facts.dispatch(
                    new RowEvent(JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED, Instant.EPOCH, Duration.ZERO, Map.of(), null));
        }
        return facts;
    }

    /**
     * The facts of {@code recording} from its rows, all at hand (the Spark job's driver); with its CPU samples for
     * flame graphs when {@code flames}.
     */
    public static RecordingFacts facts(String recording, Map<FleetTable, List<Object[]>> rows, boolean flames) {
        List<Object[]> own = rows.getOrDefault(FleetSchema.RECORDINGS, List.of());
        FleetReplay replay = new FleetReplay(recording, own.isEmpty() ? null : own.get(0), flames, new Stacks());
        for (FleetTable t : TABLES.subList(1, TABLES.size())) {
            rows.getOrDefault(t, List.of()).forEach(row -> replay.row(t, row));
        }
        return replay.finish();
    }

    /**
     * A class's name as the JVM writes it: slashes, but a hidden class keeps the dot before its address
     * ({@code Foo$$Lambda.0x1234}).
     */
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
        private final Set<String> present = new HashSet<>();

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
