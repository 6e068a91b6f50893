package dev.loomscope.workloads.stuck;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.loomscope.options.WorkloadOptions.Stuck;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.BadArgumentException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A service that stops, as real ones do: two virtual threads deadlocked on monitors or on ReentrantLocks, or every
 * carrier held by a virtual thread pinned while it waits for a lock whose owner, a virtual thread, cannot get a carrier
 * to release it (pinned in a class initializer on any JDK; in {@code synchronized} on JDK 21-23, the pattern of the
 * 2024 incident Netflix wrote up). It sticks for good ({@code busy}: it does not, though every carrier is busy);
 * {@code --dump} writes the JDK's JSON thread dump of it, {@code --hold} ends the JVM after a while.
 */
public final class StuckService {
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final ReentrantLock OTHER = new ReentrantLock();
    private static final Object LEFT = new Object();
    private static final Object RIGHT = new Object();
    /** How long the lock's owner sleeps holding it: the pinned threads arrive meanwhile. */
    private static final long OWNER_SLEEP_MS = 200;

    /**
     * A class whose initializer waits for the lock: every virtual thread that touches it first is pinned until it is
     * initialised.
     */
    static final class Registry {
        static {
            LOCK.lock();
            LOCK.unlock();
        }

        static void touch() {}
    }

    private StuckService() {}

