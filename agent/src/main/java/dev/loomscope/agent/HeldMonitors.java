package dev.loomscope.agent;

import dev.loomscope.agent.work.WorkFilter;
import dev.loomscope.events.HeldMonitorEvent;
import dev.loomscope.events.HeldMonitorSampleEvent;
import dev.loomscope.recording.JdkFrames;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Looks at the platform threads about every {@code held-monitors=} period for where a virtual
 * thread in their place would hold its carrier: blocking (parked, sleeping, waiting, in blocking
 * I/O) while it holds a monitor, waiting to enter a monitor, in {@code Object.wait}, blocking under
 * a class initializer, running the application's own native code; spinning in {@code Thread.yield}
 * and running the application's code from one look to the next without blocking, risks to the
 * carriers rather than pins; and waiting for a pool or semaphore, the next ceiling. A look is a
 * {@code loomscope.HeldMonitorSample} event, and the threads it found are {@code
 * loomscope.HeldMonitor} events grouped by what, where and which pool: {@code loomscope advise}
 * reads them from a recording of platform threads. The JVM's thread dump with monitors is taken at
 * a safepoint, and its cost grows with the threads: the next look waits so that the looks take at
 * most {@link #BUDGET} of the time. Runs on its own daemon thread, one look at a time, the looks
 * {@link #gap} apart: not a fixed period, which a workload repeating at it (a constant-rate
 * client's 100 requests a second, a timer) would meet at the same phase every time, so that every
 * look found the same and the mean missed the time's by as much as a whole thread.
 */
final class HeldMonitors {
    /** Frames a {@code loomscope.HeldMonitor} event keeps of one thread's stack. */
    static final int STACK = 12;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long intervalMillis;
    /** The work= methods, to tell which unit of work a thread found was in; null without work=. */
    private final WorkFilter work;
    private long sample;

    HeldMonitors(long intervalMillis, WorkFilter work) {
        this.intervalMillis = intervalMillis;
        this.work = work == null || work.isEmpty() ? null : work;
    }

    /** JFR's thread that runs periodic events: the agent's other hooks run there (reading /proc, the heap), never a request. */
    static final String JFR_PERIODIC = "JFR Periodic Tasks";

    /** Whether a thread so named runs the agent's own code only: its threads, and JFR's periodic one, where its hooks run. */
    static boolean ours(String threadName) {
        return threadName.startsWith("loomscope-") || threadName.equals(JFR_PERIODIC);
    }

    /** What one thread was found doing, where, in which pool, in which work= unit (empty when none). */
    record Found(String what, String site, String heldAt, String monitorClass, String blockedIn, String group, String unit) {
        Found(String what, String site, String heldAt, String monitorClass, String blockedIn, String group) {
            this(what, site, heldAt, monitorClass, blockedIn, group, "");
        }

        Found in(String unit) {
            return unit == null ? this : new Found(what, site, heldAt, monitorClass, blockedIn, group, unit);
        }
    }

    /**
     * The share of the time the looks may take: after a look of d, the next waits at least d / BUDGET
     * from its start (a JVM with thousands of threads is looked at less often, never harmed for it).
     */
    static final double BUDGET = HeldMonitorSampleEvent.BUDGET;

    private long nextNanos;
    /** The threads the last look found running the application's code, with their blocked and waited counts then. */
    private Map<Long, Long> running = new HashMap<>();
    private volatile boolean stopped;
    private Thread looker;

    /** Starts the looks on their own daemon thread (never keeps the application alive). */
    void start() {
        looker = Thread.ofPlatform().name("loomscope-agent-looks").daemon().start(() -> {
            while (!stopped) {
                long wait = nextNanos - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                } else {
                    try {
                        look();
                    } catch (RuntimeException missed) {
                        // a look that failed is missed (the next one a gap later), not the looks ended, nor the host's stderr written
                    }
                }
            }
        });
    }

    /** Stops the looks; one under way finishes first (up to a second), so that its events are in the recording. */
    void stop() {
        stopped = true;
        if (looker != null) {
            java.util.concurrent.locks.LockSupport.unpark(looker);
            try {
                looker.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The time from one look's start to the next one's, ns: drawn uniformly from half the period to
     * one and a half, so the looks keep the period on average and fall at every phase of a workload
     * that repeats (their gaps not on a lattice); a CPU run found at two looks in a row ran at least
     * half the period.
     */
    long gap() {
        return (long) (intervalMillis * 1e6 * (0.5 + java.util.concurrent.ThreadLocalRandom.current().nextDouble()));
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
        s.begin(); // the look's duration is its cost: the thread dump at a safepoint and the sorting
        ThreadInfo[] all;
        try {
            all = threads.dumpAllThreads(true, false);
        } catch (RuntimeException | LinkageError unavailable) {
            return; // a look missed is no harm
        }
        sample++;
        Map<Found, Integer> counts = new LinkedHashMap<>();
        Map<Found, String> stacks = new LinkedHashMap<>();
        int looked = 0;
        long self = Thread.currentThread().threadId();
        Map<Long, Long> runningNow = new HashMap<>();
        for (ThreadInfo t : all) {
            if (t == null || t.getThreadId() == self || ours(t.getThreadName())) {
                continue;
            }
            looked++;
            StackTraceElement[] st = t.getStackTrace(); // a copy each call: taken once a thread
            Found f = classify(t, st);
            if (f == null && runsJava(t, st)) {
                long blockings = t.getBlockedCount() + t.getWaitedCount();
                runningNow.put(t.getThreadId(), blockings);
                Long before = running.get(t.getThreadId());
                if (before != null && before == blockings) {
                    // running at the last look too, and it has not blocked or waited since: one burst across both
                    f = new Found(HeldMonitorEvent.BURST, site(st), "", "", frame(st[0]), group(t));
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
        running = runningNow;
        s.end();
        nextNanos = nextLook(now, System.nanoTime() - now, sample, gap);
        s.platformThreads = looked;
        s.interval = intervalMillis;
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
     * When the look after the {@code look}th, begun at {@code start} and taking {@code took} ns, comes:
     * {@code gap} after it began, or {@code took / BUDGET} when later, so that the looks take at most
     * {@link #BUDGET} of the time; but not after the first, whose cost is mostly the code's first run
     * (its classes loaded, interpreted): a cold first look of a quarter second on a busy machine would
     * otherwise put the second 25 s later and leave a recording one look.
     */
    static long nextLook(long start, long took, long look, long gap) {
        return look <= 1 ? start + gap : start + Math.max(gap, (long) (took / BUDGET));
    }

    /** The looks taken so far. */
    synchronized long looks() {
        return sample;
    }

    /** What a virtual thread in this thread's place would hold its carrier through now; null: nothing. */
    static Found classify(ThreadInfo t) {
        return classify(t, t.getStackTrace());
    }

    /** {@link #classify(ThreadInfo)} with the thread's stack taken already. */
    private static Found classify(ThreadInfo t, StackTraceElement[] st) {
        if (st.length == 0) {
            return null;
        }
        StackTraceElement top = st[0];
        String site = site(st);
        if (site == null) {
            return null; // the JDK's own threads (reference handler, signal dispatcher, a JDK pool's idle worker)
        }
        String group = group(t);
        Thread.State state = t.getThreadState();
        boolean waiting = state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
        boolean blockingIo = state == Thread.State.RUNNABLE && top.isNativeMethod() && JdkFrames.isJdk(top.getClassName());
        boolean blocking = waiting || state == Thread.State.BLOCKED || blockingIo;
        StackTraceElement clinit = blocking ? firstClinit(st) : null;
        if (clinit != null) {
            return new Found(HeldMonitorEvent.CLASS_INIT, site, frame(clinit), "", frame(top), group);
        }
        if (state == Thread.State.BLOCKED) {
            String monitor = t.getLockInfo() == null ? "" : t.getLockInfo().getClassName();
            return new Found(HeldMonitorEvent.ENTERING, site, frame(top), monitor, frame(top), group);
        }
        if (waiting && top.getClassName().equals("java.lang.Object") && top.getMethodName().startsWith("wait") && !jdkWaits(st)) {
            String monitor = t.getLockInfo() == null ? "" : t.getLockInfo().getClassName();
            return new Found(HeldMonitorEvent.OBJECT_WAIT, site, frame(top), monitor, frame(top), group);
        }
        if (state == Thread.State.RUNNABLE && JdkFrames.isSpin(top.getClassName(), top.getMethodName())) {
            return new Found(HeldMonitorEvent.SPINS, site, "", "", frame(top), group);
        }
        if (state == Thread.State.RUNNABLE && top.isNativeMethod() && !JdkFrames.isJdk(top.getClassName())) {
            return new Found(HeldMonitorEvent.NATIVE, site, "", "", frame(top), group);
        }
        if (blocking) {
            MonitorInfo held = deepestHeld(t.getLockedMonitors());
            if (held != null) {
                return new Found(HeldMonitorEvent.HOLDING, site, frame(held.getLockedStackFrame()), held.getClassName(), frame(top), group);
            }
        }
        if (waiting && top.getClassName().equals("jdk.internal.misc.Unsafe") && top.getMethodName().equals("park")) {
            StackTraceElement pool = poolFrame(st);
            String blocker = t.getLockInfo() == null ? "" : t.getLockInfo().getClassName();
            if ((pool != null || blocker.startsWith("java.util.concurrent.Semaphore$")) && !idleInPool(st)) {
                return new Found(HeldMonitorEvent.POOL, site, frame(pool), blocker, frame(top), group);
            }
        }
        return null;
    }

    /**
     * Whether the code that called Object.wait is the JDK's (a ReferenceQueue's remove, as a
     * library's cleaner thread waits): the JDK's own monitor, which the JDK handles on virtual
     * threads as it sees fit, left out as its monitors held are.
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
     * Whether every frame on the stack that is not the JDK's is a thread pool's own (a class whose
     * name says {@code ThreadPool} or {@code Executor}, its outer classes' included): the pool's
     * thread waiting for its next task, not a request waiting for a pool. Jetty's reserved threads
     * wait so on a {@code Semaphore} ({@code QueuedThreadPool$Runner.run} calling {@code
     * ReservedThreadExecutor$ReservedThread}); a request's wait has the server's and the
     * application's frames beneath it.
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
     * The frame that asked a pool or semaphore for something (a method named borrow*, acquire*,
     * lease* or getConnection, as JDBC pools, object pools and HTTP clients' connection pools name
     * it) nearest the top, not the JDK's (whose locks acquire too: a JDK Semaphore is told by its
     * blocker); null when none.
     */
    static StackTraceElement poolFrame(StackTraceElement[] st) {
        for (StackTraceElement f : st) {
            String m = f.getMethodName();
            if (JdkFrames.isJdk(f.getClassName())) {
                continue;
            }
            if (m.startsWith("borrow") || m.startsWith("acquire") || m.startsWith("lease") || m.equals("getConnection")) {
                return f;
            }
        }
        return null;
    }

    /**
     * Whether the thread runs Java code for the application now: runnable, not in a native method
     * (a JDK native method there is blocking I/O, which a virtual thread would unmount for), with an
     * application frame on its stack (the JDK's code it calls counts: a regex, a digest, a parser).
     */
    static boolean runsJava(ThreadInfo t) {
        return runsJava(t, t.getStackTrace());
    }

    private static boolean runsJava(ThreadInfo t, StackTraceElement[] st) {
        return t.getThreadState() == Thread.State.RUNNABLE && st.length > 0 && !st[0].isNativeMethod() && site(st) != null;
    }

    /**
     * The monitor taken nearest the top by a frame not the JDK's (the one the blocking call is
     * inside of), or null. Monitors the JDK's own code takes around its blocking calls (a selector's
     * select) are left out: the JDK does what it does there on virtual threads otherwise.
     */
    private static MonitorInfo deepestHeld(MonitorInfo[] held) {
        MonitorInfo nearest = null;
        for (MonitorInfo m : held) {
            StackTraceElement at = m.getLockedStackFrame();
            if (at != null && !JdkFrames.isJdk(at.getClassName()) && (nearest == null || m.getLockedStackDepth() < nearest.getLockedStackDepth())) {
                nearest = m;
            }
        }
        return nearest;
    }

    /** The thread's pool: its name without the trailing number (qtp1234-, http-nio-8080-exec-). */
    private static String group(ThreadInfo t) {
        return t.getThreadName().replaceAll("[0-9]+$", "");
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
        String where = f.isNativeMethod() ? "Native Method" : f.getFileName() == null ? "Unknown Source"
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
