package dev.loomscope.load;

import dev.loomscope.load.stats.LatencyHistograms;
import dev.loomscope.options.Durations;
import dev.loomscope.options.Numbers;
import dev.loomscope.options.UsageException;
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

    /** The window's figure for this percentile, ms (NaN when not measured). */
    public double of(WindowRow r) {
        return switch (percentile) {
            case "p50" -> r.p50LatencyMs();
            case "p99" -> r.p99LatencyMs();
            default -> r.client().p999LatencyMs();
        };
    }

    /**
     * This percentile of a merged latency histogram (values in microseconds), ms, when it holds enough requests for it
     * ({@link LatencyHistograms#enough}); with fewer, their maximum, which bounds the percentile from above (a p99.9 of
     * 1,000 requests would be their second highest); infinity when it holds nothing.
     */
    public double of(Histogram judged) {
        if (judged.getTotalCount() == 0) {
            return Double.POSITIVE_INFINITY;
        }
        return (LatencyHistograms.enough(judged, quantile())
                        ? judged.getValueAtPercentile(quantile())
                        : judged.getMaxValue())
                / 1e3;
    }

    /**
     * Whether a JVM's measured requests at one rate kept the objective: the percentile of their merged latencies (the
     * late ones' ages included; with too few requests for it, every one: {@link #of(Histogram)}) within the bound,
     * under {@link #ERRORS} of the offered failed, and the service kept up (a service that left requests late did not
     * serve the rate, whatever its answers' latency).
     */
    public boolean keptBy(Histogram judged, long offered, long errors, boolean keptUp) {
        return keptUp && offered > 0 && errors < ERRORS * offered && of(judged) <= millis;
    }

    @Override
    public String toString() {
        return percentile + " <= " + Numbers.plain(millis) + " ms";
    }
}
