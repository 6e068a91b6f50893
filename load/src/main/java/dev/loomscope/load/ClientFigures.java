package dev.loomscope.load;

import dev.loomscope.load.stats.LatencyHistograms;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What the load client saw of one JVM over its measured windows, from the windows' whole histograms merged (not a
 * median of the windows' percentiles): the answered requests' latencies from their intended start and the late ones'
 * ages at the last window's end (at least), each request once; what was offered, answered and failed; the client's
 * connections (0: not said). A JVM whose windows hold no histogram (an older client's) has none.
 */
public record ClientFigures(
        double seconds, long offered, long answered, long errors, Histogram judged, Histogram send, int connections) {
    /** The share of the offered requests whose lateness may grow over the windows of a service that still kept up. */
    public static final double SLACK = 0.03;

    /**
     * The share of a client's connections holding a request on average from which it had every one busy (the rest: the
     * gaps between an answer and the next send).
     */
    public static final double ALL_BUSY = 0.9;

    /**
     * The figures of {@code measured} windows (one JVM's, one URL and rate) read back ({@link Merge}); null when they
     * hold no histogram.
     */
    public static ClientFigures of(List<? extends WindowRow> measured) {
        if (measured.isEmpty() || measured.stream().anyMatch(r -> r.client().latencyHistogram() == null)) {
            return null;
        }
        Merge merge = new Merge();
        WindowRow last = measured.get(0); // the latest window says the client's connections
        for (WindowRow r : measured) {
            last = r.startNanos() > last.startNanos() ? r : last;
            Histogram h = LatencyHistograms.decode(r.client().latencyHistogram(), LatencyHistograms.HIGHEST_MICROS);
            if (h == null) {
                return null;
            }
            merge.add(
                    r.startNanos(),
                    r.millis() / 1e3,
                    r.client().offered(),
                    r.units(),
                    r.client().errors(),
                    h,
                    LatencyHistograms.decode(r.client().sendHistogram(), LatencyHistograms.HIGHEST_MICROS),
                    LatencyHistograms.decode(r.client().lateHistogram(), LatencyHistograms.HIGHEST_MICROS));
        }
        return merge.figures(Math.max(0, last.client().connections()));
    }

    /**
     * The one merge of a JVM's windows at one URL and rate, as the load client adds them live ({@code LoadRun}) and as
     * {@link #of} adds them read back: their answered requests' histograms merged whole (not a median of the windows'
     * percentiles), their counts summed, and the late ones' ages at the last window's end, so that each request counts
     * once.
     */
    public static final class Merge {
        private final Histogram answered = new Histogram(LatencyHistograms.HIGHEST_MICROS, 3);
        private final Histogram send = new Histogram(LatencyHistograms.HIGHEST_MICROS, 3);
        private Histogram lateAges;
        private long lastStart;
        private int windows;
        private double seconds;
        private long offered;
        private long ok;
        private long errors;

        /**
         * Adds a window that began at {@code startNanos} (epoch) and lasted {@code seconds}: the requests offered,
         * answered and failed in it (negative: not counted), its answered requests' latencies from their intended start
         * ({@code latency}) and from their send ({@code send}, null: none), and its late ones' ages at its end
         * ({@code late}, null: none), which count only for the latest window.
         */
        public void add(
                long startNanos,
                double seconds,
                long offered,
                long answered,
                long errors,
                Histogram latency,
                Histogram send,
                Histogram late) {
            this.answered.add(latency);
            if (send != null) {
                this.send.add(send);
            }
            if (windows == 0 || startNanos > lastStart) {
                lateAges = late;
                lastStart = startNanos;
            }
            windows++;
            this.seconds += seconds;
            this.offered += Math.max(0, offered);
            this.ok += answered;
            this.errors += Math.max(0, errors);
        }

        /** The windows added. */
        public int windows() {
            return windows;
        }

        /** The figures of the windows added, the client having had {@code connections} (0: not said). */
        public ClientFigures figures(int connections) {
            Histogram judged = answered.copy();
            if (lateAges != null) {
                judged.add(lateAges);
            }
            return new ClientFigures(seconds, offered, ok, errors, judged, send.copy(), connections);
        }
    }

    /**
     * Whether every one of the client's connections was busy over the windows ({@link #allBusy}); false when their
     * number is not known.
     */
    public boolean allConnectionsBusy() {
        return allBusy(busyConnections(), connections);
    }

    /**
     * The client's connections holding a request on average over the windows ({@link #busyConnections(Histogram,
     * double)}).
     */
    public double busyConnections() {
        return busyConnections(send, seconds);
    }

    public double throughput() {
        return answered / seconds;
    }

    /**
     * Whether more requests ended than were offered, beyond {@link #SLACK}: a backlog from before the windows draining
     * in them, so their throughput and latency are of the drain, not the service.
     */
    public boolean drained() {
        return answered + errors > offered + Math.max(2, SLACK * offered);
    }

    /** Whether the requests that ended were the offered ones less {@link #SLACK}: the late did not grow. */
    public boolean keptUp() {
        return keptUp(offered, offered - answered - errors);
    }

    /**
     * Whether a service kept up with {@code offered} requests: those left late grew by at most {@link #SLACK} of them
     * (or 2).
     */
    public static boolean keptUp(long offered, long lateGrowth) {
        return lateGrowth <= Math.max(2, SLACK * offered);
    }

    /**
     * The connections holding a request on average over {@code seconds} (Little's law): the answered requests' times
     * from their send ({@code send}, microseconds), summed, over the time.
     */
    public static double busyConnections(Histogram send, double seconds) {
        return send.getTotalCount() == 0 || !(seconds > 0) ? 0 : send.getMean() * send.getTotalCount() / 1e6 / seconds;
    }

    /**
     * Whether {@code busy} of {@code connections} is every one: at least {@link #ALL_BUSY} of them, so due requests
     * waited in the client.
     */
    public static boolean allBusy(double busy, int connections) {
        return connections > 0 && busy >= ALL_BUSY * connections;
    }

    /**
     * The latency at {@code percentile} (0-100) of the judged requests, ms; null when too few requests for it
     * ({@link LatencyHistograms#enough}).
     */
    public Double latencyMs(double percentile) {
        return LatencyHistograms.enough(judged, percentile) ? judged.getValueAtPercentile(percentile) / 1e3 : null;
    }

    /**
     * A window's stalls per 1000 requests: its answered requests' latencies and its late ones' ages; null without its
     * client's histograms.
     */
    public static Double stallsPerThousand(WindowRow r) {
        if (r.client() == null || r.client().latencyHistogram() == null) {
            return null;
        }
        Histogram h = LatencyHistograms.decode(r.client().latencyHistogram(), LatencyHistograms.HIGHEST_MICROS);
        Histogram late = LatencyHistograms.decode(r.client().lateHistogram(), LatencyHistograms.HIGHEST_MICROS);
        if (h != null && late != null) {
            h.add(late);
        }
        return LatencyHistograms.stallsPerThousand(h);
    }
}
