package dev.loomscope.analyzer.reduce;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Context switches: the process's own (loomscope.ContextSwitches, deltas) and the machine's
 * (jdk.ThreadContextSwitchRate, a rate for the whole machine).
 */
public final class ContextSwitchReducer implements Reducer {
    /**
     * loomscope's echo benchmark on platform threads, one started per request (docs/benchmarks.md,
     * "Agent overhead"): about 5,500 thread starts a second, where the recording kept 0.879 of the
     * throughput with async-profiler and 0.964 without a profile.
     */
    static final double MEASURED_RATE = 5500;
    static final double MEASURED_COST_PROFILED = 0.12;
    static final double MEASURED_COST = 0.04;

    /** The {@link #startCost} from which the analyzer says what the recording costs (the rule, the note under verdicts). */
    public static final double NOTABLE_START_COST = 0.01;

    /** Where {@link #startCost} comes from, for the texts that quote it. */
    public static final String START_COST_BASIS = String.format(Locale.ROOT, "scaled from loomscope's echo benchmark on 2 cores, where %,.0f"
            + " platform thread starts a second cost %.0f%% of throughput under async-profiler and %.0f%% without", MEASURED_RATE,
            100 * MEASURED_COST_PROFILED, 100 * MEASURED_COST);

    public final Samples times = new Samples();
    public final Samples voluntary = new Samples();
    public final Samples involuntary = new Samples();
    public final Samples machineRate = new Samples();
    private long voluntaryTotal;
    private long involuntaryTotal;
    private long platformThreadsStarted = -1;
    private final List<long[]> started = new ArrayList<>(); // {epoch ns, platform threads started since the sample before}
    private long firstMillis = Long.MAX_VALUE;
    private long lastMillis = Long.MIN_VALUE;
    private String source;

    @Override
    public Set<String> eventTypes() {
        return Set.of("loomscope.ContextSwitches", "jdk.ThreadContextSwitchRate");
    }

    @Override
    public void add(JfrEvent e) {
        long t = e.startTime().toEpochMilli();
        if (e.type().equals("jdk.ThreadContextSwitchRate")) {
            machineRate.add(e.doubleValue("switchRate"));
            return;
        }
        long v = e.longValue("voluntary");
        long i = e.longValue("involuntary");
        times.add(t);
        voluntary.add(v);
        involuntary.add(i);
        voluntaryTotal += v;
        involuntaryTotal += i;
        firstMillis = Math.min(firstMillis, t);
        lastMillis = Math.max(lastMillis, t);
        source = e.hasField("source") ? e.string("source") : source;
        if (e.hasField("platformThreadsStarted")) {
            platformThreadsStarted = Math.max(0, platformThreadsStarted) + e.longValue("platformThreadsStarted");
            started.add(new long[] {nanos(e.startTime()), e.longValue("platformThreadsStarted")});
        }
    }

    /**
     * Platform threads started a second in the busiest of the agent's sampling periods from
     * {@code start} (the recording's first event) on; null when the agent did not count them.
     */
    public Double peakPlatformThreadStartRate(Instant start) {
        if (started.isEmpty() || start == null) {
            return null;
        }
        return peakRate(nanos(start), started);
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * The share of throughput that the recording's work at every platform thread start and end
     * (JFR's bookkeeping; async-profiler's thread-name lookups for its JFR output) costs an app that
     * starts {@code rate} a second: the measured cost scaled by the rate. A guide, not a
     * measurement: machines differ in what a thread start costs.
     */
    public static double startCost(double rate, boolean asyncProfiler) {
        return rate / MEASURED_RATE * (asyncProfiler ? MEASURED_COST_PROFILED : MEASURED_COST);
    }

    /**
     * The rate of the busiest period among {@code samples} ({end of the period in epoch ns, count
     * in it}, any order; the first period begins at {@code startNanos}). A sample within 0.5 s of
     * the one before counts with it: the agent's last sample, at exit, can follow its last periodic
     * one closely, and a few threads in a few milliseconds are no rate.
     */
    public static double peakRate(long startNanos, List<long[]> samples) {
        List<long[]> sorted = new ArrayList<>(samples);
        sorted.sort(Comparator.comparingLong(x -> x[0]));
        List<double[]> periods = new ArrayList<>(); // {count, seconds}
        long from = startNanos;
        for (long[] sample : sorted) {
            double seconds = (sample[0] - from) / 1e9;
            from = sample[0];
            if (seconds < 0.5 && !periods.isEmpty()) {
                periods.get(periods.size() - 1)[0] += sample[1];
                periods.get(periods.size() - 1)[1] += seconds;
            } else {
                periods.add(new double[] {sample[1], seconds});
            }
        }
        return periods.stream().filter(p -> p[1] > 0).mapToDouble(p -> p[0] / p[1]).max().orElse(0);
    }

    /**
     * Seconds from {@code start} to the last of the agent's counts of platform thread starts, NaN
     * when it did not count them.
     */
    public double platformThreadStartSeconds(Instant start) {
        if (started.isEmpty() || start == null) {
            return Double.NaN;
        }
        long last = started.stream().mapToLong(x -> x[0]).max().getAsLong();
        return (last - nanos(start)) / 1e9;
    }

    /** Platform threads the process started, from the agent's events; null when they do not say (older agents). */
    public Long platformThreadsStarted() {
        return platformThreadsStarted < 0 ? null : platformThreadsStarted;
    }

    public boolean processRecorded() {
        return times.count() > 0;
    }

    public long voluntaryTotal() {
        return voluntaryTotal;
    }

    public long involuntaryTotal() {
        return involuntaryTotal;
    }

    public String source() {
        return source;
    }
}
