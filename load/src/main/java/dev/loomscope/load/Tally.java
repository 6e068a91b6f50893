package dev.loomscope.load;

import dev.loomscope.load.stats.Quantiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The measured windows added up as they come: their figures merged ({@link ClientFigures.Merge}, as every reader of the
 * rows merges them), the late of the first's start and the last's end, the client's own lateness and its CPU.
 */
final class Tally {
    final ClientFigures.Merge merge = new ClientFigures.Merge();
    final Histogram lag = new Histogram(3);
    final Map<String, Long> causes = new TreeMap<>();
    int lagged;
    long lateBefore = -1;
    long late;
    long cpuNanos;
    double firstRate = Double.NaN;
    double lastRate = Double.NaN;
    /** Other processes' share of the machine's CPU in each window (NaN: no service to watch). */
    final List<Double> others = new ArrayList<>();

    void add(OpenLoop.Window w, boolean clientLagged) {
        lastRate = w.ok() / (w.nanos() / 1e9);
        firstRate = merge.windows() == 0 ? lastRate : firstRate;
        lagged += clientLagged ? 1 : 0;
        merge.add(
                w.startEpochNanos(),
                w.nanos() / 1e9,
                w.offered(),
                w.ok(),
                w.errors(),
                w.latencyMicros(),
                w.sendMicros(),
                w.lateMicros());
        lag.add(w.lagMicros());
        w.causes().forEach((k, v) -> causes.merge(k, v, Long::sum));
        lateBefore = lateBefore < 0 ? w.lateAtStart() : lateBefore;
        late = w.late();
        cpuNanos = cpuNanos < 0 || w.cpuNanos() < 0 ? -1 : cpuNanos + w.cpuNanos();
    }

    /** The summary of a URL and rate: these windows, what happened after the stop, and the warm-up before them. */
    LoadRun.Summary summary(
            String workload, double rate, OpenLoop.Window afterStop, LoadRun.WarmUp warm, int connections) {
        return new LoadRun.Summary(
                workload,
                rate,
                merge.windows(),
                merge.figures(connections),
                Math.max(0, lateBefore),
                late,
                lag,
                causes,
                afterStop,
                warm.nanos() / 1e9,
                warm.moving(),
                lagged,
                cpuNanos,
                lastRate / firstRate,
                busyElsewhere());
    }

    /** Other processes' share of the CPU in the median window that tells it; NaN when none does. */
    double busyElsewhere() {
        double[] v = others.stream()
                .mapToDouble(Double::doubleValue)
                .filter(x -> !Double.isNaN(x))
                .toArray();
        return v.length == 0 ? Double.NaN : Quantiles.of(v, 0.5);
    }
}
