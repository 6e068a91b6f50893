package dev.loomscope.analyzer.reduce;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;

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
    public void add(RecordedEvent e) {
        runs.add(new WorkloadRun(e.getString("workload"), e.getString("threadKind"), e.getInt("runIndex"), e.getBoolean("warmup"),
                e.getLong("units"), e.hasField("unit") ? e.getString("unit") : "units", e.getString("params"),
                e.getDuration().toNanos() / 1e6, e.getDouble("p50LatencyMs"), e.getDouble("p99LatencyMs"),
                e.getStartTime().toEpochMilli()));
    }

    public List<WorkloadRun> runs() {
        return runs;
    }

    /** The measured runs (warm-ups left out). */
    public List<WorkloadRun> measured() {
        return runs.stream().filter(r -> !r.warmup()).toList();
    }
}
