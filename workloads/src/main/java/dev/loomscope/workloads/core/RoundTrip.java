package dev.loomscope.workloads.core;

import dev.loomscope.probes.MachineCpu;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What sending a cache line to another core and back costs on this machine now: two platform threads pass a counter
 * back and forth, each spinning until it sees the other's last value and then writing the next. A spin that outlasts
 * {@link #SPINS} waits yields the core: the other thread is not running, and on a machine busy with other processes the
 * two can be queued on one core, where a spin would hand the counter over once a time slice (minutes a measurement). A
 * hand-off between threads on two cores that spins instead of parking (a spinning rendezvous, an Exchanger) costs at
 * least this per message. On a virtual machine it is the host's placement of the vCPUs, and it moves when the host
 * moves them (docs/results.md: 68 or 325 ns on this project's machine). {@code java -jar loomscope-workloads.jar
 * round-trip} prints one line.
 */
public final class RoundTrip {
    static final int TRIPS = 200_000;
    static final int ROUNDS = 5;
    /**
     * Spin waits (about 10 µs here; a trip takes under 0.4 µs) before a spin yields the core: two threads on one core
     * then pass the counter in about 10 µs a trip, not a time slice.
     */
    static final int SPINS = 256;

    private RoundTrip() {}

    /** {@code round-trip ns=68.2 min-ns=66.0 max-ns=70.3 cpus=2 others=0.004 steal=0.000}. */
    public static String measure() {
        int cpus = Runtime.getRuntime().availableProcessors();
        if (cpus < 2) {
            throw new BadArgumentException(
                    "round-trip needs two processors to pass a cache line between; this JVM sees " + cpus);
        }
        MachineCpu.Ticks before = MachineCpu.read();
        round(TRIPS); // warm-up: the JIT
        double[] ns = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            ns[r] = round(TRIPS);
        }
        MachineCpu.Shares machine = MachineCpu.between(before, MachineCpu.read());
        double[] sorted = ns.clone();
        Arrays.sort(sorted);
        return String.format(
                Locale.ROOT,
                "round-trip ns=%.1f min-ns=%.1f max-ns=%.1f cpus=%d others=%s steal=%s",
                sorted[ROUNDS / 2],
                sorted[0],
                sorted[ROUNDS - 1],
                cpus,
                machine.others(),
                machine.steal());
    }

    /**
     * One short measurement, for a run's line ({@code --round-trip}): 20,000 trips to warm up, then 50,000 timed, 5-40
     * ms in all; NaN on a machine with one processor.
     */
    public static double now() {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return Double.NaN;
        }
        round(20_000);
        return round(50_000);
    }

    /** Nanoseconds per round trip. */
    private static double round(int trips) {
        AtomicLong ball = new AtomicLong();
        Thread partner = Thread.ofPlatform().name("round-trip-partner").start(() -> {
            for (long i = 1; i <= trips; i++) {
                await(ball, 2 * i - 1);
                ball.set(2 * i);
            }
        });
        long t0 = System.nanoTime();
        for (long i = 1; i <= trips; i++) {
            ball.set(2 * i - 1);
            await(ball, 2 * i);
        }
        long elapsed = System.nanoTime() - t0;
        try {
            partner.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring", e);
        }
        return (double) elapsed / trips;
    }

    /** Spins until {@code ball} holds {@code value}, yielding the core after {@link #SPINS} waits. */
    private static void await(AtomicLong ball, long value) {
        for (int spins = 0; ball.get() != value; spins++) {
            if (spins < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }
}
