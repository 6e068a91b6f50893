package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.compare.Noise;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the recording costs each thread kind, measured: the throughput of the recorded JVMs' runs over the control JVMs'
 * (same workload and kind, no agent, no JFR), the JVM the unit, as a ratio of the JVMs' medians with its two-level
 * bootstrap 95% interval. 1.00 is no cost; 0.90 is a tenth of the throughput lost. A recording cannot make a program
 * faster: an interval above 1 is the JVMs' or the machine's noise, and is said so, not reported as a cost.
 */
public final class RecordingCost {
    private RecordingCost() {}

    /** Per thread kind, recorded over unrecorded; empty when no kind has runs in both. */
    public static Map<String, Comparison> of(
            Map<String, List<RecordingFacts>> recorded, Map<String, List<RecordingFacts>> control) {
        Map<String, Comparison> out = new LinkedHashMap<>();
        for (String kind : recorded.keySet()) {
            List<double[]> with = throughput(recorded.get(kind));
            List<double[]> without = throughput(control.getOrDefault(kind, List.of()));
            if (!with.isEmpty() && !without.isEmpty()) {
                out.put(kind, Comparison.of(with, without));
            }
        }
        return out;
    }

    /**
     * {@code recording cost (measured): platform 0.88 [0.84, 0.93], virtual 0.97 [0.94, 1.00] (...)}, an interval
     * flagged when too few JVMs for {@code rule}'s test; null when nothing to say.
     */
    public static String line(
            Map<String, List<RecordingFacts>> recorded, Map<String, List<RecordingFacts>> control, Verdict.Rule rule) {
        Map<String, Comparison> cost = of(recorded, control);
        if (cost.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        cost.forEach((kind, c) -> {
            String figure = String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", c.ratio(), c.ratioCiLow(), c.ratioCiHigh());
            String busy = Noise.describe(
                    List.of(Noise.of(recorded.get(kind)), Noise.of(control.getOrDefault(kind, List.of()))));
            if (c.ratio() > 1) {
                // a figure above 1 is no cost but the JVMs' difference: not shown as a measurement
                parts.add(kind
                        + " not measured: the recorded JVMs ran faster than those without a recording, which a"
                        + " recording cannot cause; the JVMs differed by more than"
                        + " it costs" + (busy != null ? " (" + busy + ")" : ""));
            } else {
                List<String> notes = new ArrayList<>();
                if (rule.tooFew(c)) {
                    notes.add("too few JVMs for an interval to trust");
                }
                if (busy != null) {
                    notes.add(busy);
                }
                parts.add(kind + " " + figure + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"));
            }
        });
        Comparison any = cost.values().iterator().next();
        return "recording cost (measured): " + String.join(", ", parts)
                + " (throughput with the recording / without it, ratio of the JVMs' medians, n=" + any.jvmsGroup()
                + "/" + any.jvmsBaseline() + " JVMs, 95% two-level bootstrap interval; 1.00 is no cost)";
    }

    /** Each JVM's measured runs' throughput. */
    private static List<double[]> throughput(List<RecordingFacts> facts) {
        Metric m = Metric.THROUGHPUT;
        return facts.stream()
                .map(f -> m.extract().apply(f).stream()
                        .mapToDouble(Metric.Value::value)
                        .toArray())
                .filter(v -> v.length > 0)
                .toList();
    }
}
