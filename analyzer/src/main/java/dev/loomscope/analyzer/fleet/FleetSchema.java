package dev.loomscope.analyzer.fleet;

import static dev.loomscope.analyzer.fleet.EventField.Kind.DOUBLE;
import static dev.loomscope.analyzer.fleet.EventField.Kind.LONG;
import static dev.loomscope.analyzer.fleet.EventField.Kind.SPAN;
import static dev.loomscope.analyzer.fleet.EventField.Kind.STRING;
import static dev.loomscope.analyzer.fleet.EventField.Kind.THREAD;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.fleet.FleetColumn.Type;
import dev.loomscope.events.ContextSwitchesEvent;
import dev.loomscope.events.EventSchema;
import dev.loomscope.events.SchedulerSampleEvent;
import dev.loomscope.events.WorkEvent;
import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.events.WorkloadRunEvent;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jfr.Event;

/**
 * The tables of an export (docs/fleets.md shows them): what each row is and every column. Stable like the JFR event
 * schema: columns are added, never renamed or dropped. Every table's first column is the recording, so a fleet's tables
 * join on it.
 */
public final class FleetSchema {
    private FleetSchema() {}

    /** Written into every file's key-value metadata; a reader refuses a version it does not know. */
    public static final String VERSION_KEY = "loomscope.fleet.version";

    public static final String VERSION = "1";

    public static final FleetColumn RECORDING = FleetColumn.of(
            "recording",
            Type.STRING,
            "the recording: its absolute path, or its URI on another file system (what the tables join on)");

    public static final FleetTable RECORDINGS = FleetTable.computed(
            "recordings",
            "one per recording",
            with(
                    List.of(
                            RECORDING,
                            FleetColumn.of("label", Type.STRING, "the agent's label option"),
                            FleetColumn.of(
                                    "thread_kind",
                                    Type.STRING,
                                    "platform or virtual, as the agent's threads option said"),
                            FleetColumn.of("command", Type.STRING, "the recorded JVM's command"),
                            FleetColumn.of("agent_options", Type.STRING, "the agent's options"),
                            FleetColumn.of("profiling_mode", Type.STRING, "the CPU profile's engine"),
                            FleetColumn.of("jvm", Type.STRING, "the JVM's version string"),
                            FleetColumn.of("young_collector", Type.STRING, "jdk.GCConfiguration youngCollector"),
                            FleetColumn.of("old_collector", Type.STRING, "jdk.GCConfiguration oldCollector"),
                            FleetColumn.of(
                                    "start_ns", Type.LONG, "the earliest chunk's start, nanoseconds since the epoch"),
                            FleetColumn.of("end_ns", Type.LONG, "the latest chunk's end, nanoseconds since the epoch"),
                            FleetColumn.of("span_s", Type.DOUBLE, "seconds from start to end"),
                            FleetColumn.of(
                                    "peak_active_threads",
                                    Type.LONG,
                                    "jdk.JavaThreadStatistics activeCount, the highest"),
                            FleetColumn.of(
                                    "hardware_threads",
                                    Type.LONG,
                                    "jdk.CPUInformation hwThreads: what a share of the machine's CPU time is in CPU"
                                            + " time"),
                            FleetColumn.of(
                                    "pin_reasons_recorded",
                                    Type.BOOLEAN,
                                    "whether jdk.VirtualThreadPinned has pinnedReason (JDK 24+)"),
                            FleetColumn.of("runs", Type.LONG, "loomscope.WorkloadRun events, warm-ups included"),
                            FleetColumn.of(
                                    "warnings",
                                    Type.STRING,
                                    "what the reader said of the file (a truncated last chunk), lines joined by"
                                            + " newlines")),
                    Metric.Level.RECORDING));

    public static final FleetTable EVENT_TYPES = FleetTable.computed(
            "event_types",
            "one per recording and event type counted or enabled",
            List.of(
                    RECORDING,
                    FleetColumn.of("event_type", Type.STRING, "JFR event type"),
                    FleetColumn.of("events", Type.LONG, "events of the type in the recording"),
                    FleetColumn.of(
                            "enabled",
                            Type.BOOLEAN,
                            "whether the recording's settings enabled it (none then means none happened)")));