    /** Runs the case the options name; returns the exit code. */
    public static int run(Args a) throws Exception {
        String kase = a.choice(Stuck.CASE);
        int carriers = a.integer(Stuck.CARRIERS);
        int waiters = a.integer(Stuck.WAITERS);
        String dump = a.string(Stuck.DUMP);
        int hold = a.integer(Stuck.HOLD);
        a.rejectUnknown("stuck");
        Path dumpFile = dump == null ? null : Path.of(dump).toAbsolutePath();
        if (dumpFile != null
                && (Files.exists(dumpFile)
                        || dumpFile.getParent() == null
                        || !Files.isDirectory(dumpFile.getParent()))) {
            throw new BadArgumentException("--dump " + dump + ": "
                    + (Files.exists(dumpFile)
                            ? "exists (the JDK writes a new file only; remove it or name another)"
                            : "there is no directory " + dumpFile.getParent() + " to write it in"));
        }
        // before the first virtual thread: the scheduler reads these once
        System.setProperty("jdk.virtualThreadScheduler.parallelism", Integer.toString(carriers));
        System.setProperty("jdk.virtualThreadScheduler.maxPoolSize", Integer.toString(carriers));
        String what = switch (kase) {
            case "monitor" -> deadlock(waiters, true);
            case "lock" -> deadlock(waiters, false);
            case "busy" -> busy(waiters);
            case "held" -> held(waiters);
            default -> starvation(kase.equals("clinit"), carriers, waiters);
        };
        System.out.println("stuck: " + kase + " (pid " + ProcessHandle.current().pid() + ", " + carriers
                + " carriers, JDK " + Runtime.version().feature() + "): " + what);
        System.out.flush();
        if (dumpFile != null) {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .dumpThreads(dumpFile.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            System.out.println("stuck: thread dump written to " + dumpFile);
        }
        if (hold > 0) {
            Thread.sleep(hold * 1000L);
            System.out.println("stuck: held " + hold + " s; exiting");
        } else if (dumpFile == null) {
            Thread.currentThread().join(); // until killed
        }
        return 0;
    }

    /** Virtual threads that compute 1 ms and yield, over and over: busy carriers, nothing stuck. */
    private static String busy(int threads) {
        for (int i = 0; i < threads; i++) {
            Thread.ofVirtual().name("busy-" + i).start(() -> {
                double x = 0;
                while (true) {
                    for (long end = System.nanoTime() + 1_000_000; System.nanoTime() < end; ) {
                        x += Math.sqrt(x + 1);
                    }
                    BUSY_SINK = x;
                    Thread.yield();
                }
            });
        }
        return threads
                + " virtual threads compute 1 ms and yield, over and over: every carrier busy, every thread moving";
    }

    static volatile double BUSY_SINK;

    /**
     * A class whose initializer sleeps for good: the virtual thread that initializes it holds its carrier (a class
     * initializer pins on every JDK).
     */
    static final class Sleeper {
        static {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {}
    }

    /**
     * One carrier held for good by a virtual thread pinned in {@link Sleeper}'s initializer, and {@link #busy} threads
     * on the rest.
     */
    private static String held(int threads) throws InterruptedException {
        Thread.ofVirtual().name("pinned").start(Sleeper::touch);
        Thread.sleep(100);
        busy(threads);
        Thread.sleep(300);
        return "\"pinned\" holds a carrier, sleeping in a class initializer; " + threads
                + " virtual threads compute 1 ms and yield, over and over, on the other carriers";
    }

    /** Two virtual threads taking two locks in opposite orders, and waiters for the first lock. */
    private static String deadlock(int waiters, boolean monitors) throws InterruptedException {
        CountDownLatch both = new CountDownLatch(2);
        Runnable left = monitors ? () -> nested(LEFT, RIGHT, both) : () -> locked(LOCK, OTHER, both);
        Runnable right = monitors ? () -> nested(RIGHT, LEFT, both) : () -> locked(OTHER, LOCK, both);
        Thread.ofVirtual().name("left").start(left);
        Thread.ofVirtual().name("right").start(right);
        Thread.sleep(100);
        for (int i = 0; i < waiters; i++) {
            Thread.ofVirtual()
                    .name("waiter-" + i)
                    .start(
                            monitors
                                    ? () -> {
                                        synchronized (LEFT) {
                                            both.countDown();
                                        }
                                    }
                                    : () -> {
                                        LOCK.lock();
                                        LOCK.unlock();
                                    });
        }
        Thread.sleep(300);
        return "\"left\" holds " + (monitors ? "monitor LEFT and waits for RIGHT" : "lock LOCK and waits for OTHER")
                + ", \"right\" the other way round, " + waiters + " waiters wait for " + (monitors ? "LEFT" : "LOCK");
    }

    private static void meet(CountDownLatch both) {
        both.countDown();
        try {
            both.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void nested(Object first, Object second, CountDownLatch both) {
        synchronized (first) {
            meet(both);
            synchronized (second) {
                both.countDown();
            }
        }
    }

    private static void locked(ReentrantLock first, ReentrantLock second, CountDownLatch both) {
        first.lock();
        try {
            meet(both);
            second.lock();
            second.unlock();
        } finally {
            first.unlock();
        }
    }

    /**
     * The owner takes the lock and sleeps (unmounted); one pinned virtual thread a carrier then waits for the lock (in
     * a class initializer, or in a synchronized block of its own); when the owner wakes, no carrier is free to run it,
     * and the waiters started after never run.
     */
    private static String starvation(boolean clinit, int carriers, int waiters) throws InterruptedException {
        if (!clinit && Runtime.version().feature() >= 24) {
            System.out.println("stuck: JDK " + Runtime.version().feature()
                    + ": synchronized does not pin a virtual thread from JDK 24 on (JEP 491): the sync case does not"
                    + " stick here (the clinit case does)");
        }
        Thread.ofVirtual().name("owner").start(() -> {
            LOCK.lock();
            try {
                Thread.sleep(OWNER_SLEEP_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                LOCK.unlock();
            }
        });
        Thread.sleep(50);
        for (int i = 0; i < carriers; i++) {
            Object own = new Object();
            Thread.ofVirtual()
                    .name("pinned-" + i)
                    .start(
                            clinit
                                    ? Registry::touch
                                    : () -> {
                                        synchronized (own) {
                                            LOCK.lock();
                                            LOCK.unlock();
                                        }
                                    });
        }
        Thread.sleep(50);
        for (int i = 0; i < waiters; i++) {
            Thread.ofVirtual().name("waiter-" + i).start(() -> {});
        }
        Thread.sleep(OWNER_SLEEP_MS + 300);
        if (!clinit && Runtime.version().feature() >= 24) {
            return carriers
                    + " virtual thread(s) waited in synchronized for a lock, unmounted, and went on: nothing is stuck";
        }
        return carriers + " virtual thread(s) pinned "
                + (clinit ? "in Registry's class initializer" : "in synchronized") + " waiting for a lock whose"
                + " owner woke from its sleep and needs a carrier; " + waiters
                + " virtual threads started after wait to run";
    }
}
