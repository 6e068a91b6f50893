package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A quantity compared across thread kinds: where its values come from (one per workload run, per
 * recording, or per event), its unit, and whether lower is better. Defined as data.
 */
public record Metric(String name, String unit, boolean lowerIsBetter, Level level, Function<RecordingFacts, List<Value>> extract) {

    /** Where a metric's values come from. */
    public enum Level {
        RUN,
        RECORDING,
        EVENT
    }

    /** One value: x is its run index (or event index), units the work it stands for (NaN if none). */
    public record Value(double x, double value, double units, long startMillis) {}

    private static Metric perRun(String name, String unit, boolean lower, Function<WorkloadRun, Double> f) {
        return new Metric(name, unit, lower, Level.RUN, facts -> {
            List<Value> out = new ArrayList<>();
            for (WorkloadRun r : facts.runs.measured()) {
                Double v = f.apply(r);
                if (v != null && !v.isNaN()) {
                    out.add(new Value(r.runIndex(), v, r.units(), r.startMillis()));
                }
            }
            return out;
        });
    }

    private static Metric perRecording(String name, String unit, boolean lower, Function<RecordingFacts, Double> f) {
        return new Metric(name, unit, lower, Level.RECORDING, facts -> {
            Double v = f.apply(facts);
            long start = facts.summary.first() == null ? 0 : facts.summary.first().toEpochMilli();
            double units = facts.runs.measured().stream().mapToLong(WorkloadRun::units).sum();
            return v == null || v.isNaN() ? List.of() : List.of(new Value(0, v, units, start));
        });
    }

    private static Double units(RecordingFacts f) {
        long u = f.runs.measured().stream().mapToLong(WorkloadRun::units).sum();
        return u == 0 ? null : (double) u;
    }

    /** Every metric, in report order. */
    public static final List<Metric> ALL = List.of(
            perRun("run time", "ms", true, WorkloadRun::millis),
            perRun("throughput", "units/s", false, r -> r.millis() > 0 ? r.units() / (r.millis() / 1e3) : null),
            perRun("latency p50", "ms", true, WorkloadRun::p50LatencyMs),
            perRun("latency p99", "ms", true, WorkloadRun::p99LatencyMs),
            perRecording("gc pause total", "ms", true, f -> f.gc.pauses().count() == 0 ? null : f.gc.pauses().sum()),
            perRecording("gc pause p99", "ms", true, f -> f.gc.pauses().count() == 0 ? null : f.gc.pauses().quantile(0.99)),
            perRecording("heap used median", "MiB", true, f -> f.heap.afterUsed.count() == 0 ? null : f.heap.afterUsed.quantile(0.5) / (1 << 20)),
            perRecording("heap used max", "MiB", true, f -> f.heap.afterUsed.count() == 0 ? null : f.heap.afterUsed.max() / (1 << 20)),
            perRecording("context switches per unit", "#/unit", true, f -> {
                Double u = units(f);
                return !f.ctxsw.processRecorded() || u == null ? null : (f.ctxsw.voluntaryTotal() + f.ctxsw.involuntaryTotal()) / u;
            }),
            perRecording("context switches per second", "/s", true,
                    f -> f.ctxsw.processRecorded() ? f.perSecond(f.ctxsw.voluntaryTotal() + f.ctxsw.involuntaryTotal()) : null),
            perRecording("pinned time", "ms", true, f -> f.summary.count("jdk.VirtualThreadPinned") == 0 && f.summary.threadKind == null ? null
                    : f.pinning.all().sum()),
            perRecording("peak threads", "threads", true, f -> f.summary.peakThreads < 0 ? null : (double) f.summary.peakThreads),
            perRecording("cpu load", "%", true, f -> f.summary.jvmCpu.count() == 0 ? null : 100 * f.summary.jvmCpu.sum() / f.summary.jvmCpu.count()),
            perRecording("allocation rate", "MiB/s", true,
                    f -> f.heap.allocationSamples() == 0 ? null : f.perSecond(f.heap.allocatedBytes()) / (1 << 20)),
            new Metric("pinned duration", "ms", true, Level.EVENT, f -> {
                List<Value> out = new ArrayList<>();
                double[] v = f.pinning.all().toArray();
                for (int i = 0; i < v.length; i++) {
                    out.add(new Value(i, v[i], Double.NaN, 0));
                }
                return out;
            }),
            new Metric("gc pause", "ms", true, Level.EVENT, f -> {
                List<Value> out = new ArrayList<>();
                double[] v = f.gc.pauses().toArray();
                for (int i = 0; i < v.length; i++) {
                    out.add(new Value(i, v[i], Double.NaN, 0));
                }
                return out;
            }));

    public static Metric named(String name) {
        return ALL.stream().filter(m -> m.name.equals(name)).findFirst().orElse(null);
    }

    public static List<String> names() {
        return ALL.stream().map(Metric::name).toList();
    }
}