    public static final FleetTable RUNS = FleetTable.events(
            "runs",
            "one per loomscope.WorkloadRun event (warm-ups too)",
            List.of(WorkloadRunEvent.NAME),
            declared(WorkloadRunEvent.class, List.of(EventField.start(), EventField.duration())),
            metricColumns(Metric.Level.RUN));

    public static final FleetTable PINS = FleetTable.events(
            "pins",
            "one per jdk.VirtualThreadPinned event",
            List.of(JdkEvents.VIRTUAL_THREAD_PINNED),
            List.of(
                    EventField.start(),
                    EventField.duration(),
                    EventField.of(
                            "pinned_reason",
                            STRING,
                            JdkFields.PINNED_REASON,
                            "why the virtual thread stayed on its carrier (JDK 24+)"),
                    EventField.of(
                            "blocking_operation", STRING, JdkFields.BLOCKING_OPERATION, "what it blocked in (JDK 24+)"),
                    EventField.of("carrier_thread", THREAD, JdkFields.CARRIER_THREAD, "the carrier it pinned")),
            List.of(
                    FleetColumn.of(
                            "top_frame",
                            Type.STRING,
                            "the frame that pinned: a class initializer, a native method or the call into native code,"
                                    + " else the innermost frame outside the JDK"),
                    FleetColumn.of("stack_id", Type.LONG, "the stack trace, in the stacks table")));

    public static final FleetTable WORK = FleetTable.events(
            "work",
            "one per call of the application's unit of work recorded as an event of its own (jdk.MethodTrace, or"
                    + " loomscope.Work of earlier agents)",
            List.of(JdkEvents.METHOD_TRACE, WorkEvent.NAME),
            List.of(EventField.start(), EventField.duration()),
            List.of());

    public static final FleetTable WORK_WINDOWS = FleetTable.events(
            "work_windows",
            "one per loomscope.WorkWindow event: the calls of a method the agent's work= option names that ended in one"
                    + " window",
            List.of(WorkWindowEvent.NAME),
            declared(WorkWindowEvent.class, List.of(EventField.start())),
            List.of());

    public static final FleetTable GC = FleetTable.events(
            "gc",
            "one per jdk.GarbageCollection event",
            List.of(JdkEvents.GARBAGE_COLLECTION),
            List.of(
                    EventField.start(),
                    EventField.duration(),
                    EventField.of("gc_id", LONG, JdkFields.GC_ID, "the collection's id"),
                    EventField.of("name", STRING, JdkFields.NAME, "the collector"),
                    EventField.of("cause", STRING, JdkFields.CAUSE, "why it collected"),
                    EventField.of(
                            "sum_of_pauses_ns", SPAN, JdkFields.SUM_OF_PAUSES, "the collection's pauses, nanoseconds"),
                    EventField.of("longest_pause_ns", SPAN, JdkFields.LONGEST_PAUSE, "its longest pause, nanoseconds")),
            List.of());

    public static final FleetTable HEAP = FleetTable.events(
            "heap",
            "one per jdk.GCHeapSummary event (before and after each collection)",
            List.of(JdkEvents.GC_HEAP_SUMMARY),
            List.of(
                    EventField.start(),
                    EventField.of("gc_id", LONG, JdkFields.GC_ID, "the collection's id"),
                    EventField.of("when", STRING, JdkFields.WHEN, "Before GC or After GC"),
                    EventField.of("heap_used", LONG, JdkFields.HEAP_USED, "bytes used"),
                    EventField.nested("heap_committed", "heapSpace", "committedSize", "bytes committed")),
            List.of());

    public static final FleetTable ALLOCATIONS = FleetTable.events(
            "allocations",
            "one per jdk.ObjectAllocationSample event",
            List.of(JdkEvents.OBJECT_ALLOCATION_SAMPLE),
            List.of(
                    EventField.start(),
                    EventField.of(
                            "weight",
                            LONG,
                            JdkFields.WEIGHT,
                            "bytes allocated since the sample before (the sample's weight)")),
            List.of());

