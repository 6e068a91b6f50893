package dev.loomscope.load;

import dev.loomscope.load.stats.Quantiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The measured windows added up: their histograms merged, their counts summed, the late of the first's start and the
 * last's end.
 */
final class Tally {
    final Histogram answered = new Histogram(3);
    final Histogram send = new Histogram(3);
    final Histogram lag = new Histogram(3);
    Histogram lateAges = new Histogram(3);
    final Map<String, Long> causes = new TreeMap<>();
    int windows;
    int lagged;
    long lateBefore = -1;
    long offered;
    long ok;
    long errors;
    long late;
    long nanos;
    long cpuNanos;
    double firstRate = Double.NaN;
    double lastRate = Double.NaN;
    /** Other processes' share of the machine's CPU in each window (NaN: no service to watch). */
    final List<Double> others = new ArrayList<>();

    void add(OpenLoop.Window w, boolean clientLagged) {
        lastRate = w.ok() / (w.nanos() / 1e9);
        firstRate = windows == 0 ? lastRate : firstRate;
        lagged += clientLagged ? 1 : 0;
        answered.add(w.latencyMicros());
        send.add(w.sendMicros());
        lag.add(w.lagMicros());
        lateAges = w.lateMicros();
        w.causes().forEach((k, v) -> causes.merge(k, v, Long::sum));
        windows++;
        lateBefore = lateBefore < 0 ? w.lateAtStart() : lateBefore;
        offered += w.offered();
        ok += w.ok();
        errors += w.errors();
        late = w.late();
        nanos += w.nanos();
        cpuNanos = cpuNanos < 0 || w.cpuNanos() < 0 ? -1 : cpuNanos + w.cpuNanos();
    }

    /** The summary of a URL and rate: these windows, what happened after the stop, and the warm-up before them. */
    LoadRun.Summary summary(
            String workload, double rate, OpenLoop.Window afterStop, LoadRun.WarmUp warm, int connections) {
        Histogram judged = answered.copy();
        judged.add(lateAges);
        return new LoadRun.Summary(
                workload,
                rate,
                windows,
                nanos / 1e9,
                Math.max(0, lateBefore),
                offered,
                ok,
                errors,
                late,
                judged,
                send,
                lag,
                causes,
                afterStop,
                warm.nanos() / 1e9,
                warm.moving(),
                lagged,
                cpuNanos,
                connections,
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
