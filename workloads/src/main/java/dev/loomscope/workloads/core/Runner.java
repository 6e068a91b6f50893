package dev.loomscope.workloads.core;

import com.sun.management.OperatingSystemMXBean;
import dev.loomscope.events.RunResults;
import dev.loomscope.events.WorkloadRunEvent;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.probes.ContextSwitchCounter;
import dev.loomscope.probes.HeapAllocation;
import dev.loomscope.probes.MachineCpu;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs a workload W warm-up times and R measured times: one WorkloadRun event, one line and (when asked) one row of a
 * results file per run.
 */
public final class Runner {
    /**
     * The results file's columns: the WorkloadRun event's fields, for a JVM that runs without JFR (the study's control
     * JVMs, which measure what the recording costs). CSV, one row per run.
     */
    private Runner() {}

    /** Returns the measured runs' durations in nanoseconds. */
    public static long[] run(String name, Workload w, int warmup, int runs, PrintStream out) throws Exception {
        return run(name, w, warmup, runs, out, null, (Path) null);
    }

    /**
     * As {@link #run(String, Workload, int, int, PrintStream)}; with a {@code pace}, every measured run first waits for
     * a line from it, and its end closes the runs early: a driver can then interleave the runs of several JVMs one by
     * one (benchmarks/agent-overhead.sh does). With {@code results}, every run is also a row of that CSV file
     * ({@link RunResults}), written as it ends.
     */
    public static long[] run(
            String name, Workload w, int warmup, int runs, PrintStream out, BufferedReader pace, Path results)
            throws Exception {
        return run(name, w, warmup, runs, out, pace, results, false);
    }

    /**
     * As above; with {@code roundTrip}, each run's line also says the machine's {@link RoundTrip} just before and after
     * it.
     */
    public static long[] run(
            String name,
            Workload w,
            int warmup,
            int runs,
            PrintStream out,
            BufferedReader pace,
            Path results,
            boolean roundTrip)
            throws Exception {
        try (Writer csv = results == null ? null : Files.newBufferedWriter(results, StandardCharsets.UTF_8)) {
            if (csv != null) {
                csv.write(RunResults.header() + "\n");
                csv.flush();
            }
            return runAll(name, w, warmup, runs, out, pace, csv, roundTrip);
        }
    }