    public static final FleetTable CONTEXT_SWITCHES = FleetTable.events(
            "context_switches",
            "one per loomscope.ContextSwitches (the process's) and jdk.ThreadContextSwitchRate (the machine's) event",
            List.of(ContextSwitchesEvent.NAME, JdkEvents.THREAD_CONTEXT_SWITCH_RATE),
            plus(
                    declared(ContextSwitchesEvent.class, List.of(EventField.type(), EventField.start())),
                    EventField.of("switch_rate", DOUBLE, JdkFields.SWITCH_RATE, "the machine's switches per second")),
            List.of());

    public static final FleetTable CPU_LOAD = FleetTable.events(
            "cpu_load",
            "one per jdk.CPULoad event",
            List.of(JdkEvents.CPU_LOAD),
            List.of(
                    EventField.start(),
                    EventField.of("jvm_user", DOUBLE, JdkFields.JVM_USER, "the JVM's user CPU, share of the machine"),
                    EventField.of("jvm_system", DOUBLE, JdkFields.JVM_SYSTEM, "the JVM's system CPU"),
                    EventField.of("machine_total", DOUBLE, JdkFields.MACHINE_TOTAL, "the machine's CPU")),
            List.of());

    public static final FleetTable SCHEDULER = FleetTable.events(
            "scheduler",
            "one per loomscope.SchedulerSample event",
            List.of(SchedulerSampleEvent.NAME),
            declared(SchedulerSampleEvent.class, List.of(EventField.start())),
            List.of());

    public static final FleetTable SAMPLES = FleetTable.computed(
            "samples",
            "one per recording, sample event type, thread state and stack: the CPU and wall-clock samples aggregated",
            List.of(
                    RECORDING,
                    FleetColumn.of(
                            "event_type",
                            Type.STRING,
                            "jdk.ExecutionSample, jdk.CPUTimeSample, jdk.NativeMethodSample, profiler.WallClockSample,"
                                    + " datadog.ExecutionSample or datadog.MethodSample"),
                    FleetColumn.of(
                            "state",
                            Type.STRING,
                            "the thread state the sample carries (STATE_DEFAULT: async-profiler's CPU samples)"),
                    FleetColumn.of(
                            "thread_kind", Type.STRING, "virtual (the stack runs on a continuation) or platform"),
                    FleetColumn.of("stack_id", Type.LONG, "the stack trace, in the stacks table"),
                    FleetColumn.of(
                            "native_frames_are_c",
                            Type.BOOLEAN,
                            "frame type 3 is a C function (async-profiler's chunks), not a Java native method"),
                    FleetColumn.of("events", Type.LONG, "sample events"),
                    FleetColumn.of(
                            "samples",
                            Type.LONG,
                            "samples they stand for (a wall-clock event can stand for several)")));

    public static final FleetTable STACKS = FleetTable.computed(
            "stacks",
            "one per frame of each distinct stack trace of a recording, top frame first",
            List.of(
                    RECORDING,
                    FleetColumn.of(
                            "stack_id",
                            Type.LONG,
                            "the stack: a hash of its frames, the same for the same frames in any recording"),
                    FleetColumn.of("depth", Type.INT, "the frame's place, 0 at the top (the leaf)"),
                    FleetColumn.of("class_name", Type.STRING, "the class, binary name with dots"),
                    FleetColumn.of("method_name", Type.STRING, "the method"),
                    FleetColumn.of("line", Type.INT, "the line, 0 and below when not known"),
                    FleetColumn.of(
                            "frame_type",
                            Type.INT,
                            "JFR's frame type: 0 interpreted, 1 JIT compiled, 2 inlined, 3 native, 4 C++, 5 kernel, 6"
                                    + " C1")));

