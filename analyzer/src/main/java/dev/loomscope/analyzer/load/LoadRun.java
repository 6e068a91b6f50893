package dev.loomscope.analyzer.load;

import dev.loomscope.events.RunResults;
import dev.loomscope.events.WorkloadRunEvent;
import dev.loomscope.probes.MachineCpu;
import dev.loomscope.probes.ProcContextSwitches;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The load client's run of a {@link LoadSpec}: for each target and rate, warm-up windows of a
 * second until the service is steady (or the longest warm-up passed: said), then the measured
 * windows; each window a row of the results file (the columns of {@link RunResults}, what
 * {@code study} judges) and a line on {@code out}; each target and rate's measured windows
 * together a {@link Summary}.
 */
public final class LoadRun {
    private static final long SECOND = 1_000_000_000L;

    /** The measured windows of one target at one rate together; {@code unsteady}: what still moved when the warm-up ended (null: steady). */
    public record Summary(String workload, double rate, int windows, double seconds, long offered, long ok, long errors, Histogram latencyMicros,
            double warmupSeconds, String unsteady) {

        public String line() {
            return String.format(Locale.ROOT, "%s: %d windows, %.1f s: %d of %d offered answered (%.1f/s), %d errors (%.2f%%), latency p50 %s, p99 %s,"
                    + " p99.9 %s, max %s (each from the request's intended start); warm-up %.0f s%s", workload, windows, seconds, ok, offered, ok / seconds,
                    errors, offered == 0 ? 0 : 100.0 * errors / offered, ms(latencyMicros, 50), ms(latencyMicros, 99), ms(latencyMicros, 99.9),
                    latencyMicros.getTotalCount() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f ms", latencyMicros.getMaxValue() / 1e3),
                    warmupSeconds, unsteady == null ? " (steady)" : ", not steady when it ended: " + unsteady);
        }
    }

    private final LoadSpec spec;
    private final PrintWriter out;
    private final Writer results;
    private volatile OpenLoop current;
    private volatile boolean stopped;

    /** {@code results}: where the rows go (null: none); {@code out}: the progress lines. */
    public LoadRun(LoadSpec spec, PrintWriter out, Writer results) {
        this.spec = spec;
        this.out = out;
        this.results = results;
    }

    /** Stops the run (a signal): the window in progress is dropped, the rows written so far stay. */
    public void stop() {
        stopped = true;
        OpenLoop l = current;
        if (l != null) {
            l.stop();
        }
    }

    public List<Summary> run() throws IOException {
        if (results != null) {
            results.write(RunResults.header() + "\n");
            results.flush();
        }
        List<Summary> summaries = new ArrayList<>();
        for (Target t : spec.targets()) {
            for (double rate : spec.rates()) {
                if (stopped) {
                    return summaries;
                }
                summaries.add(one(t, rate));
            }
        }
        return summaries;
    }

