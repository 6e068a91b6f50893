package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.options.Numbers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A workload's bottom line: one sentence under its verdicts saying how virtual threads did against platform threads on
 * the figure that matters most to it, and the measured figures that moved the same way, per unit of work, as its cause.
 * A cause is only named when its own verdict, by the same rule, points the way the headline does; the strongest (the
 * largest ratio either way) first.
 */
public final class BottomLine {
    /** What begins a bottom line, in the terminal among the verdict lines above it. */
    public static final String MARK = "=> ";

    /** Longer than this and a line stops being read: the causes that do not fit are in the verdict lines above it. */
    public static final int MAX = 160;

    /** The per-unit figures that can explain a difference, with the words a line uses for them. */
    static final List<Cause> CAUSES = List.of(
            new Cause(Metric.PINS_PER_UNIT, "pins"),
            new Cause(Metric.PINNED_TIME_PER_UNIT, "pinned ms"),
            new Cause(Metric.WAIT_OUTSIDE_THE_HANDLER_P50, "wait outside the handler"),
            new Cause(Metric.PLATFORM_THREADS_STARTED_PER_UNIT, "platform thread starts"),
            new Cause(Metric.CPU_TIME_PER_UNIT, "CPU"),
            new Cause(Metric.CONTEXT_SWITCHES_PER_UNIT, "context switches"),
            new Cause(Metric.GC_PAUSE_PER_UNIT, "GC pause"));

    /** A figure that can explain a difference and the words a line uses for it. */
    record Cause(Metric metric, String words) {}

    /**
     * A cause computed from the recordings rather than compared between the kinds: the ceiling the pins put on the
     * carriers, which leads a worse headline's causes.
     */
    public interface Computed {
        /** The cause in a line's words: {@code 9.8 ms pinned (2 carriers serve at most 204/s of 300/s)}. */
        String words();
    }

    /** The causes a line leaves out when it has already said the pins (the ceiling they put on the carriers). */
    static final Set<Metric> PINS = Set.of(Metric.PINS_PER_UNIT, Metric.PINNED_TIME_PER_UNIT);

    private BottomLine() {}

