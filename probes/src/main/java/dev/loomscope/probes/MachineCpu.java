package dev.loomscope.probes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy the machine was while this process ran something: the CPU time of the whole machine ({@code /proc/stat}), of
 * steal (a hypervisor's other guests) and of this process ({@code /proc/self/stat}), read before and after. Linux only;
 * elsewhere nothing is known.
 */
public final class MachineCpu {
    private static final Path STAT = Path.of("/proc/stat");
    private static final Path SELF = Path.of("/proc/self/stat");

    private MachineCpu() {}

    /**
     * Other processes and steal above this share of the machine's CPU: a busy machine, where what a JVM measured may be
     * the other processes' (a study runs such a JVM again; load says so).
     */
    public static final double DISTURBED = 0.20;

    /**
     * Clock ticks so far: the machine's in all, busy (not idle or waiting for I/O), stolen, this process's own, and its
     * helpers' (processes that are part of what it measures: a workload's client in a JVM of its own, and the children
     * this process waited for, such as an ab started for each run and ended within it), which are neither this
     * process's nor other work.
     */
    public record Ticks(long total, long busy, long steal, long process, long helpers) {}

    /**
     * Shares of the machine's CPU time over an interval, each in [0, 1]: this process's, other processes' (busy time
     * not this process's), and steal's.
     */
    public record Shares(double process, double others, double steal) {
        public static final Shares UNKNOWN = new Shares(Double.NaN, Double.NaN, Double.NaN);
    }

    /** The ticks now, or null where they cannot be read; {@code helpers}: the pids of this process's helpers. */
    public static Ticks read(long... helpers) {
        return read(SELF, helpers);
    }

    /**
     * The ticks now as another process's ({@code pid}) measurer sees them: that process's own, and this one's (with the
     * children it waited for) as its helper's: a load generator measuring the service it drives. Null where they cannot
     * be read (the process ended).
     */
    public static Ticks readFor(long pid) {
        return read(Path.of("/proc/" + pid + "/stat"), ProcessHandle.current().pid());
    }

    private static Ticks read(Path process, long... helpers) {
        try {
            String cpu = Files.readAllLines(STAT).get(0);
            if (!cpu.startsWith("cpu ")) {
                return null;
            }
            String[] f = cpu.substring(4).strip().split("\\s+");
            long total = 0;
            for (int i = 0;
                    i < Math.min(f.length, 8);
                    i++) { // user nice system idle iowait irq softirq steal (guest is inside user)
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[3]) + (f.length > 4 ? Long.parseLong(f[4]) : 0);
            long steal = f.length > 7 ? Long.parseLong(f[7]) : 0;
            String[] self = fields(process);
            long helperTicks = childTicks(self);
            for (long pid : helpers) {
                try {
                    String[] helper = fields(Path.of("/proc/" + pid + "/stat"));
                    helperTicks +=
                            cpuTicks(helper) + (pid == ProcessHandle.current().pid() ? childTicks(helper) : 0);
                } catch (IOException | RuntimeException gone) {
                    // a helper that ended counts no more
                }
            }
            return new Ticks(total, total - idle - steal, steal, cpuTicks(self), helperTicks);
        } catch (IOException | RuntimeException unavailable) {
            return null;
        }
    }

    /** A process's utime and stime (fields 14 and 15 of its stat file) in clock ticks, from its {@link #fields}. */
    private static long cpuTicks(String[] s) {
        return Long.parseLong(s[11]) + Long.parseLong(s[12]);
    }

    /** The CPU of a process's children that ended and were waited for: cutime and cstime (fields 16 and 17). */
    private static long childTicks(String[] s) {
        return Long.parseLong(s[13]) + Long.parseLong(s[14]);
    }

    /**
     * The fields of a stat file from the third on (the state): the command may hold spaces and parentheses, so they
     * start after the last ')'.
     */
    private static String[] fields(Path stat) throws IOException {
        String line = Files.readString(stat);
        return line.substring(line.lastIndexOf(')') + 2).strip().split("\\s+");
    }

    /** The shares between two readings; {@link Shares#UNKNOWN} when either is null or no tick passed. */
    public static Shares between(Ticks before, Ticks after) {
        if (before == null || after == null || after.total() <= before.total()) {
            return Shares.UNKNOWN;
        }
        double total = after.total() - before.total();
        double busy = after.busy() - before.busy();
        double process = after.process() - before.process();
        double others = Math.max(0, busy - process - (after.helpers() - before.helpers()));
        return new Shares(
                clamp(process / total), clamp(others / total), clamp((after.steal() - before.steal()) / total));
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }
}
