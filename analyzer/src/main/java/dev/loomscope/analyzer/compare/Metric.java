package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.reduce.Timeline;
import dev.loomscope.load.ClientFigures;
import dev.loomscope.load.stats.LatencyHistograms;
import dev.loomscope.load.stats.Quantiles;
import dev.loomscope.options.Nearest;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.JdkEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * A quantity compared across thread kinds: where its values come from (one per workload run, per recording, or per
 * event), its unit, and whether lower is better. Defined as data.
 */
public record Metric(
        String name,
        String unit,
        boolean lowerIsBetter,
        Level level,
        Function<RecordingFacts, List<Value>> extract,
        BiFunction<RecordingFacts, WorkloadRun, Double> inRun,
        Function<RecordingFacts, Double> whole) {

    /** Where a metric's values come from. */
    public enum Level {
        /** One per measured workload run (loomscope.WorkloadRun): none without runs. */
        RUN,
        /**
         * One per measured run, from the events inside the run's window; one per recording when it has no runs (any
         * app).
         */
        RUN_OR_RECORDING,
        RECORDING,
        EVENT
    }

    /**
     * Figures that describe a run rather than judge it: more CPU load or more threads is neither better nor worse until
     * it is set against the work done (a per-unit metric does that). Their verdicts say higher or lower.
     */
    public boolean descriptive() {
        return this == CPU_LOAD || this == PEAK_THREADS || this == CPU_A_CARRIER;
    }

    /** How to read a difference: "lower is better", "higher is better", or that it describes, not judges. */
    public String direction() {
        return descriptive()
                ? "describes: higher or lower, not better or worse"
                : lowerIsBetter ? "lower is better" : "higher is better";
    }

    /** How a figure per unit of work is named: its stem and this ({@code cpu time per unit}). */
    static final String PER_UNIT = " per unit";

    /** How a figure per unit of work's unit ends ({@code ms/unit}). */
    static final String OF_UNIT = "/unit";

    /** Whether this is a figure per unit of work: its name and unit end in {@link #PER_UNIT} and {@link #OF_UNIT}. */
    public boolean perUnit() {
        return PER_UNIT_METRICS.contains(this);
    }

    /** The name of a figure per unit of work without {@link #PER_UNIT} ({@code cpu time}). */
    String stem() {
        return name.substring(0, name.length() - PER_UNIT.length());
    }

    /** The unit of a figure per unit of work without {@link #OF_UNIT} ({@code ms}). */
    String unitStem() {
        return unit.substring(0, unit.length() - OF_UNIT.length());
    }

    /** One value: x is its run index (or event index), units the work it stands for (NaN if none). */
    public record Value(double x, double value, double units, long startMillis) {}

    /**
     * A metric of each measured run; for the recording as a whole (its summary), the median of its measured runs'
     * values.
     */
    private static Metric perRun(String name, String unit, boolean lower, Function<WorkloadRun, Double> f) {
        return perRun(name, unit, lower, (x, r) -> f.apply(r));
    }

    /** A metric of each measured run that needs the recording's events too; none without runs. */
    private static Metric perRun(
            String name, String unit, boolean lower, BiFunction<RecordingFacts, WorkloadRun, Double> inRun) {
        return new Metric(name, unit, lower, Level.RUN, facts -> runValues(facts, inRun), inRun, facts -> {
            double[] v =
                    runValues(facts, inRun).stream().mapToDouble(Value::value).toArray();
            return v.length == 0 ? null : Quantiles.of(v, 0.5);
        });
    }

    /**
     * A client's latency at {@code percentile} (0-100): each measured run's; for the recording, the percentile of its
     * measured runs' histograms merged where a load client kept them (each request once, as the study's capacity reads
     * them; none when too few requests), else the median of the runs' values (a workload that times itself).
     */
    private static Metric latency(String name, double percentile, Function<WorkloadRun, Double> f) {
        return overClient(perRun(name, "ms", true, f), client -> client.latencyMs(percentile));
    }

    /**
     * {@code byRun}, whose value for a recording is {@code whole} of its merged client windows where a load client kept
     * them.
     */
    private static Metric overClient(Metric byRun, Function<ClientFigures, Double> whole) {
        return new Metric(byRun.name, byRun.unit, byRun.lowerIsBetter, Level.RUN, byRun.extract, byRun.inRun, facts -> {
            ClientFigures client = facts.runs.client();
            return client == null ? byRun.whole.apply(facts) : whole.apply(client);
        });
    }

    private static Metric perEvent(String name, String unit, Function<RecordingFacts, Samples> events) {
        return new Metric(
                name,
                unit,
                true,
                Level.EVENT,
                f -> {
                    List<Value> out = new ArrayList<>();
                    double[] v = events.apply(f).toArray();
                    for (int i = 0; i < v.length; i++) {
                        out.add(new Value(i, v[i], Double.NaN, 0));
                    }
                    return out;
                },
                null,
                null);
    }

    /** This metric's value for one run (warm-up or measured), null when it has none or is not a per-run metric. */
    public Double valueInRun(RecordingFacts facts, WorkloadRun run) {
        return inRun == null ? null : present(inRun.apply(facts, run));
    }

    /** This metric's value for the whole recording, null when it has none or is not a per-recording metric. */
    public Double valueOfRecording(RecordingFacts facts) {
        return whole == null ? null : present(whole.apply(facts));
    }

    /**
     * A value, or null for none: NaN is none too, and so is an infinite one (a rate over no time), which no chart or
     * test can take.
     */
    private static Double present(Double v) {
        return v == null || v.isNaN() || v.isInfinite() ? null : v;
    }

    private static List<Value> runValues(RecordingFacts facts, BiFunction<RecordingFacts, WorkloadRun, Double> f) {
        List<Value> out = new ArrayList<>();
        for (WorkloadRun r : facts.runs.measured()) {
            Double v = present(f.apply(facts, r));
            if (v != null) {
                out.add(new Value(r.runIndex(), v, r.units(), r.startMillis()));
            }
        }
        return out;
    }

    private static Metric perRecording(String name, String unit, boolean lower, Function<RecordingFacts, Double> f) {
        return new Metric(name, unit, lower, Level.RECORDING, facts -> recordingValue(facts, f), null, f);
    }

    private static List<Value> recordingValue(RecordingFacts facts, Function<RecordingFacts, Double> f) {
        Double v = present(f.apply(facts));
        long start = facts.summary.first() == null ? 0 : facts.summary.first().toEpochMilli();
        Double units = units(facts);
        return v == null ? List.of() : List.of(new Value(0, v, units == null ? 0 : units, start));
    }

    /**
     * A metric per measured run ({@code inRun}: from the recording's events inside the run's time window) when the
     * recording has loomscope.WorkloadRun events, else one value for the whole recording ({@code whole}). A recording
     * with runs none of which was measured (all warm-up, or each one the client's own lag) has no value: its whole
     * would hold the start-up and the ramp, never what the other recordings' measured runs hold.
     */
    private static Metric perRunOrRecording(
            String name,
            String unit,
            boolean lower,
            BiFunction<RecordingFacts, WorkloadRun, Double> inRun,
            Function<RecordingFacts, Double> whole) {
        return runOrRecording(name, unit, lower, inRun, whole, whole);
    }

    /**
     * {@link #perRunOrRecording} of a figure per unit of work (lower is better): for a recording with runs, its
     * measured runs' together ({@link #overMeasuredRuns}), as its per-run values are: warm-ups and start-up have other
     * units.
     */
    private static Metric perUnit(
            String name,
            String unit,
            BiFunction<RecordingFacts, WorkloadRun, Double> inRun,
            Function<RecordingFacts, Double> whole) {
        return runOrRecording(
                name,
                unit,
                true,
                inRun,
                whole,
                f -> f.runs.runs().isEmpty() ? whole.apply(f) : overMeasuredRuns(f, inRun));
    }

    /** A metric per measured run or of the whole recording, whose value for a recording is {@code recording}'s. */
    private static Metric runOrRecording(
            String name,
            String unit,
            boolean lower,
            BiFunction<RecordingFacts, WorkloadRun, Double> inRun,
            Function<RecordingFacts, Double> whole,
            Function<RecordingFacts, Double> recording) {
        return new Metric(
                name,
                unit,
                lower,
                Level.RUN_OR_RECORDING,
                facts -> facts.runs.runs().isEmpty() ? recordingValue(facts, whole) : runValues(facts, inRun),
                inRun,
                recording);
    }

    /**
     * A per-unit figure over the measured runs together: each run's value weighted by its units; null when no run has
     * one.
     */
    private static Double overMeasuredRuns(RecordingFacts f, BiFunction<RecordingFacts, WorkloadRun, Double> perUnit) {
        double sum = 0;
        long units = 0;
        for (WorkloadRun r : f.runs.measured()) {
            Double v = present(perUnit.apply(f, r));
            if (v != null) {
                sum += v * r.units();
                units += r.units();
            }
        }
        return units == 0 ? null : sum / units;
    }

    /** A figure of the pins ({@code of} their durations in ms) per unit of work: in each run, or over the recording. */
    private static Metric perUnitOfPins(String name, String unit, ToDoubleFunction<Samples> of) {
        return perUnit(
                name,
                unit,
                (f, r) -> pinsRecorded(f) && r.units() > 0
                        ? of.applyAsDouble(in(f.pinning.allInTime(), r)) / r.units()
                        : null,
                f -> {
                    Double u = units(f);
                    return pinsRecorded(f) && u != null ? of.applyAsDouble(f.pinning.all()) / u : null;
                });
    }

    /**
     * The recording's units of work: its measured runs' (loomscope.WorkloadRun) where it has runs, else the calls work=
     * timed; null when none.
     */
    private static Double units(RecordingFacts f) {
        long u = f.runs.runs().isEmpty()
                ? f.work.count()
                : f.runs.measured().stream().mapToLong(WorkloadRun::units).sum();
        return u == 0 ? null : (double) u;
    }

    /** The measured runs' units over their time together; null without runs. */
    private static Double runsThroughput(RecordingFacts f) {
        double millis =
                f.runs.measured().stream().mapToDouble(WorkloadRun::millis).sum();
        Double u = units(f);
        return millis <= 0 || u == null ? null : u / (millis / 1e3);
    }

    /**
     * The q-quantile of the work= calls that ended inside the run (in its whole seconds); null when they are fewer than
     * a tenth of the run's units: then the method is not this run's work, and its calls are strays of the runs beside
     * it (a study's other URL, a second apart).
     */
    private static Double serviceTime(RecordingFacts f, WorkloadRun r, double q) {
        if (f.work.count() == 0) {
            return null;
        }
        var calls = f.work.between(r.startNanos(), r.endNanos());
        return calls.count() == 0 || calls.count() < 0.1 * r.units() ? null : calls.quantileMillis(q);
    }

    private static Samples in(Timeline t, WorkloadRun r) {
        return t.between(r.startNanos(), r.endNanos());
    }

    private static double seconds(WorkloadRun r) {
        return r.millis() / 1e3;
    }

    /**
     * The heap used after GC in effect during the run: the level the last collection before it left, and each one's
     * inside it.
     */
    private static Samples heapAfterGc(RecordingFacts f, WorkloadRun r) {
        return f.heap.afterUsedInTime().levelsBetween(r.startNanos(), r.endNanos());
    }

    private static Double mibPerSecond(Double bytesPerSecond) {
        return bytesPerSecond == null ? null : bytesPerSecond / (1 << 20);
    }

    /** A quantile of byte counts in MiB (1: the max); null when there are none. */
    private static Double mib(Samples bytes, double q) {
        return bytes.count() == 0 ? null : (q == 1 ? bytes.max() : bytes.quantile(q)) / (1 << 20);
    }

    /** Whether pins could have been recorded: some were, or the agent recorded (it enables jdk.VirtualThreadPinned). */
    private static boolean pinsRecorded(RecordingFacts f) {
        return f.summary.count(JdkEvents.VIRTUAL_THREAD_PINNED) > 0 || f.summary.threadKind != null;
    }

    public static final Metric RUN_TIME = perRun("run time", "ms", true, WorkloadRun::millis);

    // a service's unit of work: the calls the agent's work= option timed (jdk.MethodTrace), per recording
    public static final Metric THROUGHPUT = perRunOrRecording(
            "throughput",
            "units/s",
            false,
            (f, r) -> r.millis() > 0 ? r.units() / seconds(r) : null,
            f -> f.work.count() > 0 ? Double.valueOf(f.perSecond(f.work.count())) : runsThroughput(f));

    // latency as the run's clients saw it (a service's: the load client's, from each request's intended start); never
    // the handler's own time
    public static final Metric LATENCY_P50 = latency("latency p50", 50, WorkloadRun::p50LatencyMs);

    public static final Metric LATENCY_P99 = latency("latency p99", 99, WorkloadRun::p99LatencyMs);

    public static final Metric LATENCY_P999 =
            latency("latency p99.9", 99.9, r -> r.client().p999LatencyMs());

    // requests a second or more late (answered so, or still waiting at the window's end), per 1,000: each window's own;
    // for the recording,
    // its measured windows merged, each request once
    public static final Metric STALLS = overClient(
            perRun("stalls per 1000 requests", "#/1000", true, ClientFigures::stallsPerThousand),
            c -> LatencyHistograms.stallsPerThousand(c.judged()));

    public static final Metric ERROR_RATE =
            perRun("error rate", "%", true, r -> r.errorRate() == null ? null : 100 * r.errorRate());

    // the handler's own time (the calls work= timed), inside each run's window or over the recording: not what a client
    // waits
    public static final Metric SERVICE_TIME_P50 = perRunOrRecording(
            "service time p50",
            "ms",
            true,
            (f, r) -> serviceTime(f, r, 0.5),
            f -> f.work.count() == 0 ? null : f.work.quantileMillis(0.5));

    public static final Metric SERVICE_TIME_P99 = perRunOrRecording(
            "service time p99",
            "ms",
            true,
            (f, r) -> serviceTime(f, r, 0.99),
            f -> f.work.count() == 0 ? null : f.work.quantileMillis(0.99));

    // what a client waited outside the handler (queued for a server thread or a carrier, or on the network): its
    // latency p50 less the
    // handler's service time p50 in the same window; a difference of medians, not the median of the waits
    public static final Metric WAIT_OUTSIDE_THE_HANDLER_P50 =
            perRun("wait outside the handler p50", "ms", true, (f, r) -> {
                Double service = serviceTime(f, r, 0.5);
                return service == null || Double.isNaN(r.p50LatencyMs())
                        ? null
                        : Math.max(0, r.p50LatencyMs() - service);
            });

    // a recording that records collections and had none: 0, not "not measured"
    public static final Metric GC_PAUSE_TOTAL = perRunOrRecording(
            "gc pause total",
            "ms",
            true,
            (f, r) -> !f.recorded(JdkEvents.GARBAGE_COLLECTION)
                    ? null
                    : in(f.gc.pausesInTime(), r).sum(),
            f -> f.gc.pauses().count() == 0 && !f.recorded(JdkEvents.GARBAGE_COLLECTION)
                    ? null
                    : f.gc.pauses().sum());

    public static final Metric GC_COUNT = perRunOrRecording(
            "gc count",
            "collections",
            true,
            (f, r) -> !f.recorded(JdkEvents.GARBAGE_COLLECTION)
                    ? null
                    : (double) in(f.gc.pausesInTime(), r).count(),
            f -> f.gc.pauses().count() == 0 && !f.recorded(JdkEvents.GARBAGE_COLLECTION)
                    ? null
                    : (double) f.gc.pauses().count());

    public static final Metric GC_PAUSE_P99 = perRecording(
            "gc pause p99",
            "ms",
            true,
            f -> f.gc.pauses().count() == 0 ? null : f.gc.pauses().quantile(0.99));

    public static final Metric HEAP_AFTER_GC_P50 = perRunOrRecording(
            "heap after gc p50", "MiB", true, (f, r) -> mib(heapAfterGc(f, r), 0.5), f -> mib(f.heap.afterUsed(), 0.5));

    public static final Metric HEAP_AFTER_GC_MAX = perRunOrRecording(
            "heap after gc max", "MiB", true, (f, r) -> mib(heapAfterGc(f, r), 1), f -> mib(f.heap.afterUsed(), 1));

    public static final Metric CONTEXT_SWITCHES_PER_UNIT = perUnit(
            "context switches per unit",
            "#/unit",
            (f, r) -> r.contextSwitches() == null || r.units() == 0 ? null : r.contextSwitches() / (double) r.units(),
            f -> {
                Double u = units(f);
                return !f.ctxsw.processRecorded() || u == null
                        ? null
                        : (f.ctxsw.voluntaryTotal() + f.ctxsw.involuntaryTotal()) / u;
            });

    // the process's CPU time a unit: its share of the machine's CPU time over the run times the machine's hardware
    // threads and the run's time
    public static final Metric CPU_TIME_PER_UNIT = perUnit(
            "cpu time per unit", "ms/unit", (f, r) -> cpuMillis(f, r.processCpu(), seconds(r), r.units()), f -> {
                Double u = units(f);
                Double share = mean(f.summary.jvmCpu);
                return u == null || share == null ? null : cpuMillis(f, share, f.summary.spanSeconds(), u);
            });

    public static final Metric GC_PAUSE_PER_UNIT = perUnit(
            "gc pause per unit",
            "ms/unit",
            (f, r) -> !f.recorded(JdkEvents.GARBAGE_COLLECTION) || r.units() == 0
                    ? null
                    : in(f.gc.pausesInTime(), r).sum() / r.units(),
            f -> {
                Double u = units(f);
                return u == null || !f.recorded(JdkEvents.GARBAGE_COLLECTION)
                        ? null
                        : f.gc.pauses().sum() / u;
            });

    // the agent counts threads started a second, too coarse for a run: from the first run's start to the last one's
    // end, warm-ups
    // too, against their units (a recording without runs: over the whole of it, against the calls work= timed)
    public static final Metric PLATFORM_THREADS_STARTED_PER_UNIT = perRecording(
            "platform threads started per unit", "threads/unit", true, RecordingFacts::platformThreadsStartedPerUnit);

    public static final Metric CONTEXT_SWITCHES_PER_SECOND = perRunOrRecording(
            "context switches per second",
            "/s",
            true,
            (f, r) -> r.contextSwitches() == null || r.millis() <= 0 ? null : r.contextSwitches() / seconds(r),
            f -> f.ctxsw.processRecorded() ? f.perSecond(f.ctxsw.voluntaryTotal() + f.ctxsw.involuntaryTotal()) : null);

    public static final Metric PINNED_TIME = perRunOrRecording(
            "pinned time",
            "ms",
            true,
            (f, r) -> pinsRecorded(f) ? in(f.pinning.allInTime(), r).sum() : null,
            f -> pinsRecorded(f) ? f.pinning.all().sum() : null);

    public static final Metric PINNED_TIME_PER_UNIT = perUnitOfPins("pinned time per unit", "ms/unit", Samples::sum);

    public static final Metric PINS_PER_UNIT = perUnitOfPins("pins per unit", "pins/unit", Samples::count);

    public static final Metric PEAK_THREADS = perRecording(
            "peak threads", "threads", true, f -> f.summary.peakThreads < 0 ? null : (double) f.summary.peakThreads);

    public static final Metric CPU_LOAD = perRecording("cpu load", "%", true, f -> percent(f.summary.jvmCpu));

    // what the program allocated, every thread's, ended ones too (the run's count; the agent's over the recording)
    public static final Metric ALLOCATION_RATE = perRunOrRecording(
            "allocation rate",
            "MiB/s",
            true,
            (f, r) -> r.millis() <= 0 || r.allocatedBytes() < 0 ? null : r.allocatedBytes() / seconds(r) / (1 << 20),
            f -> f.ctxsw.allocatedBytes() < 0 ? null : f.perSecond(f.ctxsw.allocatedBytes()) / (1 << 20));

    // what the heap took between collections: allocation, and the unused rest of the TLABs of threads that ended
    public static final Metric HEAP_FILL_RATE = perRunOrRecording(
            "heap fill rate",
            "MiB/s",
            true,
            (f, r) -> mibPerSecond(f.heap.allocationRate(r.startNanos(), r.endNanos())),
            f -> mibPerSecond(f.heap.allocationRate()));

    public static final Metric PINNED_DURATION = perEvent("pinned duration", "ms", f -> f.pinning.all());

    public static final Metric GC_PAUSE = perEvent("gc pause", "ms", f -> f.gc.pauses());

    /** Every metric compared by default, in report order. */
    public static final List<Metric> ALL = List.of(
            RUN_TIME,
            THROUGHPUT,
            LATENCY_P50,
            LATENCY_P99,
            LATENCY_P999,
            STALLS,
            ERROR_RATE,
            SERVICE_TIME_P50,
            SERVICE_TIME_P99,
            WAIT_OUTSIDE_THE_HANDLER_P50,
            GC_PAUSE_TOTAL,
            GC_COUNT,
            GC_PAUSE_P99,
            HEAP_AFTER_GC_P50,
            HEAP_AFTER_GC_MAX,
            CONTEXT_SWITCHES_PER_UNIT,
            CPU_TIME_PER_UNIT,
            GC_PAUSE_PER_UNIT,
            PLATFORM_THREADS_STARTED_PER_UNIT,
            CONTEXT_SWITCHES_PER_SECOND,
            PINNED_TIME,
            PINNED_TIME_PER_UNIT,
            PINS_PER_UNIT,
            PEAK_THREADS,
            CPU_LOAD,
            ALLOCATION_RATE,
            HEAP_FILL_RATE,
            PINNED_DURATION,
            GC_PAUSE);

    /**
     * Milliseconds of CPU time a unit: {@code share} of the machine's CPU time (0 to 1) over {@code seconds} on the
     * recording's machine; null when the machine's size or the share is not known.
     */
    private static Double cpuMillis(RecordingFacts f, double share, double seconds, double units) {
        long cpus = f.summary.hardwareThreads;
        return cpus <= 0 || Double.isNaN(share) || units <= 0 ? null : share * cpus * seconds * 1e3 / units;
    }

    /** The mean of a series, null when it is empty. */
    private static Double mean(Samples s) {
        return s.count() == 0 ? null : s.mean();
    }

    /** The mean of a series of fractions (JFR's CPU loads), in percent; null when it is empty. */
    private static Double percent(Samples fractions) {
        Double m = mean(fractions);
        return m == null ? null : 100 * m;
    }

    /**
     * Figures of one recording that {@code compare} leaves out unless {@code --metric} names them: the summary shows
     * them beside the compared ones ({@link #SUMMARY}).
     */
    public static final Metric SPAN = perRecording("span", "s", false, f -> f.summary.spanSeconds());

    public static final Metric PINNED_COUNT = perRecording(
            "pinned count",
            "events",
            true,
            f -> pinsRecorded(f) ? (double) f.pinning.all().count() : null);

    public static final Metric PINNED_MAX = perRecording(
            "pinned max",
            "ms",
            true,
            f -> f.pinning.all().count() == 0 ? null : f.pinning.all().max());

    public static final Metric GC_PAUSE_P50 = perRecording(
            "gc pause p50",
            "ms",
            true,
            f -> f.gc.pauses().count() == 0 ? null : f.gc.pauses().quantile(0.5));

    public static final Metric GC_PAUSE_MAX = perRecording(
            "gc pause max",
            "ms",
            true,
            f -> f.gc.pauses().count() == 0 ? null : f.gc.pauses().max());

    public static final Metric VOLUNTARY_CONTEXT_SWITCHES_PER_SECOND = perRecording(
            "voluntary context switches per second",
            "/s",
            true,
            f -> f.ctxsw.processRecorded() ? f.perSecond(f.ctxsw.voluntaryTotal()) : null);

    public static final Metric INVOLUNTARY_CONTEXT_SWITCHES_PER_SECOND = perRecording(
            "involuntary context switches per second",
            "/s",
            true,
            f -> f.ctxsw.processRecorded() ? f.perSecond(f.ctxsw.involuntaryTotal()) : null);

    public static final Metric MACHINE_CONTEXT_SWITCHES_PER_SECOND =
            perRecording("machine context switches per second", "/s", true, f -> mean(f.ctxsw.machineRate));

    public static final Metric PLATFORM_THREADS_STARTED =
            perRecording("platform threads started", "threads", true, f -> {
                Long n = f.summary.platformThreadsStarted(f.ctxsw);
                return n == null ? null : n.doubleValue();
            });

    public static final Metric PLATFORM_THREAD_STARTS_IN_THE_BUSIEST_SECOND = perRecording(
            "platform thread starts in the busiest second",
            "/s",
            true,
            f -> f.ctxsw.peakPlatformThreadStartRate(f.summary.first()));

    public static final Metric VIRTUAL_THREADS_STARTED = perRecording(
            "virtual threads started",
            "threads",
            true,
            f -> f.summary.count(JdkEvents.VIRTUAL_THREAD_START) == 0
                    ? null
                    : (double) f.summary.virtualThreadsStarted);

    public static final Metric MACHINE_CPU_LOAD =
            perRecording("machine cpu load", "%", true, f -> percent(f.summary.machineCpu));

    /**
     * Each carrier of the virtual thread scheduler busy on the CPU, on average over its jdk.ThreadCPULoad readings, in
     * percent of one CPU: near 100 the carriers compute (or spin); low while virtual threads wait, they are blocked.
     */
    public static final Metric CPU_A_CARRIER =
            perRecording("cpu a carrier", "% of a CPU", true, f -> 100 * f.summary.carrierCpuOfOne());

    public static final List<Metric> RECORDING_FIGURES = List.of(
            SPAN,
            PINNED_COUNT,
            PINNED_MAX,
            GC_PAUSE_P50,
            GC_PAUSE_MAX,
            VOLUNTARY_CONTEXT_SWITCHES_PER_SECOND,
            INVOLUNTARY_CONTEXT_SWITCHES_PER_SECOND,
            MACHINE_CONTEXT_SWITCHES_PER_SECOND,
            PLATFORM_THREADS_STARTED,
            PLATFORM_THREAD_STARTS_IN_THE_BUSIEST_SECOND,
            VIRTUAL_THREADS_STARTED,
            MACHINE_CPU_LOAD,
            CPU_A_CARRIER);

    /** Every metric: the compared ones, then the recording's other figures (before SUMMARY, which names them). */
    private static final List<Metric> EVERY =
            Stream.concat(ALL.stream(), RECORDING_FIGURES.stream()).toList();

    /** The figures per unit of work ({@link #perUnit}): said per request of a service, per unit of a workload. */
    private static final Set<Metric> PER_UNIT_METRICS = Set.of(
            CONTEXT_SWITCHES_PER_UNIT,
            CPU_TIME_PER_UNIT,
            GC_PAUSE_PER_UNIT,
            PLATFORM_THREADS_STARTED_PER_UNIT,
            PINNED_TIME_PER_UNIT,
            PINS_PER_UNIT);

    /** The key figures of one recording, in the summary's order: each its metric's value for the whole recording. */
    public static final List<Metric> SUMMARY = List.of(
            SPAN,
            THROUGHPUT,
            LATENCY_P50,
            LATENCY_P99,
            SERVICE_TIME_P50,
            SERVICE_TIME_P99,
            PINNED_COUNT,
            PINNED_TIME,
            PINNED_MAX,
            PINS_PER_UNIT,
            GC_COUNT,
            GC_PAUSE_TOTAL,
            GC_PAUSE_P50,
            GC_PAUSE_P99,
            GC_PAUSE_MAX,
            HEAP_AFTER_GC_P50,
            HEAP_AFTER_GC_MAX,
            ALLOCATION_RATE,
            HEAP_FILL_RATE,
            VOLUNTARY_CONTEXT_SWITCHES_PER_SECOND,
            INVOLUNTARY_CONTEXT_SWITCHES_PER_SECOND,
            CONTEXT_SWITCHES_PER_SECOND,
            MACHINE_CONTEXT_SWITCHES_PER_SECOND,
            PEAK_THREADS,
            PLATFORM_THREADS_STARTED,
            PLATFORM_THREAD_STARTS_IN_THE_BUSIEST_SECOND,
            VIRTUAL_THREADS_STARTED,
            CPU_LOAD,
            MACHINE_CPU_LOAD,
            CPU_A_CARRIER);

    /**
     * The metric of this name, compared by default ({@link #ALL}) or not ({@link #RECORDING_FIGURES}); null if none.
     * Written as named or in kebab or snake case ({@code run-time}, {@code gc_pause_total}), any letter case.
     */
    public static Metric named(String name) {
        String wanted = normal(name);
        return EVERY.stream()
                .filter(m -> normal(m.name).equals(wanted))
                .findFirst()
                .orElse(null);
    }

    /**
     * The metrics a user named ({@code --metric}), in that order, each as {@link #named} reads it; an unknown name is a
     * usage error that lists the known ones.
     */
    public static List<Metric> parse(List<String> typed) {
        List<Metric> out = new ArrayList<>();
        for (String name : typed) {
            Metric m = named(name);
            if (m == null) {
                throw new UsageException("--metric " + name + ": unknown metric" + Nearest.didYouMean(name, names())
                        + " (known: " + String.join(", ", names()) + ")");
            }
            out.add(m);
        }
        return out;
    }

    private static String normal(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replaceAll("[-_\\s]+", " ");
    }

    /**
     * The metric's column in an export's tables: its name in snake case with the unit where the name does not say it
     * ({@code run_time_ms}, {@code throughput_per_s}, {@code cpu_load_pct}).
     */
    public String column() {
        String base = name.replace(' ', '_')
                .replace(".", ""); // a dot in a column name is a nested field to Spark: latency p99.9 is latency_p999
        String suffix = switch (unit) {
            case "ms" -> "_ms";
            case "MiB" -> "_mib";
            case "MiB/s" -> "_mib_per_s";
            case "units/s" -> "_per_s";
            case "%" -> "_pct";
            default -> ""; // collections, threads, #/unit, /s: the name says it
        };
        return base + suffix;
    }

    /** Every metric's name: the compared ones, then the recording's other figures. */
    public static List<String> names() {
        return EVERY.stream().map(Metric::name).toList();
    }
}
