package dev.loomscope.agent;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.loomscope.agent.log.AgentLog;
import dev.loomscope.events.SchedulerStallEvent;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Watches the virtual thread scheduler for a stall: once the application runs virtual threads (a carrier thread
 * exists), the agent starts a small virtual thread of its own whenever none of its is waiting; when one has not run for
 * {@code stall=} and the carriers took no virtual thread from another queue all that time (the scheduler's steal count
 * did not move), no virtual thread could get a carrier (every carrier held: pinned threads waiting, a deadlock among
 * them, endless work). Carriers busy with threads that yield and move are not a stall, and neither is a JVM that did
 * not run (a tick of the watcher's that comes seconds late: SIGSTOP, a suspended container). Then it writes two JSON
 * thread dumps a second apart beside the recording ({@code loomscope threads} tells what holds the carriers and what
 * did not move), records a {@code loomscope.SchedulerStall} event and prints one line; the application runs on. It
 * never starts a virtual thread in an application that runs none (that would start the scheduler).
 */
final class StallWatch {
    /** Stalls dumped per JVM; later ones are events and lines only. */
    static final int MAX_DUMPED = 3;

    private static final String CARRIER_CLASS = "jdk.internal.misc.CarrierThread";

    private final Session session;
    private final Duration stall;
    private final OutputFiles files;
    private int stalls;

    private StallWatch(Session session, Duration stall, OutputFiles files) {
        this.session = session;
        this.stall = stall;
        this.files = files;
    }

    /** Starts watching on a daemon thread unless {@code stall} is zero (off). */
    static void start(Session session, Duration stall, OutputFiles files) {
        if (stall.isZero()) {
            return;
        }
        Thread.ofPlatform()
                .name("loomscope-agent-stall")
                .daemon()
                .start(() -> new StallWatch(session, stall, files).watch());
    }

    private void watch() {
        long tick = Math.max(100, Math.min(1000, stall.toMillis() / 5));
        // a tick that comes this late means this JVM did not run (SIGSTOP, a suspended container): no scheduler starves
        // then
        long stopped = Math.max(2_000, stall.toMillis() / 2) * 1_000_000L;
        boolean carriers = false;
        AtomicBoolean ran = null;
        long since = 0;
        long steals = 0;
        boolean reported = false;
        try {
            while (!session.isFinished()) {
                long before = System.nanoTime();
                Thread.sleep(tick);
                if (System.nanoTime() - before - tick * 1_000_000L > stopped) {
                    ran = null; // the probe's wait began before the JVM stopped: start again
                    reported = false;
                    continue;
                }
                if (!carriers) {
                    // the carriers' thread group, which the JDK makes with the first carrier: a look at the groups, not
                    // at every thread
                    carriers = PinnedTracer.virtualThreadsRan();
                    continue;
                }
                if (ran == null) {
                    AtomicBoolean flag = new AtomicBoolean();
                    Thread.ofVirtual().name("loomscope-agent-probe").start(() -> flag.set(true));
                    ran = flag;
                    since = System.nanoTime();
                    steals = steals();
                } else if (ran.get()) {
                    if (reported) {
                        AgentLog.warn(String.format(
                                Locale.ROOT,
                                "virtual threads get carriers again, after %.1f s",
                                (System.nanoTime() - since) / 1e9));
                    }
                    ran = null;
                    reported = false;
                } else if (!reported && System.nanoTime() - since >= stall.toNanos()) {
                    long now = steals();
                    if (now != steals) {
                        // the probe waits, but virtual threads move from carrier to carrier: a saturated queue that
                        // moves is no stall
                        steals = now;
                        since = System.nanoTime() - stall.toNanos() / 2;
                        continue;
                    }
                    report(Duration.ofNanos(System.nanoTime() - since), ran);
                    reported = true;
                }
            }
        } catch (InterruptedException exiting) {
            // the JVM is exiting
        } catch (Throwable t) {
            AgentLog.failure("stopped watching the virtual thread scheduler", t);
        }
    }

    /**
     * The virtual thread scheduler, a ForkJoinPool, where this JDK lets the agent reach it; else null (every probe's
     * wait is a stall).
     */
    private static volatile ForkJoinPool scheduler;

    /** Reaches the scheduler through {@link SchedulerAccess}, java.lang opened to it alone. */
    static void open(Instrumentation inst) {
        if (inst == null) {
            return;
        }
        try {
            Class<?> access = new IsolatedLoader("loomscope-scheduler-access").define(SchedulerAccess.class.getName());
            inst.redefineModule(
                    Object.class.getModule(),
                    Set.of(),
                    Map.of(),
                    Map.of("java.lang", Set.of(access.getModule())),
                    Set.of(),
                    Map.of());
            if (access.getMethod("scheduler").invoke(null) instanceof ForkJoinPool pool) {
                scheduler = pool;
            }
        } catch (Throwable t) {
            // a JDK whose scheduler is elsewhere: stalls are told by the probe alone
        }
    }

    /**
     * Tasks the scheduler's carriers took from queues other than their own (virtual threads moving), or -1 when not
     * known.
     */
    private static long steals() {
        ForkJoinPool pool = scheduler;
        return pool == null ? -1 : pool.getStealCount();
    }

    /** The scheduler's carrier threads alive now. */
    private static List<Thread> carriers() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] all = new Thread[root.activeCount() * 2 + 16];
        int n = root.enumerate(all, true);
        List<Thread> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (all[i].getClass().getName().equals(CARRIER_CLASS)) {
                out.add(all[i]);
            }
        }
        return out;
    }

    private void report(Duration waited, AtomicBoolean ran) throws InterruptedException {
        stalls++;
        List<Thread> carriers = carriers();
        int blocked = (int) carriers.stream()
                .filter(c -> c.getState() != Thread.State.RUNNABLE)
                .count();
        List<Path> dumps = new ArrayList<>();
        String why = null;
        if (stalls > MAX_DUMPED) {
            why = "no dumps: " + MAX_DUMPED + " stalls were dumped already";
        } else {
            try {
                dumps.add(dump("a"));
                Thread.sleep(1000);
                if (!ran.get()) {
                    dumps.add(dump("b"));
                }
            } catch (Exception e) {
                why = "the thread dump failed: " + e;
            }
        }
        SchedulerStallEvent e = new SchedulerStallEvent();
        e.waited = waited.toMillis();
        e.carriers = carriers.size();
        e.carriersBlocked = blocked;
        e.queuedVirtualThreads = PeriodicEvents.queuedVirtualThreads();
        e.dumps = String.join(";", dumps.stream().map(Path::toString).toList());
        e.commit();
        String what = blocked > 0 || carriers.isEmpty()
                ? String.format(
                        Locale.ROOT,
                        "no virtual thread got a carrier for %.1f s (%d carriers, %d of them blocked or waiting)",
                        waited.toNanos() / 1e9,
                        carriers.size(),
                        blocked)
                : String.format(
                        Locale.ROOT,
                        "no queued virtual thread got a carrier for %.1f s: every carrier (%d) kept running virtual"
                                + " threads that did not leave it (none blocked or waiting: endless work, or on JDK"
                                + " 21-23 threads that yield, which are run again before those queued)",
                        waited.toNanos() / 1e9,
                        carriers.size());
        if (fellBack != null && !dumps.isEmpty()) {
            what += " (the JDK could not write the dump as JSON, " + fellBack
                    + ": plain-text dumps instead, which loomscope threads reads too)";
            fellBack = null;
        }
        AgentLog.warn(String.format(
                Locale.ROOT,
                "%s: %s; the application runs on",
                what,
                dumps.isEmpty()
                        ? why
                        : "thread dumps written, 'loomscope threads "
                                + String.join(
                                        " ", dumps.stream().map(Path::toString).toList()) + "' tells what holds them"));
    }

    /**
     * A JSON thread dump beside the recording; written by the JDK where only this user can read (the repository), then
     * published. Where the JDK cannot write it as JSON (JDK 21-25 fail on a thread name with a control character), its
     * plain-text dump instead, which {@code loomscope threads} reads too, said in {@link #fellBack}. A dump that fails
     * leaves no file.
     */
    private Path dump(String which) throws Exception {
        if (Files.getFileStore(files.dir()).getUsableSpace() < DiskGuard.STOP_FREE_BYTES) {
            throw new IllegalStateException("too little free space in " + files.dir());
        }
        HotSpotDiagnosticMXBean diagnostic = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        String suffix = "-stall-" + stalls + which + ".threads";
        Path staging = null;
        try {
            staging = staging(suffix + ".json");
            try {
                diagnostic.dumpThreads(staging.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
                return publish(staging, suffix + ".json");
            } catch (RuntimeException jsonFailed) {
                Files.deleteIfExists(staging);
                fellBack = jsonFailed.toString();
                staging = staging(suffix + ".txt");
                diagnostic.dumpThreads(staging.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
                return publish(staging, suffix + ".txt");
            }
        } catch (Exception | Error e) {
            if (staging != null) {
                Files.deleteIfExists(staging);
            }
            throw e;
        }
    }

    /** Why the last dump is plain text, or null. */
    private String fellBack;

    private Path staging(String suffix) {
        return session.repository() != null
                ? session.repository().resolve(suffix.substring(1))
                : files.dir().resolve("." + System.nanoTime() + suffix + ".part");
    }

    private Path publish(Path staging, String suffix) throws IOException {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            // as the .jfr: stacks, names
            Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rw-------"));
        }
        return files.publish(staging, suffix);
    }
}
