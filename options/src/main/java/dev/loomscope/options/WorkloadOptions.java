package dev.loomscope.options;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The workloads' options ({@code java -jar loomscope-workloads.jar <workload> --option value}): the ones every workload
 * takes, then each workload's, named as in the experiment it reproduces. The workloads' parser, their help,
 * {@code loomscope study} (which starts them) and docs/workloads.md read them here.
 */
public final class WorkloadOptions {
    private WorkloadOptions() {}

    public static final Option THREADS = Option.choice(
            "threads", "virtual", List.of("platform", "virtual"), "the kind of thread the workload's tasks run on");
    public static final Option RUNS = Option.integer("runs", 5, 1, 100_000, "measured runs, one result line each");
    public static final Option WARMUP = Option.integer(
            "warmup",
            1,
            0,
            100_000,
            "runs before the measured ones, printed as warm-up and left out of the statistics");
    public static final Option PACED = Option.flag(
            "paced",
            "each measured run waits for a line on stdin, and the end of stdin ends the runs (a driver interleaves the"
                    + " runs of several JVMs)");
    public static final Option RESULTS =
            Option.path("results", "none", "a CSV file, one row per run, written as each run ends");
    public static final Option ROUND_TRIP = Option.flag(
            "round-trip",
            "time a cache line's round trip between two cores just before and just after each run (outside its time)"
                    + " and print both in the run's line: what a hand-off between cores cost on the machine then, which"
                    + " a virtual machine's host changes");

    /** The options every workload takes. */
    public static final List<Option> COMMON = List.of(THREADS, RUNS, WARMUP, PACED, RESULTS, ROUND_TRIP);

    /** The HTTP echo server under ab-style load. */
    public static final class Echo {
        private Echo() {}

        public static final Option N = Option.integer("n", 10_000, 1, 100_000_000, "requests per run (ab's -n)");
        public static final Option C = Option.integer("c", 100, 1, 20_000, "concurrent connections (ab's -c)");
        public static final Option K =
                Option.flag("k", "keep-alive: a connection carries many requests (ab's -k; written -k or --k)");
        public static final Option CLIENT = Option.choice(
                "client",
                "builtin",
                List.of("builtin", "process", "ab"),
                "who sends the requests: the built-in client in the server's JVM, the built-in client in a JVM of its"
                        + " own (the server's figures are then the server's alone: what the study runs), or ApacheBench"
                        + " (ab on the PATH)");
        public static final Option PORT = Option.integer("port", 0, 0, 65_535, "the server's port (0: a free one)");
        public static final List<Option> ALL = List.of(N, C, K, CLIENT, PORT);
    }

    /** The echo server alone, for external clients. */
    public static final class EchoServer {
        private EchoServer() {}

        public static final Option PORT = Option.integer("port", 8080, 0, 65_535, "the server's port (0: a free one)");
        public static final List<Option> ALL = List.of(THREADS, PORT);
    }

    /** Many tasks that sleep. */
    public static final class Sleep {
        private Sleep() {}

        public static final Option TASKS = Option.integer("tasks", 10_000, 1, 10_000_000, "tasks per run");
        public static final Option SLEEP_MS =
                Option.integer("sleep-ms", 200, 0, 60_000, "how long each task sleeps, in milliseconds");
        public static final Option EXECUTOR = Option.choice(
                "executor",
                "per-task",
                List.of("per-task", "cached"),
                "platform threads: a new thread per task, or a cached pool (virtual threads are always one per task)");
        public static final List<Option> ALL = List.of(TASKS, SLEEP_MS, EXECUTOR);
    }

    /** Two threads meet N times. */
    public static final class Rendezvous {
        private Rendezvous() {}

