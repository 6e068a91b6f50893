package dev.loomscope.analyzer.reduce;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** loomscope.WorkloadRun events: one record per run (a few per recording). */
public final class RunsReducer implements Reducer {

    /** One workload run. */
    public record WorkloadRun(String workload, String threadKind, int runIndex, boolean warmup, long units, String unit,
            String params, double millis, double p50LatencyMs, double p99LatencyMs, long startMillis) {}

    private final List<WorkloadRun> runs = new ArrayList<>();

    @Override
    public Set<String> eventTypes() {
        return Set.of("loomscope.WorkloadRun");
    }

    @Override
    public void add(JfrEvent e) {
        runs.add(new WorkloadRun(e.string("workload"), e.string("threadKind"), (int) e.longValue("runIndex"), e.bool("warmup"),
                e.longValue("units"), e.hasField("unit") ? e.string("unit") : "units", e.string("params"),
                e.duration().toNanos() / 1e6, e.doubleValue("p50LatencyMs"), e.doubleValue("p99LatencyMs"),
                e.startTime().toEpochMilli()));
    }

    public List<WorkloadRun> runs() {
        return runs;
    }

    /** The measured runs (warm-ups left out). */
    public List<WorkloadRun> measured() {
        return runs.stream().filter(r -> !r.warmup()).toList();
    }
}
