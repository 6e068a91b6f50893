package dev.loomscope.analyzer.load;

import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.errors.UsageException;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.options.Durations;
import org.HdrHistogram.Histogram;

/**
 * A latency objective, {@code p99=50ms}: a percentile of the client's latency (p50, p99 or p99.9) and its bound; errors
 * under {@link #ERRORS}.
 */
public record Slo(String percentile, double millis) {
    /** The share of failed requests an objective allows. */
    public static final double ERRORS = 0.01;

    public static Slo parse(String s) {
        int eq = s.indexOf('=');
        String p = eq < 0 ? "" : s.substring(0, eq).strip();
        String bound = eq < 0 ? "" : s.substring(eq + 1).strip();
        if (!p.equals("p50") && !p.equals("p99") && !p.equals("p99.9")) {
            throw new UsageException(
                    "--slo " + s + ": give a percentile and its bound, p50, p99 or p99.9 (e.g. --slo p99=50ms)");
        }
        if (!Durations.valid(bound) || Durations.parse(bound).isZero()) {
            throw new UsageException("--slo " + s + ": '" + bound + "' is not a latency above 0 (e.g. 50ms)");
        }
        return new Slo(p, Durations.parse(bound).toNanos() / 1e6);
    }

    /** The percentile as a number: 50, 99, 99.9. */
    public double quantile() {
        return Double.parseDouble(percentile.substring(1));
    }

    /** The run's figure for this percentile, ms (NaN when not measured). */
    public double of(WorkloadRun r) {
        return switch (percentile) {
            case "p50" -> r.p50LatencyMs();
            case "p99" -> r.p99LatencyMs();
            default -> r.client().p999LatencyMs();
        };
    }

    /** This percentile of a merged latency histogram (values in microseconds), ms; infinity when it holds nothing. */
    public double of(Histogram judged) {
        return judged.getTotalCount() == 0 ? Double.POSITIVE_INFINITY : judged.getValueAtPercentile(quantile()) / 1e3;
    }

    /**
     * Whether a JVM's measured requests at one rate kept the objective: the percentile of their merged latencies (the
     * late ones' ages included) within the bound, under {@link #ERRORS} of the offered failed, and the service kept up
     * (a service that left requests late did not serve the rate, whatever its answers' latency).
     */
    public boolean keptBy(Histogram judged, long offered, long errors, boolean keptUp) {
        return keptUp && offered > 0 && errors < ERRORS * offered && of(judged) <= millis;
    }

    @Override
    public String toString() {
        return percentile + " <= " + Comparer.plain(millis) + " ms";
    }
}