        public static final Option VARIANT = Option.choice(
                "variant",
                "exchanger",
                List.of(
                        "park",
                        "park-yield",
                        "yield4-park",
                        "spin1000-park",
                        "spin10000-park",
                        "meet-park",
                        "meet-yield4-park",
                        "meet-spin1000-park",
                        "meet-spin10000-park",
                        "spin-yield-park",
                        "synchronous-queue",
                        "exchanger",
                        "varhandle",
                        "kotlin-continuations",
                        "kotlin-continuations-default",
                        "kotlin-channel"),
                "how the two threads meet");
        public static final Option N =
                Option.integer("n", "per variant, 1-3 s a run", 1, 10_000_000_000L, "meetings per run");
        public static final Option PARALLELISM = Option.integer(
                "parallelism",
                "the JDK's",
                1,
                4096,
                "the virtual thread scheduler's parallelism, maxPoolSize and minRunnable (the JVM is started again with"
                        + " them)");
        public static final List<Option> ALL = List.of(VARIANT, N, PARALLELISM);

        /**
         * The virtual thread scheduler's properties that --parallelism P sets: parallelism, maxPoolSize and
         * minRunnable, each P.
         */
        public static Map<String, String> schedulerProperties(int parallelism) {
            String p = Integer.toString(parallelism);
            Map<String, String> m = new LinkedHashMap<>();
            for (String name : List.of("parallelism", "maxPoolSize", "minRunnable")) {
                m.put("jdk.virtualThreadScheduler." + name, p);
            }
            return m;
        }
    }

    /** Game of Life as communicating sequential processes. */
    public static final class GameOfLife {
        private GameOfLife() {}

        public static final Option PADDING = Option.integer(
                "padding",
                25,
                0,
                500,
                "cells around Gosper's glider gun on each side (5, 25, 100: 874, 5,074, 49,324 cells)");
        public static final Option CHANNEL = Option.choice(
                "channel",
                "BlockingQueue",
                List.of("BlockingQueue", "BlockingTransfer", "LockedSingleValue", "OneToOneParking"),
                "the channel between neighbouring cells");
        public static final Option THREAD_PER_CELL = Option.choice(
                "thread-per-cell", "true", List.of("true", "false"), "a thread per cell, or per core (cells grouped)");
        public static final Option GENERATIONS = Option.integer("generations", 50, 1, 1_000_000, "generations per run");
        public static final Option GROUPING = Option.choice(
                "grouping",
                "contiguous",
                List.of("contiguous", "round-robin"),
                "per core: n-1 groups of neighbouring cells and the collector (the talk's), or cells dealt round-robin"
                        + " over n groups");
        public static final List<Option> ALL = List.of(PADDING, CHANNEL, THREAD_PER_CELL, GENERATIONS, GROUPING);
    }

    /** What pins on this JDK, beside its fix. */
    public static final class Pinning {
        private Pinning() {}

        public static final Option CASE = Option.choice(
                "case",
                "synchronized",
                List.of("native", "native-fixed", "clinit", "clinit-fixed", "synchronized", "reentrantlock"),
                "what the tasks block in");
        public static final Option TASKS = Option.integer("tasks", "8 per CPU", 1, 1_000_000, "tasks per run");
        public static final Option BLOCK_MS =
                Option.integer("block-ms", 50, 1, 60_000, "how long each task blocks, in milliseconds");
        public static final List<Option> ALL = List.of(CASE, TASKS, BLOCK_MS);
    }

    /** Continuation micro-benchmarks. */
    public static final class Continuation {
        private Continuation() {}

        public static final Option CASE = Option.choice(
                "case",
                "freeze-and-thaw",
                List.of("freeze", "thaw", "freeze-and-thaw", "one-shot", "oscillation"),
                "which operation is timed");
        public static final Option PARAM_COUNT = Option.integer("param-count", 1, 1, 3, "parameters of each frame");
        public static final Option STACK_DEPTH =
                Option.integer("stack-depth", 5, 1, 10_000, "frames on the continuation's stack");
        public static final Option MIN_DEPTH =
                Option.integer("min-depth", 2, 1, 1000, "oscillation: the depth it climbs back down to");
        public static final Option MAX_DEPTH =
                Option.integer("max-depth", 5, 1, 1000, "oscillation: the deepest frame");
        public static final Option REPEAT = Option.integer(
                "repeat", 10, 1, 1_000_000, "oscillation: climbs from min-depth to max-depth and back per operation");
        public static final Option OPS = Option.integer("ops", 100_000, 1, 1_000_000_000, "operations per run");
        public static final List<Option> ALL =
                List.of(CASE, PARAM_COUNT, STACK_DEPTH, MIN_DEPTH, MAX_DEPTH, REPEAT, OPS);
    }

