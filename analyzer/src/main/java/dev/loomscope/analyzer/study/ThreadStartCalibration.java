package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.Noise;
import dev.loomscope.probes.MachineCpu;
import java.util.Arrays;
import java.util.Locale;

/**
 * What starting and joining one thread costs on this machine, a platform thread and a virtual one:
 * what a thread-per-request workload pays per request, and so what sets the size of its platform-
 * against-virtual gap on a machine (the kernel's thread creation, the cores, the virtualisation).
 * Threads that do nothing are started and joined one after another, kinds alternated over rounds.
 */
public record ThreadStartCalibration(double platformMicros, double virtualMicros, MachineCpu.Shares machine) {
    static final int THREADS = 2000;
    static final int ROUNDS = 5;

    public static ThreadStartCalibration measure() {
        MachineCpu.Ticks before = MachineCpu.read();
        round(Thread.ofPlatform(), THREADS); // warm-up: the JIT, the first threads' stacks
        round(Thread.ofVirtual(), THREADS);
        double[] platform = new double[ROUNDS];
        double[] virtual = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            platform[r] = round(Thread.ofPlatform(), THREADS);
            virtual[r] = round(Thread.ofVirtual(), THREADS);
        }
        return new ThreadStartCalibration(median(platform), median(virtual), MachineCpu.between(before, MachineCpu.read()));
    }

    /** Microseconds per thread started and joined. */
    private static double round(Thread.Builder builder, int threads) {
        Runnable nothing = () -> { };
        long t0 = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            Thread t = builder.start(nothing);
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while calibrating", e);
            }
        }
        return (System.nanoTime() - t0) / 1e3 / threads;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * The line beside the verdicts; when other processes kept the machine busy, or a virtual thread
     * came out no cheaper than a platform thread (which a quiet machine does not show), it says the
     * figures are not this machine's cost.
     */
    public String line() {
        double busy = machine.others() + (Double.isNaN(machine.steal()) ? 0 : machine.steal());
        if (busy > Noise.DISTURBED || !(platformMicros > virtualMicros * 1.5)) {
            return String.format(Locale.ROOT, "this machine (%d cores, JDK %d): thread start not measured: a platform thread took %.1f µs, a virtual"
                    + " thread %.1f µs, %s", Runtime.getRuntime().availableProcessors(), Runtime.version().feature(), platformMicros, virtualMicros,
                    busy > Noise.DISTURBED ? String.format(Locale.ROOT, "while other processes took %.0f%% of the CPU: the figures are theirs as much"
                            + " as the machine's", 100 * busy) : "a virtual thread no cheaper than a platform one, which a quiet machine does not show:"
                                    + " something else ran meanwhile");
        }
        return String.format(Locale.ROOT, "this machine (%d cores, JDK %d): starting and joining a platform thread takes %.1f µs, a virtual thread"
                + " %.1f µs (%.0fx): a thread-per-request workload pays this per request, so its platform-vs-virtual gap grows with the first"
                + " figure; compare results across machines with this line", Runtime.getRuntime().availableProcessors(),
                Runtime.version().feature(), platformMicros, virtualMicros, platformMicros / virtualMicros);
    }
}
