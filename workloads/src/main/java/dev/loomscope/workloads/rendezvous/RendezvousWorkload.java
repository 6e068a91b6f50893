package dev.loomscope.workloads.rendezvous;

import dev.loomscope.options.WorkloadOptions.Rendezvous;
import dev.loomscope.workloads.channels.Channels;
import dev.loomscope.workloads.channels.LongChannel;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.core.Workload;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * The rendezvous experiment of the Loom continuation studies: a sender and a receiver thread meet {@code n} times; the
 * sender sends 1..n, the receiver sums, and the sum is checked against n(n+1)/2. Variants: park, park-yield,
 * yield4-park (up to 4 yields before parking), spin1000-park and spin10000-park (a busy loop of that many turns first)
 * on a one-slot channel ({@link dev.loomscope.workloads.channels.ParkChannel}); the same waits in the rendezvous
 * "Limits of Loom's performance" measured, meet-park, meet-yield4-park, meet-spin1000-park and meet-spin10000-park
 * ({@link dev.loomscope.workloads.channels.MeetingChannel}); spin-yield-park, synchronous-queue, exchanger and the
 * allocation-free varhandle; and the Kotlin coroutine baseline the article measured first ({@link KotlinRendezvous}:
 * kotlin-continuations, kotlin-continuations-default, kotlin-channel). The default {@code n} depends on the variant, so
 * that a run on the slower thread kind takes 1-3 s on a 2-core machine (a platform park costs a futex call per message,
 * an exchange a few hundred nanoseconds). {@code --parallelism P} sets the virtual-thread scheduler's parallelism,
 * maxPoolSize and minRunnable to P (the JVM is relaunched with them when needed).
 *
 * <p>{@code java -jar loomscope-workloads.jar rendezvous --threads virtual|platform [--n N] [--variant exchanger]
 * [--parallelism 1]}
 */
public record RendezvousWorkload(ThreadKind kind, long n, String variant, String parallelism) implements Workload {

    /** The Java channels, then the Kotlin coroutine baseline ({@link KotlinRendezvous}). */
    public static final List<String> VARIANTS = Stream.concat(
                    Channels.VARIANTS.stream(), KotlinRendezvous.VARIANTS.stream())
            .toList();

    /** Messages per run when {@code --n} is not given, per variant. */
    public static long defaultN(String variant) {
        return switch (variant) {
            case "park", "park-yield", "yield4-park", "meet-park", "meet-yield4-park" -> 200_000;
            case "synchronous-queue" -> 500_000;
            case "spin-yield-park",
                    "spin1000-park",
                    "spin10000-park",
                    "meet-spin1000-park",
                    "meet-spin10000-park",
                    "varhandle" -> 2_000_000;
            default -> 5_000_000;
        };
    }

    public static RendezvousWorkload of(Args a) {
        ThreadKind kind = ThreadKind.of(a);
        String variant = a.choice(Rendezvous.VARIANT);
        long n = a.longValue(Rendezvous.N, defaultN(variant));
        String p = a.has(Rendezvous.PARALLELISM) ? Integer.toString(a.integer(Rendezvous.PARALLELISM, 0)) : null;
        return new RendezvousWorkload(kind, n, variant, p);
    }

    /** The scheduler properties --parallelism asks for (empty without it). */
    @Override
    public Map<String, String> jvmProperties() {
        return parallelism == null ? Map.of() : Rendezvous.schedulerProperties(Integer.parseInt(parallelism));
    }

    @Override
    public About about() {
        return new About(
                kind.label(),
                "messages",
                "n=" + n + " variant=" + variant + (parallelism == null ? "" : " parallelism=" + parallelism));
    }

    @Override
    public Run run() throws Exception {
        if (KotlinRendezvous.VARIANTS.contains(variant)) {
            return kotlin();
        }
        LongChannel ch = Channels.create(variant);
        long[] sum = new long[1];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread receiver = kind.start("rendezvous-receiver", () -> {
            try {
                long s = 0;
                for (long i = 0; i < n; i++) {
                    s += ch.receive();
                }
                sum[0] = s;
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        });
        Thread sender = kind.start("rendezvous-sender", () -> {
            try {
                for (long i = 1; i <= n; i++) {
                    ch.send(i);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        });
        sender.join();
        receiver.join();
        if (failure.get() != null) {
            throw new IllegalStateException("rendezvous failed: " + failure.get(), failure.get());
        }
        return checked(sum[0]);
    }

    private Run checked(long sum) {
        long expected = n * (n + 1) / 2;
        if (sum != expected) {
            throw new IllegalStateException("sum " + sum + " != n(n+1)/2 = " + expected);
        }
        return Run.of(n);
    }

    /**
     * The Kotlin baseline: its runBlocking on one thread of this workload's kind (the coroutines on it, or on
     * Dispatchers.Default).
     */
    private Run kotlin() throws Exception {
        long[] sum = new long[1];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = kind.start("rendezvous-kotlin", () -> {
            try {
                sum[0] = KotlinRendezvous.run(variant, n);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join();
        if (failure.get() != null) {
            throw new IllegalStateException("rendezvous failed: " + failure.get(), failure.get());
        }
        return checked(sum[0]);
    }
}