    /**
     * The first headline with a decided verdict, else the first with a result; none whose baseline has no value to
     * divide by.
     */
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
     * A workload's bottom line as values: {@code group} against {@code baseline} on {@code headline}, its verdict and
     * ratio, and the causes that moved the same way ({@code firstCause}, a computed one such as the ceiling pins put on
     * the carriers, leads them when the headline is worse; null when none was computed). {@link #text} renders it.
     */
    public record Line(
            String workload,
            String group,
            String baseline,
            Metric headline,
            Verdict verdict,
            Comparison comparison,
            boolean busyMachine,
            String unit,
            Computed firstCause,
            List<Found> causes) {
        /** Whether the verdict is a claim of a difference and the causes were looked for. */
        public boolean decided() {
            return verdict == Verdict.BETTER || verdict == Verdict.WORSE;
        }

        /** Whether pins explain it: the computed cause (their ceiling), or a pin figure among the measured ones. */
        public boolean pinned() {
            return firstCause != null || causes.stream().anyMatch(c -> PINS.contains(c.metric()));
        }

        /** What the headline says: {@code virtual worse, latency p99 30.3x platform's (95% CI 22.5-61.2x)}. */
        public String headlineText() {
            String says = switch (verdict) {
                case BETTER -> "better";
                case WORSE -> "worse";
                case NO_MEANINGFUL_DIFFERENCE -> "no different";
                case TOO_FEW_JVMS -> "not judged (too few JVMs)";
                default -> "not shown better or worse";
            };
            return String.format(
                    Locale.ROOT,
                    "%s %s, %s %s %s's (95%% CI %s-%s)",
                    group,
                    says,
                    headline.name(),
                    times(comparison.ratio()),
                    baseline,
                    Numbers.plain(comparison.ratioCiLow()),
                    times(comparison.ratioCiHigh()));
        }

        /** The causes in words, the computed one first. */
        public List<String> causeWords() {
            List<String> words = new ArrayList<>();
            if (firstCause != null) {
                words.add(firstCause.words());
            }
            causes.forEach(c -> words.add(c.words()));
            return words;
        }

        /**
         * The line, at most {@link #MAX} characters where its headline allows: the causes that do not fit are in the
         * verdict lines above it.
         */
        public String text() {
            String line = MARK + workload + ": " + headlineText() + (busyMachine ? ", busy machine" : "");
            if (!decided()) {
                return line;
            }
            List<String> words = causeWords();
            if (words.isEmpty()) {
                String none =
                        "; no cause measured (" + unit + ": pins, queueing, thread starts, CPU, context switches, GC)";
                return line.length() + none.length() <= MAX ? line + none : line;
            }
            StringBuilder out =
                    new StringBuilder(line).append("; because a ").append(unit).append(": ");
            int named = 0;
            for (String cause : words) {
                String next = (named == 0 ? "" : ", ") + cause;
                if (named > 0 && out.length() + next.length() > MAX) {
                    break;
                }
                out.append(next);
                named++;
            }
            return out.toString();
        }
    }

    /**
     * A measured cause: its figure and its words ({@code context switches 0.05x}), and how far it moved (the larger,
     * the stronger).
     */
    public record Found(Metric metric, String words, double strength) {}

    /**
     * The line for {@code workload}: {@code group} against the results' baseline on the first of {@code headlines} with
     * a verdict (else the first with a ratio), the causes per {@code unit} ("request", "unit of work");
     * {@code firstCause} (a computed cause, such as the ceiling pins put on the carriers) leads them when the headline
     * is worse. Null when no headline figure was compared.
     */
    public static Line of(
            String workload,
            List<MetricResult> results,
            List<Metric> headlines,
            String group,
            String unit,
            Computed firstCause) {
        MetricResult head = head(results, headlines, group);
        if (head == null) {
            return null;
        }
        Verdict v = head.verdict(group);
        boolean decided = v == Verdict.BETTER || v == Verdict.WORSE;
        boolean computedLeads = v == Verdict.WORSE && firstCause != null;
        return new Line(
                workload,
                group,
                head.baseline(),
                head.metric(),
                v,
                head.comparisons().get(group),
                head.busyMachine(group) != null,
                unit,
                computedLeads ? firstCause : null,
                decided ? causes(results, group, v, computedLeads) : List.of());
    }

    /**
     * The causes that moved the way the headline did, strongest first: {@code context switches 0.08x}, {@code pins 0.97
     * (none on platform)}.
     */
    private static List<Found> causes(List<MetricResult> results, String group, Verdict v, boolean pinsSaid) {
        List<Found> found = new ArrayList<>();
        for (Cause cause : CAUSES) {
            MetricResult r = find(results, cause.metric(), group);
            if (r == null || r.verdict(group) != v || pinsSaid && PINS.contains(cause.metric())) {
                continue;
            }
            Comparison c = r.comparisons().get(group);
            if (c.ratio() == Double.POSITIVE_INFINITY) {
                var b = r.boxplots().get(group);
                found.add(new Found(
                        cause.metric(),
                        cause.words() + " " + Numbers.plain(c.means() ? b.mean() : b.median()) + " (none on "
                                + r.baseline() + ")",
                        Double.MAX_VALUE));
            } else if (c.ratio() > 0) {
                found.add(new Found(
                        cause.metric(), cause.words() + " " + times(c.ratio()), Math.abs(Math.log(c.ratio()))));
            } else {
                found.add(new Found(
                        cause.metric(), cause.words() + " none (" + r.baseline() + " had some)", Double.MAX_VALUE));
            }
        }
        found.sort(Comparator.comparingDouble(Found::strength).reversed());
        return List.copyOf(found);
    }

    private static MetricResult find(List<MetricResult> results, Metric metric, String group) {
        for (MetricResult r : results) {
            if (r.metric().equals(metric)
                    && r.comparisons().containsKey(group)
                    && !Double.isNaN(r.comparisons().get(group).ratio())) {
                return r;
            }
        }
        return null;
    }

    /** A ratio as a multiple: {@code 3.2x}, {@code 0.08x}. */
    public static String times(double ratio) {
        return Numbers.plain(ratio) + "x";
    }
}
