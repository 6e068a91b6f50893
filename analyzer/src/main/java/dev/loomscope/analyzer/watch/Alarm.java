package dev.loomscope.analyzer.watch;

import dev.loomscope.recording.PinFrames;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A condition {@code watch} raises once when it begins: which ({@code kind}), since when, what was seen and where (the
 * frame that causes it), with the stack that shows it; a pinning alarm also says what pins ({@code pinned}, null for
 * the others), which decides the next step.
 */
record Alarm(Kind kind, Instant since, String what, String where, List<String> stack, PinFrames.Cause pinned) {
    Alarm(Kind kind, Instant since, String what, String where, List<String> stack) {
        this(kind, since, what, where, stack, null);
    }

    /** The alarms, each with its name in the output and what a user does next about it. */
    enum Kind {
        /** Carriers all busy while the scheduler's queue grows. */
        QUEUE(
                "queue-growth",
                "see what holds the carriers (--dump-on-alarm DIR, then 'loomscope threads' on the dumps): pins,"
                        + " CPU-bound work or spins"),
        /** Pins above the rate or the share of carrier time asked for; the next step is by what pins. */
        PINS("pinning", null),
        /** Carriers' CPU in Thread.yield or Thread.onSpinWait. */
        SPIN(
                "yield-spin",
                "replace the Thread.yield / onSpinWait loop with a blocking wait (a lock, a queue's take), or bound it;"
                        + " a library's spin may be fixed in a newer release"),
        /** Many virtual threads parked at one place: a pool or lock smaller than the threads that want it. */
        POOL(
                "pool-ceiling",
                "the pool or lock is now the ceiling, not the threads: size it for the concurrency you want, or bound"
                        + " the concurrency before it (a Semaphore)"),
        /** Threads each waiting for a lock the next one holds (owners from the JVM's dumps, or the agent's looks). */
        DEADLOCK(
                "deadlock",
                "each thread holds a lock the next one waits for, and none lets go: they stay stuck until the JVM"
                        + " restarts; take the locks in one order everywhere (or tryLock with a timeout)"),
        /** A lock one thread holds at a time, none of whose waiters got it between two thread dumps. */
        LOCK_STUCK(
                "lock-stuck",
                "see what its owner does ('loomscope attach PID threads' names it, on JDK 21-25 through the agent): a"
                        + " deadlock when it waits for a lock these threads hold; else no blocking call while holding"
                        + " it, or tryLock with a timeout"),
        /** A monitor no thread owned in two thread dumps, its waiters blocked entering it in both: the JVM's fault. */
        FREE_MONITOR(
                "free-monitor",
                "a fault of the JVM, not of the application (JDK-8373120 reports virtual threads so): restart the"
                        + " JVM, and report it to the JDK's maintainers with both dumps (--dump-on-alarm DIR keeps"
                        + " them) and the JDK's version"),
        /**
         * Every carrier held, in two thread dumps, by a virtual thread that uses little CPU: native code that blocks.
         */
        NATIVE(
                "native-blocking",
                "run the blocking native call on a pool of platform threads (an ExecutorService) and wait for its"
                        + " Future from the virtual thread, or give the scheduler as many carriers as calls block at"
                        + " once (jdk.virtualThreadScheduler.parallelism)"),
        /** As many virtual threads as carriers each computing for a second or more: the carriers monopolized. */
        MONOPOLY(
                "cpu-monopoly",
                "virtual threads are not time-sliced: run the long computation on a pool of platform threads (an"
                        + " ExecutorService) and wait for it from the virtual thread, or split it up (Thread.yield"
                        + " between its parts)");

        /** The alarm's name in the lines, the JSON and the dumps' file names. */
        final String id;

        final String next;

        Kind(String id, String next) {
            this.id = id;
            this.next = next;
        }
    }

    /** One alarm's episode: its kind and, for those raised once per lock or place, which ({@code ""} for the rest). */
    record Episode(Kind kind, String subject) {
        Episode(Kind kind) {
            this(kind, "");
        }
    }

    String line() {
        return "ALARM " + kind.id + " since " + clock() + ": " + what + (where == null ? "" : "; where: " + where)
                + "; next: " + next();
    }

    /** {@code pinning since 21:56:30 at demo.Api.legacy}: the alarm in the watch's closing line. */
    String brief() {
        return kind.id + " since " + clock() + (where == null ? "" : " at " + where);
    }

    private String clock() {
        return Tick.CLOCK.format(LocalTime.ofInstant(since, ZoneId.systemDefault()));
    }

    /** What a user does next about it, by kind (and, for pins, by what pins). */
    String next() {
        if (kind != Kind.PINS) {
            return kind.next;
        }
        return switch (pinned == null ? PinFrames.Cause.MONITOR : pinned) {
            case NATIVE ->
                "a native frame pins on every JDK: move the blocking call out of the native call, or give that work"
                        + " platform threads";
            case CLASS_INIT ->
                "blocking in a class initializer pins on every JDK: initialise the class before the load (or without"
                        + " blocking)";
            case MONITOR ->
                "replace the synchronized around the blocking call with a java.util.concurrent.locks.ReentrantLock, or"
                        + " run on JDK 24+, where synchronized no longer pins";
        };
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "alarm");
        m.put("alarm", kind.id);
        m.put("since", since.toString());
        m.put("what", what);
        m.put("where", where);
        m.put("stack", stack);
        m.put("next", next());
        return m;
    }
}