    /**
     * A service that stops: virtual threads deadlocked, or every carrier held (the JVM runs until --hold or killed).
     */
    public static final class Stuck {
        private Stuck() {}

        public static final Option CASE = Option.choice(
                "case",
                "clinit",
                List.of("monitor", "lock", "clinit", "sync", "busy", "held"),
                "monitor: two virtual threads deadlocked on monitors; lock: on ReentrantLocks; clinit: every carrier"
                        + " held by a virtual thread pinned in a class initializer while the lock's owner waits for a"
                        + " carrier; sync: the same pinned in synchronized (JDK 21-23, where synchronized pins); busy:"
                        + " not stuck, what a stall watcher must tell apart: --waiters virtual threads that compute 1"
                        + " ms and yield, over and over, every carrier busy and every thread moving (JDK 24+; JDK"
                        + " 21-23's scheduler runs a yielding thread again before those queued from outside, which then"
                        + " starve); held: one carrier held for good by a virtual thread sleeping in a class"
                        + " initializer, beside the busy case's threads on the rest");
        public static final Option CARRIERS =
                Option.integer("carriers", 2, 1, 256, "the virtual thread scheduler's parallelism and pool size");
        public static final Option WAITERS = Option.integer(
                "waiters",
                10,
                0,
                100_000,
                "virtual threads started after it sticks, that wait (to run, or for the lock)");
        public static final Option DUMP = Option.path(
                "dump", "none", "write a JSON thread dump here once it is stuck, then exit (unless --hold)");
        public static final Option HOLD = Option.integer(
                "hold",
                0,
                0,
                86_400,
                "seconds to stay stuck before exiting (0: with --dump, exit after it; else until killed)");
        public static final List<Option> ALL = List.of(CASE, CARRIERS, WAITERS, DUMP, HOLD);
    }

    /** Each workload's own options, by the name the command line gives the workload. */
    public static final Map<String, List<Option>> BY_WORKLOAD = ordered(
            "echo",
            Echo.ALL,
            "sleep",
            Sleep.ALL,
            "rendezvous",
            Rendezvous.ALL,
            "gameoflife",
            GameOfLife.ALL,
            "pinning",
            Pinning.ALL,
            "continuation",
            Continuation.ALL,
            "echo-server",
            EchoServer.ALL,
            "stuck",
            Stuck.ALL);

    @SuppressWarnings("unchecked")
    private static Map<String, List<Option>> ordered(Object... nameThenOptions) {
        Map<String, List<Option>> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenOptions.length; i += 2) {
            m.put((String) nameThenOptions[i], (List<Option>) nameThenOptions[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }

    /** The commands that take options as a workload but have no runs: their own options only. */
    public static final Set<String> WITHOUT_RUNS = Set.of("echo-server", "stuck");

    /** The options the workload takes: its own, then the common ones (echo-server and stuck: their own only). */
    public static List<Option> of(String workload) {
        List<Option> own = BY_WORKLOAD.getOrDefault(workload, List.of());
        if (WITHOUT_RUNS.contains(workload)) {
            return own;
        }
        List<Option> all = new ArrayList<>(own);
        all.addAll(COMMON);
        return List.copyOf(all);
    }

    /** The workloads' options as Markdown: one table per workload, then the common options. */
    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        BY_WORKLOAD.forEach((name, options) ->
                sb.append("\n`").append(name).append("`\n\n").append(Option.markdown(options, true)));
        sb.append("\nevery workload but `echo-server` and `stuck`\n\n").append(Option.markdown(COMMON, true));
        return sb.toString();
    }
}