    private Summary one(Target t, double rate) throws IOException {
        String workload = LoadSpec.workload(t, rate);
        String params = "url=" + t.uri() + " rate=" + LoadSpec.rate(rate) + " connections=" + spec.connections() + " timeout="
                + spec.timeout().toMillis() + "ms";
        String measuredBy = "loomscope load: open loop at " + LoadSpec.rate(rate) + ", latency from each request's intended start, windows of "
                + seconds(spec.window().toNanos()) + " s after a warm-up until steady";
        try (OpenLoop load = new OpenLoop(t, rate, spec.connections(), (int) Math.min(Integer.MAX_VALUE, spec.timeout().toMillis()))) {
            current = load;
            List<double[]> warm = new ArrayList<>();
            String moving = null;
            long warmupNanos = 0;
            int warmIndex = 0;
            while (!stopped) {
                Probe before = Probe.take(spec.appPid());
                OpenLoop.Window w = load.window(SECOND);
                row(workload, params, measuredBy, warmIndex++, true, w, before, Probe.take(spec.appPid()));
                warm.add(new double[] {w.ok(), w.latencyMicros().getTotalCount() == 0 ? 0 : w.latencyMicros().getValueAtPercentile(50)});
                warmupNanos += w.nanos();
                if (warmupNanos < spec.warmupMin().toNanos()) {
                    continue;
                }
                moving = Steadiness.moving(warm);
                if (moving == null || warmupNanos >= spec.warmupMax().toNanos()) {
                    break;
                }
            }
            out.println(workload + ", " + spec.threadKind() + ": warm-up " + seconds(warmupNanos) + " s, "
                    + (moving == null ? "steady" : "not steady after the longest warm-up (" + moving + "): measured as it is"));
            Histogram all = new Histogram(3);
            int windows = 0;
            long offered = 0;
            long ok = 0;
            long errors = 0;
            long nanos = 0;
            for (int i = 0; i < spec.windows() && !stopped; i++) {
                Probe before = Probe.take(spec.appPid());
                OpenLoop.Window w = load.window(spec.window().toNanos());
                if (stopped) {
                    break;
                }
                row(workload, params, measuredBy, i, false, w, before, Probe.take(spec.appPid()));
                all.add(w.latencyMicros());
                windows++;
                offered += w.offered();
                ok += w.ok();
                errors += w.errors();
                nanos += w.nanos();
                out.println(String.format(Locale.ROOT, "%s, %s: window %d: %d of %d answered, %d errors%s, latency p50 %s, p99 %s", workload,
                        spec.threadKind(), i + 1, w.ok(), w.offered(), w.errors(), w.timeouts() > 0 ? " (" + w.timeouts() + " timed out)" : "",
                        ms(w.latencyMicros(), 50), ms(w.latencyMicros(), 99)));
                out.flush();
            }
            current = null;
            Summary s = new Summary(workload, rate, windows, nanos / 1e9, offered, ok, errors, all, warmupNanos / 1e9, moving);
            out.println(s.line());
            out.flush();
            return s;
        }
    }

    private void row(String workload, String params, String measuredBy, int index, boolean warmup, OpenLoop.Window w, Probe before, Probe after)
            throws IOException {
        if (results == null) {
            return;
        }
        WorkloadRunEvent e = new WorkloadRunEvent();
        e.workload = workload;
        e.threadKind = spec.threadKind();
        e.runIndex = index;
        e.warmup = warmup;
        e.units = w.ok();
        e.unit = "requests";
        e.params = params;
        e.measuredBy = measuredBy;
        e.offeredUnits = w.offered();
        e.errors = w.errors();
        Histogram h = w.latencyMicros();
        if (h.getTotalCount() > 0) {
            e.p50LatencyMs = h.getValueAtPercentile(50) / 1e3;
            e.p99LatencyMs = h.getValueAtPercentile(99) / 1e3;
            e.p999LatencyMs = h.getValueAtPercentile(99.9) / 1e3;
        }
        if (before.switches() != null && after.switches() != null) {
            e.voluntaryContextSwitches = after.switches()[0] - before.switches()[0];
            e.involuntaryContextSwitches = after.switches()[1] - before.switches()[1];
        }
        MachineCpu.Shares shares = MachineCpu.between(before.cpu(), after.cpu());
        e.processCpu = shares.process();
        e.otherCpu = shares.others();
        e.stealCpu = shares.steal();
        results.write(RunResults.row(e, w.startEpochNanos(), w.nanos()) + "\n");
        results.flush();
    }

    /** The service's CPU ticks (this client's as its helper's) and context switches at one moment; nulls without a service to watch. */
    private record Probe(MachineCpu.Ticks cpu, long[] switches) {
        static Probe take(long pid) {
            return pid <= 0 ? new Probe(null, null) : new Probe(MachineCpu.readFor(pid), ProcContextSwitches.of(pid));
        }
    }

    static String ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f ms", h.getValueAtPercentile(percentile) / 1e3);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.0f", nanos / 1e9);
    }
}
