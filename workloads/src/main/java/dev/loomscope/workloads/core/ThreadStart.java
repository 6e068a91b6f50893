package dev.loomscope.workloads.core;

import dev.loomscope.probes.MachineCpu;
import java.util.Arrays;
import java.util.Locale;

/**
 * What starting and joining one thread costs on this JVM and machine, a platform thread and a virtual one: what a
 * thread-per-request workload pays per request, and so what sets the size of its platform-against-virtual gap (the
 * kernel's thread creation, the cores, the virtualisation, the JDK). Threads that do nothing are started and joined one
 * after another, kinds alternated over rounds. {@code java -jar loomscope-workloads.jar thread-start} prints one line
 * of it: the study runs it on the JVM its workloads run on.
 */
public final class ThreadStart {
    static final int THREADS = 2000;
    static final int ROUNDS = 5;

    private ThreadStart() {}

    /** {@code thread-start platform-us=128.2 virtual-us=24.9 jdk=25 cpus=2 others=0.013 steal=NaN}. */
    public static String measure() {
        MachineCpu.Ticks before = MachineCpu.read();
        round(Thread.ofPlatform(), THREADS); // warm-up: the JIT, the first threads' stacks
        round(Thread.ofVirtual(), THREADS);
        double[] platform = new double[ROUNDS];
        double[] virtual = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            platform[r] = round(Thread.ofPlatform(), THREADS);
            virtual[r] = round(Thread.ofVirtual(), THREADS);
        }
        MachineCpu.Shares machine = MachineCpu.between(before, MachineCpu.read());
        return String.format(
                Locale.ROOT,
                "thread-start platform-us=%.2f virtual-us=%.2f jdk=%d cpus=%d others=%s steal=%s",
                median(platform),
                median(virtual),
                Runtime.version().feature(),
                Runtime.getRuntime().availableProcessors(),
                machine.others(),
                machine.steal());
    }

    /** Microseconds per thread started and joined. */
    private static double round(Thread.Builder builder, int threads) {
        Runnable nothing = () -> {};
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
}
