package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.stats.Comparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the recording costs each thread kind, measured: the throughput of the recorded JVMs' runs
 * over the control JVMs' (same workload and kind, no agent, no JFR), as a ratio of medians with
 * its bootstrap 95% interval. 1.00 is no cost; 0.90 is a tenth of the throughput lost.
 */
public final class RecordingCost {
    private RecordingCost() {}

    /** Per thread kind, recorded over unrecorded; empty when no kind has runs in both. */
    public static Map<String, Comparison> of(Map<String, List<RecordingFacts>> recorded, Map<String, List<RecordingFacts>> control) {
        Map<String, Comparison> out = new java.util.LinkedHashMap<>();
        for (String kind : recorded.keySet()) {
            double[] with = throughput(recorded.get(kind));
            double[] without = throughput(control.getOrDefault(kind, List.of()));
            if (with.length > 0 && without.length > 0) {
                out.put(kind, Comparison.of(with, without));
            }
        }
        return out;
    }

    /** {@code recording cost (measured): platform 0.88 [0.84, 0.93], virtual 0.97 [0.94, 1.00] (...)}; null when nothing to say. */
    public static String line(Map<String, List<RecordingFacts>> recorded, Map<String, List<RecordingFacts>> control) {
        Map<String, Comparison> cost = of(recorded, control);
        if (cost.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        cost.forEach((kind, c) -> parts.add(String.format(Locale.ROOT, "%s %.2f [%.2f, %.2f]%s", kind, c.ratio(), c.ratioCiLow(), c.ratioCiHigh(),
                c.reliable() ? "" : " (not reliable: n=" + c.nGroup() + "/" + c.nBaseline() + ")")));
        return "recording cost (measured): " + String.join(", ", parts) + " (throughput with the recording / without it, medians of the runs,"
                + " 95% bootstrap interval; 1.00 is no cost)";
    }

    private static double[] throughput(List<RecordingFacts> facts) {
        Metric m = Metric.named("throughput");
        return facts.stream().flatMap(f -> m.extract().apply(f).stream()).mapToDouble(Metric.Value::value).toArray();
    }
}
