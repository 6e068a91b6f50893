package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.reduce.CarrierCpu;
import dev.loomscope.analyzer.reduce.ThreadCpu;
import dev.loomscope.analyzer.render.Table;
import java.util.List;
import java.util.Map;

/**
 * {@code flame --threads --top N} and the report's table under each flame graph: CPU by thread, virtual threads and
 * carriers told apart.
 */
public final class ThreadCpuView {
    private ThreadCpuView() {}

    /**
     * The {@code n} threads (groups of virtual threads) with the most CPU samples, or null when there are no CPU
     * samples.
     */
    public static Table table(ThreadCpu cpu, String source, int n) {
        long all = cpu.total();
        if (all == 0) {
            return null;
        }
        Table t = new Table(
                "threads",
                "CPU by thread, " + source,
                List.of(
                        Table.text("thread"),
                        Table.text("kind"),
                        Table.number("threads", "", 0),
                        Table.number("samples", "", 0),
                        Table.number("share", "%", 1),
                        Table.number("virtual threads' code", "%", 1),
                        Table.number("mounting", "%", 1),
                        Table.number("scheduler", "%", 1)));
        List<ThreadCpu.Row> rows = cpu.rows();
        long code = 0;
        long mounting = 0;
        long scheduler = 0;
        long platform = 0;
        long jvm = 0;
        for (ThreadCpu.Row r : rows) {
            code += r.virtualCode();
            mounting += r.mounting();
            switch (r.kind()) {
                case ThreadCpu.CARRIER -> scheduler += r.other();
                case ThreadCpu.PLATFORM -> platform += r.samples();
                case ThreadCpu.JVM -> jvm += r.samples();
                default -> {}
            }
        }
        for (ThreadCpu.Row r : rows.subList(0, Math.min(n, rows.size()))) {
            boolean split = r.kind().equals(ThreadCpu.VIRTUAL) || r.kind().equals(ThreadCpu.CARRIER);
            t.row(
                    r.name(),
                    r.kind(),
                    r.threads(),
                    r.samples(),
                    100.0 * r.samples() / all,
                    split ? 100.0 * r.virtualCode() / r.samples() : null,
                    split ? 100.0 * r.mounting() / r.samples() : null,
                    r.kind().equals(ThreadCpu.CARRIER) ? 100.0 * r.other() / r.samples() : null);
        }
        t.note(all + " CPU samples: virtual threads' code " + percent(code, all) + ", mounting and unmounting them "
                + percent(mounting, all)
                + ", carriers' scheduler " + percent(scheduler, all) + ", platform threads " + percent(platform, all)
                + ", the JVM's own threads "
                + percent(jvm, all));
        if (rows.stream().anyMatch(r -> r.kind().equals(ThreadCpu.VIRTUAL))) {
            t.note("virtual threads: sampled by JFR as themselves (not their carrier), grouped by name (most have none)"
                    + " and the code they run, their first application frame; threads: how many virtual threads");
        }
        if (rows.stream().anyMatch(r -> r.kind().equals(ThreadCpu.CARRIER))) {
            t.note("carrier: an OS thread that ran virtual threads: its share in virtual threads' code, in mounting and"
                    + " unmounting them (continuation yield, freeze, thaw), and in the scheduler between them;"
                    + " async-profiler samples a virtual thread on its carrier, so which virtual thread ran is not"
                    + " recorded (a recording with JFR's samples too joins them: the next table); JFR samples it as"
                    + " itself, so a carrier's own samples are the scheduler's");
        }
        if (rows.size() > n) {
            t.note((rows.size() - n) + " more threads or groups with "
                    + rows.subList(n, rows.size()).stream()
                            .mapToLong(ThreadCpu.Row::samples)
                            .sum() + " samples not listed (--top)");
        }
        return t;
    }

    /**
     * Where a recording has both engines' samples: the carriers' samples in virtual threads' code by the virtual
     * threads they ran (the {@code n} pairs with the most), and what could not be joined; null when no recording has
     * both.
     */
    public static Table joined(ThreadCpu cpu, String source, int n) {
        ThreadCpu.Joined j = cpu.joined();
        if (j == null || j.carrierSamples() == 0) {
            return null;
        }
        Table t = new Table(
                "threads_joined",
                "Carriers' CPU by the virtual thread they ran (async-profiler's samples joined with JFR's), " + source,
                List.of(
                        Table.text("virtual threads"),
                        Table.text("carrier"),
                        Table.number("samples", "", 0),
                        Table.number("share", "%", 1)));
        for (ThreadCpu.JoinedRow r : j.rows().subList(0, Math.min(n, j.rows().size()))) {
            t.row(r.virtualThreads(), r.carrier(), r.samples(), 100.0 * r.samples() / j.carrierSamples());
        }
        t.note(j.carrierSamples() + " carrier samples in virtual threads' code: joined "
                + percent(j.joined(), j.carrierSamples()) + ", ambiguous "
                + percent(j.ambiguous(), j.carrierSamples())
                + " (several virtual threads ran the same frames then), unmatched "
                + percent(j.unmatched(), j.carrierSamples()) + " (JFR sampled none running them within "
                + ThreadCpu.JOIN_WINDOW_NANOS / 1_000_000
                + " ms)"
                + (j.complete()
                        ? ""
                        : "; not every sample was kept for the join (too many): the shares are of those kept"));
        t.note("a carrier's sample is joined to the virtual thread JFR sampled within "
                + ThreadCpu.JOIN_WINDOW_NANOS / 1_000_000
                + " ms of it running the same two innermost Java frames, when exactly one did: a likelihood, not a"
                + " record of which ran");
        if (j.rows().size() > n) {
            t.note((j.rows().size() - n) + " more pairs not listed (--top)");
        }
        return t;
    }

    /**
     * Where virtual threads spin on their carriers ({@code Thread.yield} or {@code Thread.onSpinWait} within
     * {@link CarrierCpu#SPIN_DEPTH} frames of the top of JFR's CPU samples of them), by the spin's caller: the
     * {@code n} callers with the most samples; null when no sample spins.
     */
    public static Table spins(ThreadCpu cpu, String source, int n) {
        CarrierCpu c = cpu.carrierCpu();
        if (c.spinSamples() == 0) {
            return null;
        }
        Table t = new Table(
                "spins",
                "Virtual threads spinning on their carriers (JFR's CPU samples of them), " + source,
                List.of(
                        Table.text("spin at"),
                        Table.number("samples", "", 0),
                        Table.number("of virtual threads' samples", "%", 1)));
        List<Map.Entry<String, Long>> callers = c.spinCallersByCount();
        for (Map.Entry<String, Long> e : callers.subList(0, Math.min(n, callers.size()))) {
            t.row(e.getKey(), e.getValue(), 100.0 * e.getValue() / c.virtualSamples());
        }
        t.note(c.spinSamples() + " of " + c.virtualSamples() + " CPU samples of virtual threads in Thread.yield or"
                + " Thread.onSpinWait (" + percent(c.spinSamples(), c.virtualSamples()) + "), by the frame that called"
                + " it: a virtual thread that spins keeps its carrier, so under contention the spinners hold the"
                + " carriers the threads they wait for need (watch's yield-spin alarm reads the same samples)");
        if (callers.size() > n) {
            t.note((callers.size() - n) + " more callers not listed (--top)");
        }
        return t;
    }

    private static String percent(long part, long all) {
        return Math.round(1000.0 * part / all) / 10.0 + "%";
    }
}
