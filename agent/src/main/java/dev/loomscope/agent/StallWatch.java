package dev.loomscope.agent;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.loomscope.events.SchedulerStallEvent;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Watches the virtual thread scheduler for a stall: once the application runs virtual threads (a
 * carrier thread exists), the agent starts a small virtual thread of its own whenever none of its
 * is waiting; when one has not run for {@code stall=}, no virtual thread could get a carrier all
 * that time (every carrier held: pinned threads waiting, a deadlock among them, endless work).
 * Then it writes two JSON thread dumps a second apart beside the recording ({@code loomscope
 * threads} tells what holds the carriers and what did not move), records a
 * {@code loomscope.SchedulerStall} event and prints one line; the application runs on. It never
 * starts a virtual thread in an application that runs none (that would start the scheduler).
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
        Thread t = new Thread(() -> new StallWatch(session, stall, files).watch(), "loomscope-agent-stall");
        t.setDaemon(true);
        t.start();
    }

    private void watch() {
        long tick = Math.max(100, Math.min(1000, stall.toMillis() / 5));
        boolean carriers = false;
        AtomicBoolean ran = null;
        long since = 0;
        boolean reported = false;
        try {
            while (!session.isFinished()) {
                Thread.sleep(tick);
                if (!carriers) {
                    // the carriers' thread group, which the JDK makes with the first carrier: a look at the groups, not at every thread
                    carriers = PinnedTracer.virtualThreadsRan();
                    continue;
                }
                if (ran == null) {
                    AtomicBoolean flag = new AtomicBoolean();
                    Thread.ofVirtual().name("loomscope-agent-probe").start(() -> flag.set(true));
                    ran = flag;
                    since = System.nanoTime();
                } else if (ran.get()) {
                    if (reported) {
                        AgentLog.warn(String.format(java.util.Locale.ROOT, "virtual threads get carriers again, after %.1f s",
                                (System.nanoTime() - since) / 1e9));
                    }
                    ran = null;
                    reported = false;
                } else if (!reported && System.nanoTime() - since >= stall.toNanos()) {
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
        int blocked = (int) carriers.stream().filter(c -> c.getState() != Thread.State.RUNNABLE).count();
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
        AgentLog.warn(String.format(java.util.Locale.ROOT, "no virtual thread got a carrier for %.1f s (%d carriers, %d of them blocked or waiting):"
                + " %s; the application runs on", waited.toNanos() / 1e9, carriers.size(), blocked, dumps.isEmpty() ? why
                : "thread dumps written, 'loomscope threads " + String.join(" ", dumps.stream().map(Path::toString).toList()) + "' tells what holds them"));
    }

    /** A JSON thread dump beside the recording; written by the JDK where only this user can read (the repository), then published. */
    private Path dump(String which) throws Exception {
        if (Files.getFileStore(files.dir()).getUsableSpace() < DiskGuard.STOP_FREE_BYTES) {
            throw new IllegalStateException("too little free space in " + files.dir());
        }
        String suffix = "-stall-" + stalls + which + ".threads.json";
        Path staging = session.repository() != null ? session.repository().resolve("stall" + suffix) : files.dir().resolve("." + System.nanoTime() + suffix + ".part");
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(staging.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        if (java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(staging, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")); // as the .jfr: stacks, names
        }
        return files.publish(staging, suffix);
    }
}
