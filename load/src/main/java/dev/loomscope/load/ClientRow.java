package dev.loomscope.load;

import java.io.Serializable;

/**
 * What a load client measured beside a window's units and latencies (a service's run): the latency's p99.9 (NaN when
 * not measured), the requests offered at the fixed rate (-1: not open loop), those that failed (-1: not counted), and
 * who measured over which window (null: the workload itself); those late at its end (-1: not counted), the histograms
 * of the answered requests' latencies from their intended start and from their send and of the late ones' ages
 * (compressed, Base64; null: none), the client's own lateness at p99 (NaN: not measured); what it sent (null: not
 * said), at which rate (NaN: not said) over how many connections (-1: not said).
 */
public record ClientRow(
        double p999LatencyMs,
        long offered,
        long errors,
        String measuredBy,
        long late,
        String latencyHistogram,
        String sendHistogram,
        String lateHistogram,
        double lagP99Ms,
        String target,
        double rate,
        int connections)
        implements Serializable {
    /** A run no load client measured. */
    public static final ClientRow NONE = new ClientRow(Double.NaN, -1, -1, null);

    /**
     * A sends lagging this far (p99, ms) for the client's own reasons makes a window the client's, not the service's.
     */
    public static final double LAG_MS = 5;

    public ClientRow(double p999LatencyMs, long offered, long errors, String measuredBy) {
        this(p999LatencyMs, offered, errors, measuredBy, -1, null, null, null, Double.NaN, null, Double.NaN, -1);
    }

    /**
     * Whether the client's own lateness ({@code lagP99Ms}) was over {@link #LAG_MS} and over a tenth of the window's
     * latency p99.
     */
    public static boolean lagged(double lagP99Ms, double p99LatencyMs) {
        return lagP99Ms > LAG_MS && !(lagP99Ms <= 0.1 * p99LatencyMs);
    }
}
