package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A workload's bottom line: one sentence under its verdicts saying how virtual threads did against
 * platform threads on the figure that matters most to it, and the measured figures that moved the
 * same way, per unit of work, as its cause. A cause is only named when its own verdict, by the same
 * rule, points the way the headline does; the strongest (the largest ratio either way) first.
 */
public final class BottomLine {
    /** What begins a bottom line, in the terminal among the verdict lines above it. */
    public static final String MARK = "=> ";

    /** Longer than this and a line stops being read: the causes that do not fit are in the verdict lines above it. */
    public static final int MAX = 160;

    /** The per-unit figures that can explain a difference, with the words a line uses for them. */
    static final List<Cause> CAUSES = List.of(new Cause(Metric.PINS_PER_UNIT, "pins"), new Cause(Metric.PINNED_TIME_PER_UNIT, "pinned ms"), new Cause(Metric.WAIT_OUTSIDE_THE_HANDLER_P50, "wait outside the handler"), new Cause(Metric.PLATFORM_THREADS_STARTED_PER_UNIT, "platform thread starts"), new Cause(Metric.CPU_TIME_PER_UNIT, "CPU"), new Cause(Metric.CONTEXT_SWITCHES_PER_UNIT, "context switches"), new Cause(Metric.GC_PAUSE_PER_UNIT, "GC pause"));

    /** A figure that can explain a difference and the words a line uses for it. */
    record Cause(Metric metric, String words) {}

    /** The causes a line leaves out when it has already said the pins (the ceiling they put on the carriers). */
    private static final java.util.Set<Metric> PINS = java.util.Set.of(Metric.PINS_PER_UNIT, Metric.PINNED_TIME_PER_UNIT);

    private BottomLine() {}

    /** The first headline with a decided verdict, else the first with a result; none whose baseline has no value to divide by. */
    private static MetricResult head(List<MetricResult> results, List<Metric> headlines, String group) {
        MetricResult head = null;
        for (Metric name : headlines) {
            MetricResult r = find(results, name, group);
            if (r != null && Double.isInfinite(r.comparisons().get(group).ratio())) {
                continue; // none in the baseline: no ratio to lead with
            }
            if (r != null && r.verdict(group).decided()) {
                return r;
            }
            head = head == null ? r : head;
        }
        return head;
    }

    /**
     * The line for {@code workload}: {@code group} against the results' baseline on the first of
     * {@code headlines} with a verdict (else the first with a ratio), the causes per {@code unit}
     * ("request", "unit of work"); {@code firstCause} (a computed cause, such as the ceiling pins
     * put on the carriers) leads them when the headline is worse. Null when no headline figure was
     * compared.
     */
    public static String of(String workload, List<MetricResult> results, List<Metric> headlines, String group, String unit, String firstCause) {
        MetricResult head = head(results, headlines, group);
        if (head == null) {
            return null;
        }
        Comparison c = head.comparisons().get(group);
        Verdict v = head.verdict(group);
        String says = switch (v) {
            case BETTER -> "better";
            case WORSE -> "worse";
            case NO_MEANINGFUL_DIFFERENCE -> "no different";
            case TOO_FEW_JVMS -> "not judged (too few JVMs)";
            default -> "not shown better or worse";
        };
        String line = String.format(Locale.ROOT, "%s%s: %s %s, %s %s %s's (95%% CI %s-%s)", MARK, workload, group, says, head.metric().name(), times(c.ratio()),
                head.baseline(), Comparer.plain(c.ratioCiLow()), times(c.ratioCiHigh()));
        if (head.busyMachine(group) != null) {
            line += ", busy machine";
        }
        if (v != Verdict.BETTER && v != Verdict.WORSE) {
            return line;
        }
        List<String> causes = new ArrayList<>();
        if (firstCause != null && v == Verdict.WORSE) {
            causes.add(firstCause);
        }
        causes.addAll(causes(results, group, v, firstCause != null && v == Verdict.WORSE));
        if (causes.isEmpty()) {
            String none = "; no cause measured (" + unit + ": pins, queueing, thread starts, CPU, context switches, GC)";
            return line.length() + none.length() <= MAX ? line + none : line;
        }
        StringBuilder out = new StringBuilder(line).append("; because a ").append(unit).append(": ");
        int named = 0;
        for (String cause : causes) {
            String next = (named == 0 ? "" : ", ") + cause;
            if (named > 0 && out.length() + next.length() > MAX) {
                break;
            }
            out.append(next);
            named++;
        }
        return out.toString();
    }

    /** The causes that moved the way the headline did, strongest first: {@code context switches 0.08x}, {@code pins 0.97 (none on platform)}. */
    private static List<String> causes(List<MetricResult> results, String group, Verdict v, boolean pinsSaid) {
        record Found(String words, double strength) {}
        List<Found> found = new ArrayList<>();
        for (Cause cause : CAUSES) {
            MetricResult r = find(results, cause.metric(), group);
            if (r == null || r.verdict(group) != v || pinsSaid && PINS.contains(cause.metric())) {
                continue;
            }
            Comparison c = r.comparisons().get(group);
            if (c.ratio() == Double.POSITIVE_INFINITY) {
                var b = r.boxplots().get(group);
                found.add(new Found(cause.words() + " " + Comparer.plain(c.means() ? b.mean() : b.median()) + " (none on " + r.baseline() + ")", Double.MAX_VALUE));
            } else if (c.ratio() > 0) {
                found.add(new Found(cause.words() + " " + times(c.ratio()), Math.abs(Math.log(c.ratio()))));
            } else {
                found.add(new Found(cause.words() + " none (" + r.baseline() + " had some)", Double.MAX_VALUE));
            }
        }
        found.sort(Comparator.comparingDouble(Found::strength).reversed());
        return found.stream().map(Found::words).toList();
    }

    private static MetricResult find(List<MetricResult> results, Metric metric, String group) {
        for (MetricResult r : results) {
            if (r.metric().equals(metric) && r.comparisons().containsKey(group) && !Double.isNaN(r.comparisons().get(group).ratio())) {
                return r;
            }
        }
        return null;
    }

    /** A ratio as a multiple: {@code 3.2x}, {@code 0.08x}. */
    static String times(double ratio) {
        return Comparer.plain(ratio) + "x";
    }
}