    /**
     * Under the loomscope agent, waits (at most a minute) until its recording runs: a run before it would not be
     * recorded.
     */
    private static void awaitAgentRecording() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (AgentOptions.STARTING.equals(System.getProperty(AgentOptions.STATE_PROPERTY))
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private static long[] runAll(
            String name,
            Workload w,
            int warmup,
            int runs,
            PrintStream out,
            BufferedReader pace,
            Writer csv,
            boolean roundTrip)
            throws Exception {
        awaitAgentRecording();
        String kind = w.about().threadKind();
        out.printf(
                Locale.ROOT,
                "%s on %s threads: %s, %d warm-up + %d runs%n",
                name,
                kind,
                w.about().params(),
                warmup,
                runs);
        for (int i = 0; i < warmup; i++) {
            once(name, w, i, true, warmup, out, csv, roundTrip);
        }
        if (pace != null) {
            out.printf(Locale.ROOT, "%s %s: paced, each run waits for a line on stdin%n", name, kind);
            out.flush();
        }
        long[] nanos = new long[runs];
        long[] cpu = new long[runs];
        int done = 0;
        while (done < runs && waitForTurn(pace)) {
            Timed t = once(name, w, done, false, runs, out, csv, roundTrip);
            nanos[done] = t.nanos();
            cpu[done] = t.cpuNanos();
            done++;
        }
        runs = done;
        nanos = Arrays.copyOf(nanos, runs);
        cpu = Arrays.copyOf(cpu, runs);
        if (runs > 0) {
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            out.printf(
                    Locale.ROOT,
                    "%s %s: median %.1f ms (min %.1f, max %.1f) over %d runs",
                    name,
                    kind,
                    median(sorted) / 1e6,
                    sorted[0] / 1e6,
                    sorted[runs - 1] / 1e6,
                    runs);
            if (processCpuNanos() >= 0) {
                Arrays.sort(cpu);
                out.printf(Locale.ROOT, ", process CPU median %.1f ms", median(cpu) / 1e6);
            }
            out.println();
        }
        return nanos;
    }

    private static boolean waitForTurn(BufferedReader pace) throws IOException {
        return pace == null || pace.readLine() != null;
    }

    private static double median(long[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /** CPU time of this whole process (every thread, the agent's and the JVM's included), or -1. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : -1;
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** One run's wall time and the process's CPU time over it (negative when unknown). */
    private record Timed(long nanos, long cpuNanos) {}

    private static Timed once(
            String name, Workload w, int index, boolean warmup, int of, PrintStream out, Writer csv, boolean roundTrip)
            throws Exception {
        double tripBefore = roundTrip ? RoundTrip.now() : Double.NaN;
        WorkloadRunEvent e = new WorkloadRunEvent();
        e.begin();
        long[] switches0 = ContextSwitchCounter.read();
        MachineCpu.Ticks ticks0 = MachineCpu.read(w.helperPids());
        long cpu0 = processCpuNanos();
        long allocated0 = HeapAllocation.total();
        long epochNanos = epochNanos();
        long t0 = System.nanoTime();
        Workload.Run r = w.run();
        long nanos = System.nanoTime() - t0;
        long cpu = cpu0 < 0 ? -1 : processCpuNanos() - cpu0;
        long allocated = allocated0 < 0 ? -1 : HeapAllocation.total() - allocated0;
        long[] switches1 = switches0 == null ? null : ContextSwitchCounter.read();
        MachineCpu.Shares machine = MachineCpu.between(ticks0, MachineCpu.read(w.helperPids()));
        e.end();
        double tripAfter = roundTrip ? RoundTrip.now() : Double.NaN;
        if (switches1 != null) {
            e.voluntaryContextSwitches = switches1[0] - switches0[0];
            e.involuntaryContextSwitches = switches1[1] - switches0[1];
        }
        e.workload = name;
        e.threadKind = w.about().threadKind();
        e.runIndex = index;
        e.warmup = warmup;
        e.units = r.units();
        e.unit = w.about().unit();
        e.params = w.about().params();
        e.p50LatencyMs = r.p50LatencyMs();
        e.p99LatencyMs = r.p99LatencyMs();
        e.processCpu = machine.process();
        e.otherCpu = machine.others();
        e.stealCpu = machine.steal();
        e.allocatedBytes = allocated;
        e.commit();
        if (csv != null) {
            csv.write(RunResults.row(e, epochNanos, nanos) + "\n");
            csv.flush();
        }
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%s %s %s %d/%d: %.1f ms, %.0f %s/s",
                name,
                w.about().threadKind(),
                warmup ? "warm-up" : "run",
                index + 1,
                of,
                nanos / 1e6,
                r.units() / (nanos / 1e9),
                w.about().unit()));
        if (!Double.isNaN(r.p50LatencyMs())) {
            line.append(String.format(Locale.ROOT, ", p50 %.2f ms, p99 %.2f ms", r.p50LatencyMs(), r.p99LatencyMs()));
        }
        if (r.note() != null) {
            line.append(", ").append(r.note());
        }
        if (cpu >= 0) {
            line.append(String.format(Locale.ROOT, ", process CPU %.1f ms", cpu / 1e6));
        }
        if (roundTrip) {
            line.append(
                    Double.isNaN(tripBefore)
                            ? ", round trip between cores not measured (one processor)"
                            : String.format(
                                    Locale.ROOT,
                                    ", round trip between cores %.0f ns before, %.0f ns after",
                                    tripBefore,
                                    tripAfter));
        }
        out.println(line);
        out.flush(); // a paced driver waits for this line
        return new Timed(nanos, cpu);
    }
}
