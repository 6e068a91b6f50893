package dev.loomscope.analyzer.watch;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A condition {@code watch} raises once when it begins: which ({@code kind}), since when, what was seen and where (the
 * frame that causes it), with the stack that shows it.
 */
record Alarm(String kind, Instant since, String what, String where, List<String> stack) {
    /** Carriers all busy while the scheduler's queue grows. */
    static final String QUEUE = "queue-growth";
    /** Pins above the rate or the share of carrier time asked for. */
    static final String PINS = "pinning";
    /** Carriers' CPU in Thread.yield or Thread.onSpinWait. */
    static final String SPIN = "yield-spin";
    /** Many virtual threads parked at one place: a pool or lock smaller than the threads that want it. */
    static final String POOL = "pool-ceiling";
    /** Threads each waiting for a lock the next one holds (owners from the JVM's dumps, or the agent's looks). */
    static final String DEADLOCK = "deadlock";
    /** A lock one thread holds at a time, none of whose waiters got it between two thread dumps. */
    static final String LOCK_STUCK = "lock-stuck";
    /** Every carrier held, in two thread dumps, by a virtual thread that uses little CPU: native code that blocks. */
    static final String NATIVE = "native-blocking";
    /** As many virtual threads as carriers each computing for a second or more: the carriers monopolized. */
    static final String MONOPOLY = "cpu-monopoly";

    String line() {
        return "ALARM " + kind + " since " + clock() + ": " + what + (where == null ? "" : "; where: " + where)
                + "; next: " + next();
    }

    /** {@code pinning since 21:56:30 at demo.Api.legacy}: the alarm in the watch's closing line. */
    String brief() {
        return kind + " since " + clock() + (where == null ? "" : " at " + where);
    }

    private String clock() {
        return Tick.CLOCK.format(LocalTime.ofInstant(since, ZoneId.systemDefault()));
    }

    /** What a user does next about it, by kind (and, for pins, by what pins). */
    String next() {
        return switch (kind) {
            case PINS -> pinsNext(where == null ? "" : where);
            case SPIN ->
                "replace the Thread.yield / onSpinWait loop with a blocking wait (a lock, a queue's take), or bound"
                        + " it; a library's spin may be fixed in a newer release";
            case DEADLOCK ->
                "each thread holds a lock the next one waits for, and none lets go: they stay stuck until the JVM"
                        + " restarts; take the locks in one order everywhere (or tryLock with a timeout)";
            case LOCK_STUCK ->
                "see what its owner does ('loomscope attach PID threads' names it, on JDK 21-25 through the agent): a"
                        + " deadlock when it waits for a lock these threads hold; else no blocking call while"
                        + " holding it, or tryLock with a timeout";
            case NATIVE ->
                "run the blocking native call on a pool of platform threads (an ExecutorService) and wait for its"
                        + " Future from the virtual thread, or give the scheduler as many carriers as calls block"
                        + " at once (jdk.virtualThreadScheduler.parallelism)";
            case MONOPOLY ->
                "virtual threads are not time-sliced: run the long computation on a pool of platform threads (an"
                        + " ExecutorService) and wait for it from the virtual thread, or split it up (Thread.yield"
                        + " between its parts)";
            case QUEUE ->
                "see what holds the carriers (--dump-on-alarm DIR, then 'loomscope threads' on the dumps): pins,"
                        + " CPU-bound work or spins";
            default ->
                "the pool or lock is now the ceiling, not the threads: size it for the concurrency you want, or bound"
                        + " the concurrency before it (a Semaphore)";
        };
    }

    /** The pinning alarm's step, by what pins ({@code where}). */
    private static String pinsNext(String where) {
        if (where.contains("Native") || where.contains("native")) {
            return "a native frame pins on every JDK: move the blocking call out of the native call, or give that work"
                    + " platform threads";
        }
        if (where.contains("lass initializer") || where.contains("<clinit>")) {
            return "blocking in a class initializer pins on every JDK: initialise the class before the load (or"
                    + " without blocking)";
        }
        return "replace the synchronized around the blocking call with a java.util.concurrent.locks.ReentrantLock, or"
                + " run on JDK 24+, where synchronized no longer pins";
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "alarm");
        m.put("alarm", kind);
        m.put("since", since.toString());
        m.put("what", what);
        m.put("where", where);
        m.put("stack", stack);
        m.put("next", next());
        return m;
    }
}
