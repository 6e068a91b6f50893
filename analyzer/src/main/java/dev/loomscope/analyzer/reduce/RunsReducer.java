package dev.loomscope.analyzer.reduce;

import dev.loomscope.events.EventSchema;
import dev.loomscope.events.WorkloadRunEvent;
import dev.loomscope.load.ClientFigures;
import dev.loomscope.load.ClientRow;
import dev.loomscope.load.WindowRow;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.FieldValues;
import dev.loomscope.recording.JfrEvent;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * loomscope.WorkloadRun events: one record per run (a few per recording). Any app may emit them: the required fields
 * are {@link #required()} (and the event's duration, the run's time); every other field is optional and read only when
 * present, and fields this version does not know are ignored. The fields are those {@link WorkloadRunEvent} declares
 * ({@link EventSchema}): the names below are checked against it as the class loads, and a results file's rows are read
 * by the same {@link #run} ({@code study/ControlRuns}).
 */
public final class RunsReducer implements Reducer {
    /** The fields an event must have: those the event's class does not declare optional. */
    public static List<String> required() {
        return Required.FIELDS;
    }

    /** Read when a run is first read: the fields' annotations cost a command that reads none its start. */
    private static final class Required {
        static final List<String> FIELDS = EventSchema.required(WorkloadRunEvent.class);
    }

    private static final String WORKLOAD = declared("workload");
    private static final String THREAD_KIND = declared("threadKind");
    private static final String RUN_INDEX = declared("runIndex");
    private static final String WARMUP = declared("warmup");
    private static final String UNITS = declared("units");
    private static final String UNIT = declared("unit");
    private static final String PARAMS = declared("params");
    private static final String P50 = declared("p50LatencyMs");
    private static final String P99 = declared("p99LatencyMs");
    private static final String VOLUNTARY = declared("voluntaryContextSwitches");
    private static final String INVOLUNTARY = declared("involuntaryContextSwitches");
    private static final String PROCESS_CPU = declared("processCpu");
    private static final String OTHER_CPU = declared("otherCpu");
    private static final String STEAL_CPU = declared("stealCpu");
    private static final String ALLOCATED = declared("allocatedBytes");
    private static final String P999 = declared("p999LatencyMs");
    private static final String OFFERED = declared("offeredUnits");
    private static final String ERRORS = declared("errors");
    private static final String MEASURED_BY = declared("measuredBy");
    private static final String LATE = declared("late");
    private static final String LATENCY_HISTOGRAM = declared("latencyHistogram");
    private static final String SEND_HISTOGRAM = declared("sendLatencyHistogram");
    private static final String LATE_HISTOGRAM = declared("lateHistogram");
    private static final String CLIENT_LAG = declared("clientLagP99Ms");
    private static final String TARGET = declared("target");
    private static final String OFFERED_RATE = declared("offeredRate");
    private static final String CONNECTIONS = declared("connections");

    private static String declared(String field) {
        return EventSchema.fieldName(WorkloadRunEvent.class, field);
    }

    /**
     * One workload run: from {@code startNanos} to {@code endNanos} (epoch nanoseconds), the process's context switches
     * over it (-1 when not recorded), the shares of the machine's CPU time the process, other processes and steal took
     * over it (NaN when not recorded), and the bytes the process allocated over it, every thread's (-1 when not
     * recorded).
     */
    public record WorkloadRun(
            String workload,
            String threadKind,
            int runIndex,
            boolean warmup,
            long units,
            String unit,
            String params,
            double millis,
            double p50LatencyMs,
            double p99LatencyMs,
            long startNanos,
            long endNanos,
            long voluntaryContextSwitches,
            long involuntaryContextSwitches,
            double processCpu,
            double otherCpu,
            double stealCpu,
            long allocatedBytes,
            ClientRow client)
            implements Serializable, WindowRow {

        /** A run as a workload measures itself (no load client's figures). */
        public WorkloadRun(
                String workload,
                String threadKind,
                int runIndex,
                boolean warmup,
                long units,
                String unit,
                String params,
                double millis,
                double p50LatencyMs,
                double p99LatencyMs,
                long startNanos,
                long endNanos,
                long voluntaryContextSwitches,
                long involuntaryContextSwitches,
                double processCpu,
                double otherCpu,
                double stealCpu,
                long allocatedBytes) {
            this(
                    workload,
                    threadKind,
                    runIndex,
                    warmup,
                    units,
                    unit,
                    params,
                    millis,
                    p50LatencyMs,
                    p99LatencyMs,
                    startNanos,
                    endNanos,
                    voluntaryContextSwitches,
                    involuntaryContextSwitches,
                    processCpu,
                    otherCpu,
                    stealCpu,
                    allocatedBytes,
                    ClientRow.NONE);
        }

        /** The share of the requests that failed; null when errors were not counted or nothing was offered or done. */
        public Double errorRate() {
            long all = client.offered() > 0 ? client.offered() : units + Math.max(0, client.errors());
            return client.errors() < 0 || all <= 0 ? null : Math.min(1, client.errors() / (double) all);
        }

        /**
         * Whether the load client's own lateness made this window the client's rather than the service's
         * ({@link ClientRow#lagged}).
         */
        public boolean clientLagged() {
            return ClientRow.lagged(client.lagP99Ms(), p99LatencyMs);
        }

        /** Other processes' and steal's share of the machine's CPU over the run; NaN when not recorded. */
        public double busyElsewhere() {
            return otherCpu + (Double.isNaN(stealCpu) ? 0 : stealCpu);
        }

        public long startMillis() {
            return Math.floorDiv(startNanos, 1_000_000L);
        }

        /** Voluntary and involuntary context switches over the run; null when not recorded. */
        public Long contextSwitches() {
            return voluntaryContextSwitches < 0 || involuntaryContextSwitches < 0
                    ? null
                    : voluntaryContextSwitches + involuntaryContextSwitches;
        }
    }

    private final List<WorkloadRun> runs = new ArrayList<>();
    /** The measured runs' client figures once merged (empty: none), null until asked or after a run is added. */
    private transient Optional<ClientFigures> client;
    /** The measured runs once chosen, null until asked or after a run is added (every figure over the runs asks). */
    private transient List<WorkloadRun> measured;

    @Override
    public Set<String> eventTypes() {
        return Set.of(WorkloadRunEvent.NAME);
    }

    @Override
    public void add(JfrEvent e) {
        long start = Timeline.epochNanos(e.startTime());
        runs.add(run(e, "a loomscope.WorkloadRun event", start, e.duration().toNanos()));
        client = null;
        measured = null;
    }

    /**
     * The run whose fields are {@code f} (named as the event's class declares them), which began at {@code start}
     * (epoch nanoseconds) and took {@code nanos}; {@code what} names the source in the message when a required field is
     * missing. Optional fields read as unknown when absent.
     */
    public static WorkloadRun run(FieldValues f, String what, long start, long nanos) {
        for (String field : required()) {
            if (!f.hasField(field)) {
                throw new BadDataException(what + " has no field '" + field + "', which the event schema requires"
                        + " (required: " + String.join(", ", required()) + "; the others are optional)");
            }
        }
        String unit = f.hasField(UNIT) ? f.string(UNIT) : null;
        return new WorkloadRun(
                f.string(WORKLOAD),
                f.string(THREAD_KIND),
                (int) f.longValue(RUN_INDEX),
                f.bool(WARMUP),
                f.longValue(UNITS),
                unit == null || unit.isBlank() ? "units" : unit,
                f.hasField(PARAMS) ? f.string(PARAMS) : null,
                nanos / 1e6,
                optionalDouble(f, P50),
                optionalDouble(f, P99),
                start,
                start + nanos,
                optionalCount(f, VOLUNTARY),
                optionalCount(f, INVOLUNTARY),
                optionalDouble(f, PROCESS_CPU),
                optionalDouble(f, OTHER_CPU),
                optionalDouble(f, STEAL_CPU),
                optionalCount(f, ALLOCATED),
                new ClientRow(
                        optionalDouble(f, P999),
                        optionalCount(f, OFFERED),
                        optionalCount(f, ERRORS),
                        f.hasField(MEASURED_BY) ? f.string(MEASURED_BY) : null,
                        optionalCount(f, LATE),
                        optionalString(f, LATENCY_HISTOGRAM),
                        optionalString(f, SEND_HISTOGRAM),
                        optionalString(f, LATE_HISTOGRAM),
                        optionalDouble(f, CLIENT_LAG),
                        optionalString(f, TARGET),
                        optionalDouble(f, OFFERED_RATE),
                        (int) optionalCount(f, CONNECTIONS)));
    }

    /** An optional count: -1 when the run does not have the field. */
    private static long optionalCount(FieldValues f, String field) {
        return f.hasField(field) ? f.longValue(field) : -1;
    }

    /** An optional text: null when the run does not have the field. */
    private static String optionalString(FieldValues f, String field) {
        return f.hasField(field) ? f.string(field) : null;
    }

    /** An optional number: NaN when the run does not have the field. */
    private static double optionalDouble(FieldValues f, String field) {
        return f.hasField(field) ? f.doubleValue(field) : Double.NaN;
    }

    /** Runs from outside a recording (a control JVM's results file) join these. */
    public void addAll(List<WorkloadRun> more) {
        runs.addAll(more);
        client = null;
        measured = null;
    }

    public List<WorkloadRun> runs() {
        return runs;
    }

    /**
     * The measured runs (warm-ups and the windows in which a load client itself lagged left out); of a workload taken
     * again (a capacity search's miss tried once more, warmer), only the runs after its last warm-up: the earlier try
     * was a warm-up for it.
     */
    public List<WorkloadRun> measured() {
        List<WorkloadRun> chosen = measured;
        if (chosen == null) {
            Map<String, Long> lastWarmUp = new HashMap<>();
            runs.stream()
                    .filter(WorkloadRun::warmup)
                    .forEach(r -> lastWarmUp.merge(r.workload(), r.startNanos(), Math::max));
            chosen = runs.stream()
                    .filter(r -> !r.warmup()
                            && !r.clientLagged()
                            && r.startNanos() > lastWarmUp.getOrDefault(r.workload(), Long.MIN_VALUE))
                    .toList();
            measured = chosen;
        }
        return chosen;
    }

    /**
     * What the load client saw over the measured runs, their histograms merged once (every latency figure and the
     * study's line read them); null when a run holds none ({@link ClientFigures#of}).
     */
    public ClientFigures client() {
        Optional<ClientFigures> merged = client;
        if (merged == null) {
            merged = Optional.ofNullable(ClientFigures.of(measured()));
            client = merged;
        }
        return merged.orElse(null);
    }
}