    public static final FleetTable PROBLEMS = FleetTable.computed(
            "problems",
            "one per recording that could not be exported",
            List.of(
                    RECORDING,
                    FleetColumn.of("kind", Type.STRING, "bad input (the file), or bug (loomscope's: please report)"),
                    FleetColumn.of("message", Type.STRING, "the one-line reason")));

    /**
     * {@code first}, then a column per field the loomscope event declares ({@link EventSchema}): named in snake case,
     * typed and described as the event's class declares the field.
     */
    static List<EventField> declared(Class<? extends Event> event, List<EventField> first) {
        List<EventField> fields = new ArrayList<>(first);
        for (EventSchema.Field f : EventSchema.fields(event)) {
            EventField.Kind kind = f.type() == String.class
                    ? STRING
                    : f.type() == boolean.class
                            ? EventField.Kind.BOOLEAN
                            : f.type() == double.class || f.type() == float.class ? DOUBLE : LONG;
            String d = f.description();
            fields.add(EventField.of(
                    f.name().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT),
                    kind,
                    f.name(),
                    Character.toLowerCase(d.charAt(0))
                            + d.substring(1)
                            + (f.unit() != null && !d.toLowerCase(Locale.ROOT).contains(f.unit())
                                    ? " (" + f.unit() + ")"
                                    : "")));
        }
        return fields;
    }

    /** {@code list} and {@code more}. */
    private static List<EventField> plus(List<EventField> list, EventField... more) {
        List<EventField> all = new ArrayList<>(list);
        all.addAll(List.of(more));
        return all;
    }

    /** Every table, in the order they are written. */
    public static final List<FleetTable> TABLES = List.of(
            RECORDINGS,
            EVENT_TYPES,
            RUNS,
            PINS,
            WORK,
            WORK_WINDOWS,
            GC,
            HEAP,
            ALLOCATIONS,
            CONTEXT_SWITCHES,
            CPU_LOAD,
            SCHEDULER,
            SAMPLES,
            STACKS,
            PROBLEMS);

    /** The tables with a row per event. */
    public static final List<FleetTable> EVENT_TABLES =
            TABLES.stream().filter(t -> !t.eventTypes().isEmpty()).toList();

    /** The tables as docs/fleets.md shows them (a test keeps the page equal to this). */
    public static String markdown() {
        StringBuilder md = new StringBuilder();
        for (FleetTable t : TABLES) {
            md.append("### ")
                    .append(t.name())
                    .append("\n\n")
                    .append(Character.toUpperCase(t.row().charAt(0)))
                    .append(t.row().substring(1))
                    .append(".\n\n");
            md.append("| column | type | meaning |\n|---|---|---|\n");
            for (FleetColumn c : t.columns()) {
                md.append("| `")
                        .append(c.name())
                        .append("` | ")
                        .append(c.type().name().toLowerCase(Locale.ROOT))
                        .append(" | ")
                        .append(c.description().replace("|", "\\|"))
                        .append(" |\n");
            }
            md.append('\n');
        }
        return md.toString();
    }

    public static FleetTable named(String name) {
        return TABLES.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
    }

    private static List<FleetColumn> with(List<FleetColumn> columns, Metric.Level level) {
        List<FleetColumn> all = new ArrayList<>(columns);
        all.addAll(metricColumns(level));
        return all;
    }

    /**
     * The comparison's metrics as columns: a run's value (metrics per run) or the whole recording's (metrics per
     * recording; those per run or recording give both).
     */
    private static List<FleetColumn> metricColumns(Metric.Level level) {
        return metrics(level).stream()
                .map(m -> FleetColumn.of(
                        m.column(),
                        Type.DOUBLE,
                        "the metric '" + m.name() + "' (" + m.unit() + ", " + m.direction() + ")"))
                .toList();
    }

    /** The metrics with a column in the table of runs ({@code RUN}) or of recordings ({@code RECORDING}). */
    public static List<Metric> metrics(Metric.Level level) {
        return Metric.ALL.stream()
                .filter(m -> m.level() == level || m.level() == Metric.Level.RUN_OR_RECORDING)
                .toList();
    }
}
