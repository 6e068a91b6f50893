package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.load.ClientFigures;
import dev.loomscope.load.ClientRow;
import dev.loomscope.load.stats.LatencyHistograms;
import dev.loomscope.load.stats.Quantiles;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * What the client saw of one thread kind's JVMs at one URL and rate, in a line: each JVM's figures over its merged
 * measured windows ({@link ClientFigures}; its latencies the {@link Metric}s' values for the whole recording), the
 * median of the JVMs'.
 */
final class ClientLine {
    private ClientLine() {}

    /**
     * {@code platform 300/s answered of 300/s, p50 10.2 ms, p99 17.0 ms (median of 4 JVMs, each over its merged
     * measured windows: n=3,000-3,012)}; a percentile a JVM has too few requests for is said so; the JVMs without
     * figures are left out of it, and said why.
     */
    static String of(String kind, List<RecordingFacts> jvms) {
        List<RecordingFacts> known =
                jvms.stream().filter(f -> f.runs.client() != null).toList();
        if (known.isEmpty()) {
            return kind + " no figures (" + whyNone(jvms) + ")";
        }
        List<ClientFigures> figures = known.stream().map(f -> f.runs.client()).toList();
        double offered = median(
                figures.stream().mapToDouble(f -> f.offered() / f.seconds()).toArray());
        StringBuilder b = new StringBuilder(String.format(
                Locale.ROOT,
                "%s %s/s answered of %s/s",
                kind,
                plain(median(
                        figures.stream().mapToDouble(ClientFigures::throughput).toArray())),
                plain(offered)));
        for (Metric m : List.of(Metric.LATENCY_P50, Metric.LATENCY_P99)) {
            double[] values = known.stream()
                    .map(m::valueOfRecording)
                    .filter(Objects::nonNull)
                    .mapToDouble(Double::doubleValue)
                    .toArray();
            String name = m == Metric.LATENCY_P50 ? "p50" : "p99";
            b.append(", ")
                    .append(
                            values.length == known.size()
                                    ? name + " " + LatencyHistograms.ms(1e3 * median(values))
                                    : name + " n/a ("
                                            + String.format(
                                                    Locale.ROOT,
                                                    "%,d",
                                                    LatencyHistograms.needed(m == Metric.LATENCY_P50 ? 50 : 99))
                                            + " requests a JVM needed)");
        }
        if (figures.stream().allMatch(f -> LatencyHistograms.enough(f.send(), 99))) {
            // the second clock: from the send, without the wait in the client's own queue for a connection
            b.append(", p99 from the send ")
                    .append(LatencyHistograms.ms(median(figures.stream()
                            .mapToDouble(f -> f.send().getValueAtPercentile(99))
                            .toArray())));
        }
        long notKeptUp = figures.stream().filter(f -> !f.keptUp()).count();
        if (notKeptUp > 0) {
            b.append(String.format(
                    Locale.ROOT, ", %d of %d JVMs NOT KEEPING UP (requests left late)", notKeptUp, figures.size()));
        }
        List<RecordingFacts> busy =
                known.stream().filter(f -> f.runs.client().allConnectionsBusy()).toList();
        if (!busy.isEmpty()) {
            b.append(String.format(
                            Locale.ROOT,
                            ", %d of %d JVMs with every one of the client's %,d connections busy (requests waited in"
                                    + " the client for one",
                            busy.size(),
                            figures.size(),
                            busy.get(0).runs.client().connections()))
                    .append(heldBy(busy))
                    .append(')');
        }
        long least = figures.stream()
                .mapToLong(f -> f.judged().getTotalCount())
                .min()
                .getAsLong();
        long most = figures.stream()
                .mapToLong(f -> f.judged().getTotalCount())
                .max()
                .getAsLong();
        b.append(String.format(
                Locale.ROOT,
                " (median of %d JVM%s, each over its merged measured windows: n=%s%s)",
                known.size(),
                known.size() == 1 ? "" : "s",
                String.format(Locale.ROOT, "%,d", least),
                most == least ? "" : String.format(Locale.ROOT, "-%,d", most)));
        int without = jvms.size() - known.size();
        if (without > 0) {
            b.append("; ")
                    .append(without)
                    .append(" JVM")
                    .append(without == 1 ? "" : "s")
                    .append(" without figures left out (")
                    .append(whyNone(jvms))
                    .append(")");
        }
        return b.toString();
    }

    /**
     * The rate the load client offered the groups' measured windows at (the first window that says it); NaN when none
     * does (not an open-loop client's windows, or an older client's).
     */
    static double offeredRate(Collection<List<RecordingFacts>> groups) {
        return groups.stream()
                .flatMap(List::stream)
                .flatMap(f -> f.runs.measured().stream())
                .mapToDouble(r -> r.client().rate())
                .filter(v -> !Double.isNaN(v))
                .findFirst()
                .orElse(Double.NaN);
    }

    /**
     * Where the windows of one URL and rate ({@code w}, offered at {@code rate} a second) hold fewer requests than make
     * a p99 a figure ({@link LatencyHistograms#needed}), that its verdicts compare such windows' estimates, and the
     * window that would hold enough; null when every window does.
     */
    static String fewForP99(String w, Collection<List<RecordingFacts>> groups, double rate) {
        long[] counts = groups.stream()
                .flatMap(List::stream)
                .flatMap(f -> f.runs.measured().stream())
                .map(r -> LatencyHistograms.decode(r.client().latencyHistogram(), LatencyHistograms.HIGHEST_MICROS))
                .filter(Objects::nonNull)
                .mapToLong(Histogram::getTotalCount)
                .sorted()
                .toArray();
        long needed = LatencyHistograms.needed(99);
        if (counts.length == 0 || counts[0] >= needed) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "%s: its latency p99 verdicts compare windows of %,d%s requests, fewer than the %,d with which a"
                        + " window's p99 is a figure alone (%d above it): each window's is near its largest, and the"
                        + " interval holds their spread%s",
                w,
                counts[0],
                counts[counts.length - 1] == counts[0]
                        ? ""
                        : String.format(Locale.ROOT, "-%,d", counts[counts.length - 1]),
                needed,
                LatencyHistograms.ABOVE,
                rate > 0
                        ? String.format(
                                Locale.ROOT,
                                "; --window %.0fs offers %,d or more at %s/s",
                                Math.ceil(needed / rate),
                                needed,
                                plain(rate))
                        : "");
    }

    /**
     * Who held the connections of JVMs that had every one busy: the service, where a request's mean time from its send
     * (what holds a connection, by Little's law) was over twice its handler's p99 (the agent's work=) in the same
     * measured windows, so that requests waited in the service for a thread or a carrier and more connections would
     * only lengthen that wait; else perhaps the connections themselves.
     */
    private static String heldBy(List<RecordingFacts> busy) {
        double[] handler = busy.stream()
                .map(ClientLine::handlerP99)
                .filter(Objects::nonNull)
                .mapToDouble(ms -> 1e3 * ms)
                .toArray();
        // µs, as the histograms
        double send = median(
                busy.stream().mapToDouble(f -> f.runs.client().send().getMean()).toArray());
        if (handler.length == busy.size() && send > 2 * median(handler)) {
            return String.format(
                    Locale.ROOT,
                    ", held by the service: %s a request from its send (the mean) against %s in the handler at p99, so"
                            + " the requests waited in it for a thread or a carrier, and more connections would"
                            + " lengthen that wait",
                    LatencyHistograms.ms(send),
                    LatencyHistograms.ms(median(handler)));
        }
        return ": more --connections tells whether they or the service set the rate";
    }

    /**
     * A JVM's handler p99 (ms) over its measured windows, the median of theirs as its verdict takes them; null when
     * work= timed none there.
     */
    private static Double handlerP99(RecordingFacts f) {
        double[] windows = f.runs.measured().stream()
                .map(r -> Metric.SERVICE_TIME_P99.valueInRun(f, r))
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .toArray();
        return windows.length == 0 ? null : median(windows);
    }

    /**
     * Why JVMs' windows give no figures: the client lagged in every measured window, it stopped in its warm-up, or it
     * wrote no histograms.
     */
    private static String whyNone(List<RecordingFacts> jvms) {
        List<WorkloadRun> measured = jvms.stream()
                .flatMap(f -> f.runs.runs().stream())
                .filter(w -> !w.warmup())
                .toList();
        long lagged = measured.stream().filter(WorkloadRun::clientLagged).count();
        if (measured.isEmpty()) {
            return "no measured window: the load ended in its warm-up";
        }
        if (lagged > 0) {
            return String.format(
                    Locale.ROOT,
                    "the load client itself lagged in %d of %d measured windows (its sends late by over %.0f ms at"
                            + " p99), left out as its own, not the service's: the machine was too busy for this rate",
                    lagged,
                    measured.size(),
                    ClientRow.LAG_MS);
        }
        return "the windows hold no histograms: a load client older than this one";
    }

    private static double median(double[] v) {
        return v.length == 0 ? Double.NaN : Quantiles.of(v, 0.5);
    }

    private static String plain(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
