package dev.loomscope.analyzer.load;

import dev.loomscope.analyzer.reduce.RunsReducer;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.stats.LatencyHistograms;
import dev.loomscope.analyzer.stats.Quantiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * What the load client saw of one JVM over its measured windows, from the windows' whole
 * histograms merged (not a median of the windows' percentiles): the answered requests' latencies
 * from their intended start and the late ones' ages at the last window's end (at least), each
 * request once; what was offered, answered and failed. A JVM whose windows hold no histogram (an
 * older client's) has none.
 */
public record ClientFigures(double seconds, long offered, long answered, long errors, Histogram judged, Histogram send) {
    private static final long HIGHEST = OpenLoop.MAX_MICROS;

    /** The figures of {@code measured} windows (one JVM's, one URL and rate); null when they hold no histogram. */
    public static ClientFigures of(List<WorkloadRun> measured) {
        if (measured.isEmpty() || measured.stream().anyMatch(r -> r.client().latencyHistogram() == null)) {
            return null;
        }
        Histogram judged = new Histogram(HIGHEST, 3);
        Histogram send = new Histogram(HIGHEST, 3);
        double seconds = 0;
        long offered = 0;
        long answered = 0;
        long errors = 0;
        WorkloadRun last = measured.get(0);
        for (WorkloadRun r : measured) {
            Histogram h = LatencyHistograms.decode(r.client().latencyHistogram(), HIGHEST);
            if (h == null) {
                return null;
            }
            judged.add(h);
            Histogram sent = LatencyHistograms.decode(r.client().sendHistogram(), HIGHEST);
            if (sent != null) {
                send.add(sent);
            }
            seconds += r.millis() / 1e3;
            offered += Math.max(0, r.client().offered());
            answered += r.units();
            errors += Math.max(0, r.client().errors());
            last = r.startNanos() > last.startNanos() ? r : last;
        }
        Histogram late = LatencyHistograms.decode(last.client().lateHistogram(), HIGHEST);
        if (late != null) {
            judged.add(late);
        }
        return new ClientFigures(seconds, offered, answered, errors, judged, send);
    }

    public double throughput() {
        return answered / seconds;
    }

    /** Whether the requests that ended were the offered ones less {@link Steadiness#SLACK}: the late did not grow. */
    public boolean keptUp() {
        return Steadiness.keptUp(offered, offered - answered - errors);
    }

    /**
     * {@code platform 300/s answered of 300/s, p50 10.2 ms, p99 17.0 ms (median of 4 JVMs, each over its
     * merged measured windows: n=3,000-3,012)} from each JVM's windows ({@code runs}, warm-ups too); a
     * percentile a JVM has too few requests for is said so; the JVMs without figures are left out of
     * it, and said why.
     */
    public static String line(String kind, List<List<WorkloadRun>> runs) {
        List<ClientFigures> known = runs.stream().map(r -> of(r.stream().filter(w -> !w.warmup() && !w.clientLagged()).toList()))
                .filter(java.util.Objects::nonNull).toList();
        if (known.isEmpty()) {
            return kind + " no figures (" + whyNone(runs) + ")";
        }
        double offered = median(known.stream().mapToDouble(f -> f.offered() / f.seconds()).toArray());
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%s %s/s answered of %s/s", kind, plain(median(known.stream()
                .mapToDouble(ClientFigures::throughput).toArray())), plain(offered)));
        for (double q : new double[] {50, 99}) {
            List<Double> values = new ArrayList<>();
            known.stream().filter(f -> LatencyHistograms.enough(f.judged(), q)).forEach(f -> values.add((double) f.judged().getValueAtPercentile(q)));
            String name = q == 50 ? "p50" : "p99";
            b.append(", ").append(values.size() == known.size() ? name + " " + LatencyHistograms.ms(median(values.stream().mapToDouble(d -> d).toArray()))
                    : name + " n/a (" + LatencyHistograms.needed(q) + " requests a JVM needed)");
        }
        if (known.stream().allMatch(f -> LatencyHistograms.enough(f.send(), 99))) {
            // the second clock: from the send, without the wait in the client's own queue for a connection
            b.append(", p99 from the send ").append(LatencyHistograms.ms(median(known.stream().mapToDouble(f -> f.send().getValueAtPercentile(99))
                    .toArray())));
        }
        long notKeptUp = known.stream().filter(f -> !f.keptUp()).count();
        if (notKeptUp > 0) {
            b.append(String.format(Locale.ROOT, ", %d of %d JVMs NOT KEEPING UP (requests left late)", notKeptUp, known.size()));
        }
        long least = known.stream().mapToLong(f -> f.judged().getTotalCount()).min().getAsLong();
        long most = known.stream().mapToLong(f -> f.judged().getTotalCount()).max().getAsLong();
        b.append(String.format(Locale.ROOT, " (median of %d JVM%s, each over its merged measured windows: n=%s%s)", known.size(), known.size() == 1 ? ""
                : "s", String.format(Locale.ROOT, "%,d", least), most == least ? "" : String.format(Locale.ROOT, "-%,d", most)));
        if (known.size() < runs.size()) {
            b.append("; ").append(runs.size() - known.size()).append(" JVM").append(runs.size() - known.size() == 1 ? "" : "s").append(" without figures"
                    + " left out (").append(whyNone(runs)).append(")");
        }
        return b.toString();
    }

    /** Why JVMs' windows give no figures: the client lagged in every measured window, it stopped in its warm-up, or it wrote no histograms. */
    private static String whyNone(List<List<WorkloadRun>> runs) {
        long measured = runs.stream().flatMap(List::stream).filter(w -> !w.warmup()).count();
        long lagged = runs.stream().flatMap(List::stream).filter(w -> !w.warmup() && w.clientLagged()).count();
        if (measured == 0) {
            return "no measured window: the load ended in its warm-up";
        }
        if (lagged > 0) {
            return String.format(Locale.ROOT, "the load client itself lagged in %d of %d measured windows (its sends late by over %.0f ms at p99), left"
                    + " out as its own, not the service's: the machine was too busy for this rate", lagged, measured, RunsReducer.Client.LAG_MS);
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
