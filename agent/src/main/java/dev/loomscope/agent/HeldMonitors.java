package dev.loomscope.agent;

import dev.loomscope.agent.work.WorkFilter;
import dev.loomscope.events.HeldMonitorEvent;
import dev.loomscope.events.HeldMonitorSampleEvent;
import dev.loomscope.recording.JdkFrames;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Looks at the platform threads about every {@code held-monitors=} period for where a virtual thread in their place
 * would hold its carrier: blocking (parked, sleeping, waiting, in blocking I/O) while it holds a monitor, waiting to
 * enter a monitor, in {@code Object.wait}, blocking under a class initializer, running the application's own native
 * code; spinning in {@code Thread.yield} and running the application's code from one look to the next without blocking,
 * risks to the carriers rather than pins; and waiting for a pool or semaphore, the next ceiling. A look is a
 * {@code loomscope.HeldMonitorSample} event, and the threads it found are {@code loomscope.HeldMonitor} events grouped
 * by what, where and which pool: {@code loomscope advise} reads them from a recording of platform threads. A look stops
 * no thread but the one whose stack it walks, and that one only for the walk (a handshake with it alone; a thread dump
 * with monitors would stop every thread at a safepoint, for longer the more threads there are): the monitors a stack
 * holds are read from its classes' bytecode ({@link MonitorRanges}), and a thread still in the wait it was in at the
 * last look is not walked again. The next look waits so that the looks use at most {@link #BUDGET} of a CPU. Runs on
 * its own daemon thread, one look at a time, the looks {@link #gap} apart: not a fixed period, which a workload
 * repeating at it (a constant-rate client's 100 requests a second, a timer) would meet at the same phase every time, so
 * that every look found the same and the mean missed the time's by as much as a whole thread.
 */
final class HeldMonitors {
    /** Frames a {@code loomscope.HeldMonitor} event keeps of one thread's stack. */
    static final int STACK = 12;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long intervalMillis;
    /** The work= methods, to tell which unit of work a thread found was in; null without work=. */
    private final WorkFilter work;

    private final MonitorRanges monitors = new MonitorRanges();
    private long sample;

    HeldMonitors(long intervalMillis, WorkFilter work) {
        this.intervalMillis = intervalMillis;
        this.work = work == null || work.isEmpty() ? null : work;
    }

    /**
     * JFR's thread that runs periodic events: the agent's other hooks run there (reading /proc, the heap), never a
     * request.
     */
    static final String JFR_PERIODIC = "JFR Periodic Tasks";

    /**
     * Whether a thread so named runs the agent's own code only: its threads, and JFR's periodic one, where its hooks
     * run.
     */
    static boolean ours(String threadName) {
        return threadName.startsWith("loomscope-") || threadName.equals(JFR_PERIODIC);
    }

    /** What one thread was found doing, where, in which pool, in which work= unit (empty when none). */
    record Found(
            String what, String site, String heldAt, String monitorClass, String blockedIn, String group, String unit) {
        Found(String what, String site, String heldAt, String monitorClass, String blockedIn, String group) {
            this(what, site, heldAt, monitorClass, blockedIn, group, "");
        }

        Found in(String unit) {
            return unit == null ? this : new Found(what, site, heldAt, monitorClass, blockedIn, group, unit);
        }
    }

    /**
     * The share of a CPU the looks may use: after a look that used d of CPU time, the next waits at least d / BUDGET
     * from its start (a JVM with thousands of busy threads is looked at less often, never harmed for it).
     */
    static final double BUDGET = HeldMonitorSampleEvent.BUDGET;

    private long nextNanos;
    /** The threads the last look found running the application's code, with their blocked and waited counts then. */
    private Map<Long, Long> running = new HashMap<>();
    /** What the last look saw of each thread, by id: a thread still in the same wait is not walked again. */
    private Map<Long, Seen> seen = new HashMap<>();
    /** This look's stacks walked, and the longest walk, ns. */
    private int walked;

    private long longestWalk;
    private volatile boolean stopped;
    private Thread looker;

    /** Starts the looks on their own daemon thread (never keeps the application alive). */
    void start() {
        // its classes loaded here, beside the agent's start, not by the looks' thread while the application loads its
        // own
        monitors.warm();
        looker = Thread.ofPlatform().name("loomscope-agent-looks").daemon().start(() -> {
            while (!stopped) {
                long wait = nextNanos - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                } else {
                    try {
                        look();
                    } catch (RuntimeException missed) {
                        // a look that failed is missed (the next one a gap later), not the looks ended, nor the host's
                        // stderr written
                    }
                }
            }
        });
    }

    /** Stops the looks; one under way finishes first (up to a second), so that its events are in the recording. */
    void stop() {
        stopped = true;
        if (looker != null) {
            LockSupport.unpark(looker);
            try {
                looker.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The time from one look's start to the next one's, ns: drawn uniformly from half the period to one and a half, so
     * the looks keep the period on average and fall at every phase of a workload that repeats (their gaps not on a
     * lattice); a CPU run found at two looks in a row ran at least half the period.
     */
    long gap() {
        return (long) (intervalMillis * 1e6 * (0.5 + ThreadLocalRandom.current().nextDouble()));
    }

    /** One look, unless the last one's cost asks for a pause still ({@link #BUDGET}). */
    synchronized void look() {
        long now = System.nanoTime();
        if (now < nextNanos) {
            return; // the last look was costly: a pause, within the budget
        }
        long gap = gap();
        nextNanos = now + gap; // the next one's time should this one fail; set again from its cost when it ends
        HeldMonitorSampleEvent s = new HeldMonitorSampleEvent();
        s.begin(); // the look's duration is its thread's time: the stacks walked one thread at a time and the sorting
        long cpu = threads.getCurrentThreadCpuTime();
        Thread[] all = platformThreads();
        sample++;
        walked = 0;
        longestWalk = 0;
        Map<Found, Integer> counts = new LinkedHashMap<>();
        Map<Found, String> stacks = new LinkedHashMap<>();
        int looked = 0;
        Thread self = Thread.currentThread();
        Map<Long, Long> runningNow = new HashMap<>();
        Map<Long, Seen> seenNow = new HashMap<>();
        for (Thread thread : all) {
            if (thread == null || thread == self || ours(thread.getName())) {
                continue;
            }
            Seen t = see(thread, seen.get(thread.threadId()));
            if (t == null) {
                continue; // ended, or changed under each walk: not told at this look
            }
            looked++;
            seenNow.put(thread.threadId(), t);
            StackTraceElement[] st = t.stack();
            Found f = classify(t);
            if (f == null && runsJava(t)) {
                runningNow.put(thread.threadId(), t.blockings());
                Long before = running.get(thread.threadId());
                if (before != null && before == t.blockings()) {
                    // running at the last look too, and it has not blocked or waited since: one burst across both
                    f = new Found(HeldMonitorEvent.BURST, site(st), "", "", frame(st[0]), t.group());
                }
            }
            if (f != null && work != null) {
                String unit = work.unitOf(st);
                // with work= given, a wait for a pool or semaphore outside every unit of work is a server's idle thread
                // waiting for its next task, not a request waiting (without it, only a pool's own: idleInPool)
                f = unit == null && f.what().equals(HeldMonitorEvent.POOL) ? null : f.in(unit);
            }
            if (f != null) {
                counts.merge(f, 1, Integer::sum);
                stacks.putIfAbsent(f, stack(st));
            }
        }
        seen = seenNow;
        running = runningNow;
        s.end();
        long used = cpu < 0 ? -1 : threads.getCurrentThreadCpuTime() - cpu;
        nextNanos = nextLook(now, used < 0 ? System.nanoTime() - now : used, sample, gap);
        s.platformThreads = looked;
        s.interval = intervalMillis;
        s.stacksWalked = walked;
        s.longestWalk = longestWalk;
        s.commit();
        counts.forEach((f, n) -> {
            HeldMonitorEvent e = new HeldMonitorEvent();
            e.sample = sample;
            e.what = f.what();
            e.threads = n;
            e.site = f.site();
            e.heldAt = f.heldAt();
            e.monitorClass = f.monitorClass();
            e.blockedIn = f.blockedIn();
            e.threadGroup = f.group();
            e.work = f.unit();
            e.stack = stacks.get(f);
            e.commit();
        });
    }

    /**
     * When the look after the {@code look}th, begun at {@code start} and using {@code took} ns of CPU (its thread's
     * time where the JVM cannot tell CPU time), comes: {@code gap} after it began, or {@code took / BUDGET} when later,
     * so that the looks use at most {@link #BUDGET} of the time; but not after the first, whose cost is mostly the
     * code's first run (its classes loaded, interpreted): a cold first look of a quarter second on a busy machine would
     * otherwise put the second 25 s later and leave a recording one look.
     */
    static long nextLook(long start, long took, long look, long gap) {
        return look <= 1 ? start + gap : start + Math.max(gap, (long) (took / BUDGET));
    }

    /** The looks taken so far. */
    synchronized long looks() {
        return sample;
    }

    /**
     * What a look saw of one thread: its name, its state and the class of the lock it waits for, its blocked and waited
     * counts, its stack, and the class loader its code is read from.
     */
    record Seen(
            String name,
            Thread.State state,
            String lockClass,
            long blockings,
            StackTraceElement[] stack,
            ClassLoader loader) {
        /** The thread's pool: its name without the trailing number (qtp1234-, http-nio-8080-exec-). */
        String group() {
            return name.replaceAll("[0-9]+$", "");
        }
    }

    /** The live platform threads (the JVM's list, read without stopping them). */
    private static Thread[] platformThreads() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] all = new Thread[root.activeCount() + 64];
        int n = root.enumerate(all, true);
        return n < all.length ? Arrays.copyOf(all, n) : all;
    }

    /**
     * What a thread is doing now: its state and counts read before and after its stack (neither stops it), the stack in
     * a handshake with it alone; when it changed during the walk, walked once more. A thread in the same wait as
     * {@code last} saw (the same state, not runnable, no wait or block begun since) has the same stack and is not
     * walked. Null: it ended, or changed under both walks.
     */
    Seen see(Thread t, Seen last) {
        long id = t.threadId();
        for (int walk = 0; walk < 2; walk++) {
            ThreadInfo before = threads.getThreadInfo(id); // no stack asked for: no safepoint
            if (before == null) {
                return null;
            }
            Thread.State state = before.getThreadState();
            long blockings = before.getBlockedCount() + before.getWaitedCount();
            if (last != null
                    && state != Thread.State.RUNNABLE
                    && last.state() == state
                    && last.blockings() == blockings) {
                return last;
            }
            long start = System.nanoTime();
            StackTraceElement[] st = t.getStackTrace();
            longestWalk = Math.max(longestWalk, System.nanoTime() - start);
            walked++;
            ThreadInfo after = threads.getThreadInfo(id);
            if (after != null
                    && after.getThreadState() == state
                    && after.getBlockedCount() + after.getWaitedCount() == blockings) {
                String lock =
                        before.getLockInfo() == null ? "" : before.getLockInfo().getClassName();
                return new Seen(before.getThreadName(), state, lock, blockings, st, t.getContextClassLoader());
            }
        }
        return null;
    }

    /** What a virtual thread in this thread's place would hold its carrier through now; null: nothing. */
    Found classify(Seen t) {
        StackTraceElement[] st = t.stack();
        if (st.length == 0) {
            return null;
        }
        StackTraceElement top = st[0];
        String site = site(st);
        if (site == null) {
            return null; // the JDK's own threads (reference handler, signal dispatcher, a JDK pool's idle worker)
        }
        String group = t.group();
        Thread.State state = t.state();
        boolean waiting = state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
        boolean blockingIo =
                state == Thread.State.RUNNABLE && top.isNativeMethod() && JdkFrames.isJdk(top.getClassName());
        boolean blocking = waiting || state == Thread.State.BLOCKED || blockingIo;
        StackTraceElement clinit = blocking ? firstClinit(st) : null;
        if (clinit != null) {
            return new Found(HeldMonitorEvent.CLASS_INIT, site, frame(clinit), "", frame(top), group);
        }
        if (state == Thread.State.BLOCKED) {
            return new Found(HeldMonitorEvent.ENTERING, site, frame(top), t.lockClass(), frame(top), group);
        }
        if (waiting
                && top.getClassName().equals("java.lang.Object")
                && top.getMethodName().startsWith("wait")
                && !jdkWaits(st)) {
            return new Found(HeldMonitorEvent.OBJECT_WAIT, site, frame(top), t.lockClass(), frame(top), group);
        }
        if (state == Thread.State.RUNNABLE && JdkFrames.isSpin(top.getClassName(), top.getMethodName())) {
            return new Found(HeldMonitorEvent.SPINS, site, "", "", frame(top), group);
        }
        if (state == Thread.State.RUNNABLE && top.isNativeMethod() && !JdkFrames.isJdk(top.getClassName())) {
            return new Found(HeldMonitorEvent.NATIVE, site, "", "", frame(top), group);
        }
        MonitorRanges.Held held = blocking ? monitors.heldBy(st, t.loader()) : null;
        if (held != null) {
            return new Found(
                    HeldMonitorEvent.HOLDING, site, frame(held.frame()), held.monitorClass(), frame(top), group);
        }
        if (waiting
                && top.getClassName().equals("jdk.internal.misc.Unsafe")
                && top.getMethodName().equals("park")) {
            StackTraceElement pool = poolFrame(st);
            if ((pool != null || t.lockClass().startsWith("java.util.concurrent.Semaphore$")) && !idleInPool(st)) {
                return new Found(HeldMonitorEvent.POOL, site, frame(pool), t.lockClass(), frame(top), group);
            }
        }
        return null;
    }

    /**
     * Whether the code that called Object.wait is the JDK's (a ReferenceQueue's remove, as a library's cleaner thread
     * waits): the JDK's own monitor, which the JDK handles on virtual threads as it sees fit, left out as its monitors
     * held are.
     */
    static boolean jdkWaits(StackTraceElement[] st) {
        for (StackTraceElement f : st) {
            if (!f.getClassName().equals("java.lang.Object")) {
                return JdkFrames.isJdk(f.getClassName());
            }
        }
        return false;
    }

    /**
     * Whether every frame on the stack that is not the JDK's is a thread pool's own (a class whose name says
     * {@code ThreadPool} or {@code Executor}, its outer classes' included): the pool's thread waiting for its next
     * task, not a request waiting for a pool. Jetty's reserved threads wait so on a {@code Semaphore}
     * ({@code QueuedThreadPool$Runner.run} calling {@code ReservedThreadExecutor$ReservedThread}); a request's wait has
     * the server's and the application's frames beneath it.
     */
    static boolean idleInPool(StackTraceElement[] st) {
        boolean any = false;
        for (StackTraceElement f : st) {
            String c = f.getClassName();
            if (JdkFrames.isJdk(c)) {
                continue;
            }
            String simple = c.substring(c.lastIndexOf('.') + 1);
            if (!simple.contains("ThreadPool") && !simple.contains("Executor")) {
                return false;
            }
            any = true;
        }
        return any;
    }

    /**
     * The frame that asked a pool or semaphore for something (a method named borrow*, acquire*, lease* or
     * getConnection, as JDBC pools, object pools and HTTP clients' connection pools name it) nearest the top, not the
     * JDK's (whose locks acquire too: a JDK Semaphore is told by its blocker); null when none.
     */
    static StackTraceElement poolFrame(StackTraceElement[] st) {
        for (StackTraceElement f : st) {
            String m = f.getMethodName();
            if (JdkFrames.isJdk(f.getClassName())) {
                continue;
            }
            if (m.startsWith("borrow")
                    || m.startsWith("acquire")
                    || m.startsWith("lease")
                    || m.equals("getConnection")) {
                return f;
            }
        }
        return null;
    }

    /**
     * Whether the thread runs Java code for the application now: runnable, not in a native method (a JDK native method
     * there is blocking I/O, which a virtual thread would unmount for), with an application frame on its stack (the
     * JDK's code it calls counts: a regex, a digest, a parser).
     */
    static boolean runsJava(Seen t) {
        StackTraceElement[] st = t.stack();
        return t.state() == Thread.State.RUNNABLE && st.length > 0 && !st[0].isNativeMethod() && site(st) != null;
    }

    /** The topmost application frame (not the JDK's), or null when the stack is the JDK's alone. */
    private static String site(StackTraceElement[] st) {
        for (StackTraceElement f : st) {
            if (!JdkFrames.isJdk(f.getClassName())) {
                return frame(f);
            }
        }
        return null;
    }

    private static StackTraceElement firstClinit(StackTraceElement[] st) {
        for (StackTraceElement f : st) {
            if (f.getMethodName().equals("<clinit>")) {
                return f;
            }
        }
        return null;
    }

    /** {@code class.method(File:line)}, the form stack traces print. */
    static String frame(StackTraceElement f) {
        if (f == null) {
            return "";
        }
        String where = f.isNativeMethod()
                ? "Native Method"
                : f.getFileName() == null
                        ? "Unknown Source"
                        : f.getLineNumber() >= 0 ? f.getFileName() + ":" + f.getLineNumber() : f.getFileName();
        return f.getClassName() + "." + f.getMethodName() + "(" + where + ")";
    }

    private static String stack(StackTraceElement[] st) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(STACK, st.length); i++) {
            b.append(i == 0 ? "" : "\n").append(frame(st[i]));
        }
        return b.toString();
    }
}
