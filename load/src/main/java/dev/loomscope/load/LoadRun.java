package dev.loomscope.load;

import dev.loomscope.events.RunResults;
import dev.loomscope.events.WorkloadRunEvent;
import dev.loomscope.load.stats.LatencyHistograms;
import dev.loomscope.options.BadDataException;
import dev.loomscope.probes.MachineCpu;
import dev.loomscope.probes.ProcContextSwitches;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The load client's run of a {@link LoadSpec}: for each target and rate, a first request that must get an HTTP answer
 * (else the cause, at once), warm-up windows of a second until the service is steady (or the longest warm-up passed, or
 * a capacity search's step fell further behind every second: said), then the measured windows; each window a row of the
 * results file (the columns of {@link RunResults}, what {@code study} judges) and a line on {@code out}; each target
 * and rate's measured windows together a {@link Summary}.
 */
public final class LoadRun {
    private static final long SECOND = 1_000_000_000L;

    /**
     * The measured windows of one target at one rate together: every request offered in them (and those late before
     * them) is answered, an error, or late at their end; {@code client}: the windows merged as every reader of them
     * merges them ({@link ClientFigures.Merge}); {@code lag}: the client's own lateness; {@code afterStop}: what became
     * of the late when the load stopped; {@code unsteady}: what still moved when the warm-up ended (null: steady);
     * {@code lagged}: windows left to the client's lateness; {@code quickening}: the requests answered a second in the
     * last measured window over those in the first; {@code busyElsewhere}: other processes' share of the machine's CPU
     * in the median measured window (NaN: no {@code --app-pid}).
     */
    public record Summary(
            String workload,
            double rate,
            int windows,
            ClientFigures client,
            long lateBefore,
            long late,
            Histogram lag,
            Map<String, Long> causes,
            OpenLoop.Window afterStop,
            double warmupSeconds,
            String unsteady,
            int lagged,
            long cpuNanos,
            double quickening,
            double busyElsewhere) {

        public String line() {
            StringBuilder b = new StringBuilder(String.format(
                    Locale.ROOT,
                    "%s: %d window%s, %.1f s: %,d offered%s: %,d answered (%.1f/s), %,d error%s%s, %,d late at the end",
                    workload,
                    windows,
                    windows == 1 ? "" : "s",
                    client.seconds(),
                    client.offered(),
                    andLateBefore(lateBefore),
                    client.answered(),
                    client.answered() / client.seconds(),
                    client.errors(),
                    client.errors() == 1 ? "" : "s",
                    causes.isEmpty() ? "" : " " + causes,
                    late));
            if (!client.keptUp()) {
                b.append(String.format(
                        Locale.ROOT,
                        "; NOT KEEPING UP: %.0f%% of the offered rate answered, %,d more late than before",
                        100.0 * client.answered() / Math.max(1, client.offered()),
                        late - lateBefore));
            }
            b.append("; latency from each request's intended start")
                    .append(late > 0 ? " (the late at their age then: at least)" : "")
                    .append(": ")
                    .append(LatencyHistograms.describe(client.judged(), 50))
                    .append(", ")
                    .append(LatencyHistograms.describe(client.judged(), 99))
                    .append(", ")
                    .append(LatencyHistograms.describe(client.judged(), 99.9))
                    .append(", max ")
                    .append(
                            client.judged().getTotalCount() == 0
                                    ? "n/a"
                                    : LatencyHistograms.ms(client.judged().getMaxValue()))
                    .append(String.format(
                            Locale.ROOT, " (n=%,d)", client.judged().getTotalCount()));
            if (client.send().getTotalCount() > 0) {
                b.append("; from its send (the service and network, without the client's queue): ")
                        .append(LatencyHistograms.describe(client.send(), 50))
                        .append(", ")
                        .append(LatencyHistograms.describe(client.send(), 99));
            }
            if (client.allConnectionsBusy()) {
                // requests sent before the first window count whole: the average can pass the connections by a little
                b.append(String.format(
                        Locale.ROOT,
                        "; every connection busy (%.1f of %,d on average): due requests waited in the client for one,"
                                + " and at %s a request from its send (the mean) %,d connections carry at most %,.0f/s",
                        Math.min(client.busyConnections(), client.connections()),
                        client.connections(),
                        LatencyHistograms.ms(client.send().getMean()),
                        client.connections(),
                        client.connections() / (client.send().getMean() / 1e6)));
            }
            if (lag.getTotalCount() > 0) {
                // the client's own lateness: how late its sends left against when they could have, for reasons of its
                // own
                b.append("; the client's own lateness p99 ").append(LatencyHistograms.ms(lag.getValueAtPercentile(99)));
            }
            if (cpuNanos > 0) {
                // the client's own cost: what its process used, all threads (a core is 1.00), and the requests each
                // CPU-second of it sent
                b.append(String.format(
                        Locale.ROOT,
                        "; the client's CPU %.2f cores (%,.0f requests a CPU-second)",
                        cpuNanos / 1e9 / client.seconds(),
                        (client.answered() + client.errors()) / (cpuNanos / 1e9)));
            }
            if (afterStop.lateAtStart() + afterStop.offered() > 0) {
                b.append(String.format(
                        Locale.ROOT,
                        "; after the last window: %,d answered, %,d errors, %,d never sent (the load ended first)%s",
                        afterStop.ok(),
                        afterStop.errors(),
                        afterStop.unsent(),
                        afterStop.late() > afterStop.unsent()
                                ? String.format(
                                        Locale.ROOT,
                                        ", %,d sent and never answered",
                                        afterStop.late() - afterStop.unsent())
                                : ""));
            }
            b.append(String.format(
                    Locale.ROOT,
                    "; warm-up %.0f s%s",
                    warmupSeconds,
                    unsteady == null ? " (steady)" : ", not steady when it ended: " + unsteady));
            if (busyElsewhere > MachineCpu.DISTURBED) {
                b.append(String.format(
                        Locale.ROOT,
                        "; A BUSY MACHINE: other processes took %.0f%% of its CPU in the median window (over %.0f%%,"
                                + " where a study runs a JVM again): the service's figures are partly the machine's",
                        100 * busyElsewhere,
                        100 * MachineCpu.DISTURBED));
            }
            if (lagged > 0) {
                b.append("; ")
                        .append(lagged)
                        .append(" window(s) left out: the client itself lagged (its sends left over ")
                        .append(ClientRow.LAG_MS)
                        .append(" ms late at p99)");
            }
            return b.toString();
        }
    }

    private final LoadSpec spec;
    private final PrintWriter out;
    private final Writer results;
    private final HistogramLog histograms;
    private volatile OpenLoop current;
    private volatile boolean stopped;
    private final CountDownLatch ended = new CountDownLatch(1);

    /** " and N late before" when requests were late as a span began, else nothing. */
    private static String andLateBefore(long late) {
        return late > 0 ? String.format(Locale.ROOT, " and %,d late before", late) : "";
    }

    /** {@code results}: where the rows go (null: none); {@code out}: the progress lines. */
    public LoadRun(LoadSpec spec, PrintWriter out, Writer results) {
        this(spec, out, results, null);
    }

    /** {@code histograms}: where each window's latency histogram goes as an HdrHistogram interval log (null: none). */
    public LoadRun(LoadSpec spec, PrintWriter out, Writer results, HistogramLog histograms) {
        this.spec = spec;
        this.out = out;
        this.results = results;
        this.histograms = histograms;
    }

    /**
     * Stops the run (a signal): the window in progress is dropped, the rows written so far stay, and the measured
     * windows before it are summed up as a whole run's are.
     */
    public void stop() {
        stopped = true;
        OpenLoop l = current;
        if (l != null) {
            l.stop();
        }
    }

    /**
     * Waits until {@link #run} has returned (after a {@link #stop}: its last summary printed), at most {@code millis}.
     */
    public void awaitEnd(long millis) {
        try {
            ended.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public List<Summary> run() throws IOException {
        try {
            return runAll();
        } finally {
            ended.countDown();
        }
    }

    private List<Summary> runAll() throws IOException {
        if (results != null) {
            results.write(RunResults.header() + "\n");
            results.flush();
        }
        int timeout = (int) Math.min(Integer.MAX_VALUE, spec.timeout().toMillis());
        for (Requests r : spec.targets()) {
            for (Target t : r.targets()) {
                HttpConnection.Failure problem = t.problem(timeout);
                if (problem != null && !problem.timedOut()) { // a slow service is measured, not refused
                    throw new BadDataException(
                            t.uri() + ": " + problem.words() + " (is the service up, and at this URL?)");
                }
            }
        }
        List<Summary> summaries = new ArrayList<>();
        for (Requests t : spec.targets()) {
            if (spec.search()) {
                Ramp warm = ramp(t, CapacitySearch.START);
                search(t, summaries, CapacitySearch.afterRamp(spec.slo(), warm.keptUpTo(), warm.fellBehindAt()));
                continue;
            }
            ramp(t, spec.rates().get(0));
            for (double rate : spec.rates()) {
                Summary s = stopped ? null : one(t, rate);
                if (s == null) {
                    return summaries;
                }
                summaries.add(s);
            }
        }
        return summaries;
    }

    /**
     * The capacity of {@code t} at the objective, searched rate by rate ({@link CapacitySearch}); each rate's summary
     * added.
     */
    private void search(Requests t, List<Summary> summaries, CapacitySearch search) throws IOException {
        double loaded = 0;
        for (double rate = search.next(); !Double.isNaN(rate) && !stopped; rate = search.next()) {
            Summary s = one(t, rate);
            if (s != null) {
                summaries.add(s);
            }
            if (stopped) {
                break; // a step cut short judges nothing
            }
            boolean kept = search.record(s);
            loaded += s.warmupSeconds() + s.client().seconds();
            // the step's warmth (how far into the search it ended) and backlog beside its verdict: a young JVM's miss
            // is told apart
            out.println(String.format(
                    Locale.ROOT,
                    "%s: %s %s at %s (%s, %s%s; warm-up %s; %.0f s into the search)%s",
                    t.label(),
                    kept ? "kept" : "missed",
                    spec.slo(),
                    LoadSpec.rate(rate),
                    search.figure(s),
                    s.client().keptUp() ? "kept up" : "not keeping up",
                    s.late() > 0 ? String.format(Locale.ROOT, ", %,d late at the end", s.late()) : "",
                    s.unsteady() == null ? "steady" : "not steady",
                    loaded,
                    search.again() != null
                            ? "; taken once more before it bounds the search: " + search.again()
                            : search.lastLook() != null ? "; " + search.lastLook() : ""));
            out.flush();
            settle(t);
        }
        out.println(stopped ? search.stoppedLine(t.label()) : search.line(t.label()));
        out.flush();
    }

    /**
     * Before a URL's first rate, the load rises to it ({@link LoadSpec#rampRates}: a quarter, a half, three quarters of
     * it; before a search, doubling from its first rate until the service falls behind), each step a third of
     * {@code --ramp}: a JVM compiles its hot code at a rate it keeps, not under a backlog its cold start built, and a
     * search begins on a JVM already compiled. A step not kept up ends the ramp. Each step a line; no rows (a ramp's
     * rates are no workload of the study's). Returns the highest rate kept up and the rate the service fell behind at
     * (NaN: none), where a search then starts.
     */
    private Ramp ramp(Requests t, double rate) {
        double keptUpTo = Double.NaN;
        double fellBehindAt = Double.NaN;
        long stepNanos = spec.ramp().toNanos() / LoadSpec.RAMP_STEPS;
        int timeout = (int) Math.min(Integer.MAX_VALUE, spec.timeout().toMillis());
        List<Double> rates = spec.rampRates(rate);
        String to = spec.search() ? "ramp before the search" : "ramp to " + LoadSpec.rate(rate);
        for (int i = 0; i < rates.size() && stepNanos > 0 && !stopped; i++) {
            OpenLoop.Window w;
            try (OpenLoop load = new OpenLoop(t, rates.get(i), spec.connections(), timeout)) {
                current = load;
                w = load.window(stepNanos);
                current = null;
                load.stop();
            }
            if (stopped) {
                break; // the step a stop cut short is not one
            }
            boolean keptUp = ClientFigures.keptUp(w.offered(), w.late() - w.lateAtStart());
            out.println(String.format(
                    Locale.ROOT,
                    "%s, %s: %s, step %d of %s%d: %s for %s s: %,d offered, %,d answered, %,d errors, %,d late at its"
                            + " end; latency %s%s",
                    spec.search() ? t.label() : LoadSpec.workload(t, rate),
                    spec.threadKind(),
                    to,
                    i + 1,
                    spec.search() ? "at most " : "",
                    rates.size(),
                    LoadSpec.rate(rates.get(i)),
                    seconds(w.nanos()),
                    w.offered(),
                    w.ok(),
                    w.errors(),
                    w.late(),
                    LatencyHistograms.describe(w.judged(), 50),
                    keptUp ? "" : "; not kept up: the ramp ends here"));
            out.flush();
            if (!keptUp) {
                fellBehindAt = rates.get(i);
                break;
            }
            keptUpTo = rates.get(i);
        }
        if (stepNanos > 0 && !stopped) {
            settle(t);
        }
        return new Ramp(keptUpTo, fellBehindAt);
    }

    /** What a ramp found: its highest rate kept up and the rate it fell behind at (NaN: none). */
    private record Ramp(double keptUpTo, double fellBehindAt) {}

    /**
     * After a rate the service may still work off what it queued: up to 10 s until it answers one request within a
     * second.
     */
    private void settle(Requests t) {
        for (int i = 0; i < 10 && !stopped && t.first().problem(1000) != null; i++) {
            // the problem call itself waited (up to a second)
        }
    }

    /**
     * One URL and rate: its warm-up, its measured windows and their summary; null when a stop came before any measured
     * window.
     */
    private Summary one(Requests t, double rate) throws IOException {
        String workload = LoadSpec.workload(t, rate);
        String params = t.described() + " rate=" + LoadSpec.rate(rate) + " connections=" + spec.connections()
                + " timeout=" + spec.timeout().toMillis() + "ms";
        String measuredBy = "loomscope load: open loop at " + LoadSpec.rate(rate)
                + ", latency from each request's intended start, windows of "
                + seconds(spec.window().toNanos()) + " s after a warm-up until steady";
        Labels labels = new Labels(workload, t.label(), rate, params, measuredBy);
        try (OpenLoop load = new OpenLoop(t, rate, spec.connections(), (int)
                Math.min(Integer.MAX_VALUE, spec.timeout().toMillis()))) {
            current = load;
            WarmUp warm = warmUp(load, labels);
            Tally tally = new Tally();
            for (int i = 0; i < spec.windows() && !stopped; i++) {
                Probe before = Probe.take(spec.appPid());
                OpenLoop.Window w = load.window(spec.window().toNanos());
                if (stopped) {
                    break;
                }
                Histogram judged = w.judged();
                Probe after = Probe.take(spec.appPid());
                boolean clientLagged = row(labels, i, false, w, judged, before, after);
                tally.add(w, clientLagged);
                tally.others.add(MachineCpu.between(before.cpu(), after.cpu()).others());
                String unsent = w.unsent() > 0
                        ? String.format(Locale.ROOT, " (%,d not yet sent: every connection busy)", w.unsent())
                        : "";
                out.println(String.format(
                        Locale.ROOT,
                        "%s, %s: window %d: %,d offered%s: %,d answered, %,d errors%s, %,d late at its end%s; latency"
                                + " %s, %s (n=%,d)%s",
                        workload,
                        spec.threadKind(),
                        i + 1,
                        w.offered(),
                        andLateBefore(w.lateAtStart()),
                        w.ok(),
                        w.errors(),
                        w.causes().isEmpty() ? "" : " " + w.causes(),
                        w.late(),
                        unsent,
                        LatencyHistograms.describe(judged, 50).replace(" n/a (none)", " n/a"),
                        LatencyHistograms.describe(judged, 99),
                        judged.getTotalCount(),
                        clientLagged ? "; the client lagged: left out" : ""));
                out.flush();
            }
            current = null;
            OpenLoop.Window afterStop = load.stop();
            if (tally.merge.windows() == 0) {
                out.println(workload + ": stopped before any measured window");
                out.flush();
                return null;
            }
            if (stopped && tally.merge.windows() < spec.windows()) {
                out.println(String.format(
                        Locale.ROOT,
                        "%s: stopped after %d of %d measured windows; their summary:",
                        workload,
                        tally.merge.windows(),
                        spec.windows()));
            }
            Summary s = tally.summary(workload, rate, afterStop, warm, spec.connections());
            out.println(s.line());
            out.flush();
            return s;
        }
    }

    /**
     * What every row of one target at one rate says beside its window's figures: the workload's name, the target's
     * label and the rate as fields of their own, the parameters as printed and who measured how.
     */
    private record Labels(String workload, String target, double rate, String params, String measuredBy) {}

    /** How long the warm-up took, and why it was not steady when it ended (null: it was). */
    record WarmUp(long nanos, String moving) {}

    /**
     * Windows of a second, each a row, until the service is steady after --min-warmup or --max-warmup has passed; said
     * in a line.
     */
    private WarmUp warmUp(OpenLoop load, Labels labels) throws IOException {
        List<OpenLoop.Window> warm = new ArrayList<>();
        String moving = null;
        boolean behind = false;
        long warmupNanos = 0;
        int warmIndex = 0;
        while (!stopped) {
            Probe before = Probe.take(spec.appPid());
            OpenLoop.Window w = load.window(SECOND);
            if (stopped) {
                break; // the window a stop cut short is not one
            }
            row(labels, warmIndex++, true, w, w.judged(), before, Probe.take(spec.appPid()));
            warm.add(w);
            warmupNanos += w.nanos();
            if (warmupNanos < spec.warmupMin().toNanos()) {
                continue;
            }
            moving = Steadiness.moving(warm);
            // a search's step over the service's capacity is not warmed for the longest warm-up: its backlog only grows
            behind = spec.search() && Steadiness.fallingBehind(warm); // not kept up: never steady
            if (moving == null || behind || warmupNanos >= spec.warmupMax().toNanos()) {
                break;
            }
        }
        if (stopped) {
            return new WarmUp(warmupNanos, "stopped");
        }
        out.println(labels.workload() + ", " + spec.threadKind() + ": warm-up " + seconds(warmupNanos) + " s, "
                + (moving == null
                        ? "steady"
                        : behind
                                ? "falling behind (" + moving + ", more late at the end of each of the last "
                                        + Steadiness.WINDOWS + " s): measured as it is, not warmed longer"
                                : "not steady after the longest warm-up (" + moving + "): measured as it is"));
        return new WarmUp(warmupNanos, moving);
    }

    /**
     * Writes the window's row, its figures from {@code h} (its {@link OpenLoop.Window#judged}); whether the client
     * lagged in it.
     */
    private boolean row(
            Labels labels, int index, boolean warmup, OpenLoop.Window w, Histogram h, Probe before, Probe after)
            throws IOException {
        double lagP99 =
                w.lagMicros().getTotalCount() == 0 ? Double.NaN : w.lagMicros().getValueAtPercentile(99) / 1e3;
        double p99 = h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1e3;
        boolean lagged = ClientRow.lagged(lagP99, p99);
        if (histograms != null) {
            histograms.window(labels.workload(), warmup, w);
        }
        if (results == null) {
            return lagged;
        }
        WorkloadRunEvent e = new WorkloadRunEvent();
        e.workload = labels.workload();
        e.threadKind = spec.threadKind();
        e.runIndex = index;
        e.warmup = warmup;
        e.units = w.ok();
        e.unit = "requests";
        e.params = labels.params();
        e.measuredBy = labels.measuredBy();
        e.target = labels.target();
        e.offeredRate = labels.rate();
        e.connections = spec.connections();
        e.offeredUnits = w.offered();
        e.errors = w.errors();
        e.late = w.late();
        if (h.getTotalCount() > 0) {
            e.p50LatencyMs = h.getValueAtPercentile(50) / 1e3;
            e.p99LatencyMs = p99;
            e.p999LatencyMs = LatencyHistograms.enough(h, 99.9) ? h.getValueAtPercentile(99.9) / 1e3 : Double.NaN;
        }
        e.latencyHistogram = LatencyHistograms.encode(w.latencyMicros());
        e.sendLatencyHistogram = LatencyHistograms.encode(w.sendMicros());
        e.lateHistogram = LatencyHistograms.encode(w.lateMicros());
        e.clientLagP99Ms = lagP99;
        e.clientCpu = w.cpuNanos() < 0 ? Double.NaN : (double) w.cpuNanos() / w.nanos();
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
        return lagged;
    }

    /**
     * The service's CPU ticks (this client's as its helper's) and context switches at one moment; nulls without a
     * service to watch.
     */
    private record Probe(MachineCpu.Ticks cpu, long[] switches) {
        static Probe take(long pid) {
            return pid <= 0 ? new Probe(null, null) : new Probe(MachineCpu.readFor(pid), ProcContextSwitches.of(pid));
        }
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.0f", nanos / 1e9);
    }
}
