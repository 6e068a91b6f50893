package dev.loomscope.analyzer.reduce;

import dev.loomscope.analyzer.errors.BadDataException;
import dev.loomscope.recording.JfrEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * loomscope.WorkloadRun events: one record per run (a few per recording). Any app may emit them:
 * the required fields are {@link #REQUIRED} (and the event's duration, the run's time); every other
 * field is optional and read only when present, and fields this version does not know are ignored.
 */
public final class RunsReducer implements Reducer {
    public static final List<String> REQUIRED = List.of("workload", "threadKind", "runIndex", "warmup", "units");

    /**
     * One workload run: from {@code startNanos} to {@code endNanos} (epoch nanoseconds), the
     * process's context switches over it (-1 when not recorded), the shares of the machine's CPU
     * time the process, other processes and steal took over it (NaN when not recorded), and the
     * bytes the process allocated over it, every thread's (-1 when not recorded).
     */
    public record WorkloadRun(String workload, String threadKind, int runIndex, boolean warmup, long units, String unit,
            String params, double millis, double p50LatencyMs, double p99LatencyMs, long startNanos, long endNanos,
            long voluntaryContextSwitches, long involuntaryContextSwitches, double processCpu, double otherCpu, double stealCpu,
            long allocatedBytes) {

        /** Other processes' and steal's share of the machine's CPU over the run; NaN when not recorded. */
        public double busyElsewhere() {
            return otherCpu + (Double.isNaN(stealCpu) ? 0 : stealCpu);
        }

        public long startMillis() {
            return Math.floorDiv(startNanos, 1_000_000L);
        }

        /** Voluntary and involuntary context switches over the run; null when not recorded. */
        public Long contextSwitches() {
            return voluntaryContextSwitches < 0 || involuntaryContextSwitches < 0 ? null : voluntaryContextSwitches + involuntaryContextSwitches;
        }
    }

    private final List<WorkloadRun> runs = new ArrayList<>();

    @Override
    public Set<String> eventTypes() {
        return Set.of("loomscope.WorkloadRun");
    }

    @Override
    public void add(JfrEvent e) {
        for (String field : REQUIRED) {
            if (!e.hasField(field)) {
                throw new BadDataException("a loomscope.WorkloadRun event has no field '" + field + "', which the event schema requires"
                        + " (required: " + String.join(", ", REQUIRED) + "; the others are optional)");
            }
        }
        String unit = e.hasField("unit") ? e.string("unit") : null;
        long start = Timeline.epochNanos(e.startTime());
        long nanos = e.duration().toNanos();
        runs.add(new WorkloadRun(e.string("workload"), e.string("threadKind"), (int) e.longValue("runIndex"), e.bool("warmup"),
                e.longValue("units"), unit == null || unit.isBlank() ? "units" : unit, e.hasField("params") ? e.string("params") : null,
                nanos / 1e6, optionalDouble(e, "p50LatencyMs"), optionalDouble(e, "p99LatencyMs"), start, start + nanos,
                optionalCount(e, "voluntaryContextSwitches"), optionalCount(e, "involuntaryContextSwitches"), optionalDouble(e, "processCpu"),
                optionalDouble(e, "otherCpu"), optionalDouble(e, "stealCpu"), optionalCount(e, "allocatedBytes")));
    }

    /** An optional count: -1 when the event does not have the field. */
    private static long optionalCount(JfrEvent e, String field) {
        return e.hasField(field) ? e.longValue(field) : -1;
    }

    /** Runs from outside a recording (a control JVM's results file) join these. */
    public void addAll(List<WorkloadRun> more) {
        runs.addAll(more);
    }

    /** An optional number: NaN when the event does not have the field. */
    private static double optionalDouble(JfrEvent e, String field) {
        return e.hasField(field) ? e.doubleValue(field) : Double.NaN;
    }

    public List<WorkloadRun> runs() {
        return runs;
    }

    /** The measured runs (warm-ups left out). */
    public List<WorkloadRun> measured() {
        return runs.stream().filter(r -> !r.warmup()).toList();
    }
}
