package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.options.Option;
import dev.loomscope.options.WorkloadOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a study runs: for each fork, each workload on each thread kind in its own JVM, recorded without a CPU profile,
 * each beside a control JVM that runs the same without agent or JFR, whose runs measure what the recording costs; all
 * of them in an order shuffled by {@code seed}, so that machine noise and drift fall on either kind by chance and not
 * by design; then, unless the agent options turn profiling off, one more JVM per workload and kind with the profile,
 * for the flame graphs and not timed. The JVM is the unit the verdicts count, so the forks set their power. A
 * profiler's work at every thread start costs a thread-per-request server far more than virtual threads
 * (docs/benchmarks.md), so the timings are taken where the recording costs either kind least.
 */
public record StudyPlan(
        List<String> workloads,
        Integer runs,
        Integer warmup,
        int forks,
        int controls,
        int requests,
        int concurrency,
        int tasks,
        List<String> jvmArgs,
        String agentOptions,
        long timeoutSeconds,
        long seed) {

    public static final List<String> WORKLOADS = List.of("echo", "sleep", "rendezvous", "gameoflife", "pinning");
    public static final List<String> KINDS = List.of("platform", "virtual");
    /**
     * Warm-up runs per workload and thread kind when none are asked for (workload-kind, else the kind's), from the
     * study's steady-state check on 2 cores: after one warm-up run virtual threads' echo and sleep runs still got 9-14%
     * faster run by run (the scheduler's and continuations' code being compiled) and were steady after three; platform
     * threads' sleep runs were steady after one, their echo runs (a new thread and connection per request) in some
     * studies still 6-9% faster per run after one, so two.
     */
    public static final Map<String, Integer> DEFAULT_WARMUP = Map.of("platform", 1, "virtual", 3, "echo-platform", 2);

    /**
     * Measured runs per JVM when none are asked for (workload-kind, else 3): what the study's own Kalibera and Jones
     * line advised on this 2-core machine (docs/study.md), ceil(sqrt(JVM cost / run cost x within-JVM variance /
     * between-JVM variance)): sleep on platform threads 1 (a run takes 2.5 s and 61% of the variance lies between JVMs;
     * 2 here, so that the steady-state check has a trend to fit), sleep on virtual threads 5 (a run takes 0.24 s), echo
     * 3 on platform threads and 4 on virtual threads.
     */
    public static final Map<String, Integer> DEFAULT_RUNS =
            Map.of("sleep-platform", 2, "sleep-virtual", 5, "echo-platform", 3, "echo-virtual", 4);

    /**
     * The measured runs of a JVM running {@code workload} on {@code kind}: as asked, else {@link #DEFAULT_RUNS}, else
     * 3.
     */
    public int runs(String workload, String kind) {
        return runs != null ? runs : DEFAULT_RUNS.getOrDefault(workload + "-" + kind, 3);
    }

    /** "3 runs", or the defaults per workload and kind: "echo 3 (platform) / 4 (virtual), sleep 2 / 5 runs". */
    public String runsText() {
        if (runs != null) {
            return runs + " run" + (runs == 1 ? "" : "s");
        }
        return String.join(
                        ", ",
                        workloads.stream()
                                .map(w -> w + " " + runs(w, KINDS.get(0)) + " (" + KINDS.get(0) + ") / "
                                        + runs(w, KINDS.get(1)) + " (" + KINDS.get(1) + ")")
                                .toList())
                + " runs";
    }

    /** The warm-up runs of a JVM running {@code workload} on {@code kind}: as asked, else {@link #DEFAULT_WARMUP}. */
    public int warmup(String workload, String kind) {
        return warmup != null ? warmup : DEFAULT_WARMUP.getOrDefault(workload + "-" + kind, DEFAULT_WARMUP.get(kind));
    }

    /** "1 warm-up", or the defaults per workload and kind: "echo 2 (platform) / 3 (virtual), sleep 1 / 3 warm-up". */
    public String warmupText() {
        if (warmup != null) {
            return warmup + " warm-up";
        }
        return String.join(
                        ", ",
                        workloads.stream()
                                .map(w -> w + " " + warmup(w, KINDS.get(0)) + " (" + KINDS.get(0) + ") / "
                                        + warmup(w, KINDS.get(1)) + " (" + KINDS.get(1) + ")")
                                .toList())
                + " warm-up";
    }

    /**
     * Runs of a profiled JVM after its warm-up, sampled as {@link #PROFILE_OPTIONS} say: thousands of CPU samples a
     * side for the flame graphs, which draw these runs' time only; its runs are not timed.
     */
    public static final int PROFILE_RUNS = 4;

    /**
     * The profiled JVMs' sampling, before the study's agent options (which may choose other): perf_events every
     * millisecond of CPU. async-profiler's timer engine (ctimer, the agent's default) gave a fifth as many samples on
     * the echo workload (569 against 3,057 on platform threads, 520 against 2,320 on virtual ones, 1 ms each, the same
     * runs): it misses most of the CPU of threads that run briefly, as a thread-per-request server's do. Where
     * perf_events is denied the agent falls back to ctimer, saying so.
     */
    public static final String PROFILE_OPTIONS =
            AgentOptions.line(AgentOptions.ENGINE.is("perf"), AgentOptions.INTERVAL.is("1ms"));

    /** The profiled JVMs' measured runs: {@link #PROFILE_RUNS}, or as many as --runs (or --quick) gives every JVM. */
    public int profileRuns() {
        return runs != null ? runs : PROFILE_RUNS;
    }

    /** What a child JVM is for. */
    public enum Role {
        /** Timed, recorded by the agent without a CPU profile. */
        TIMED,
        /** Timed, without agent or JFR: its runs against the timed ones' are the recording's cost. */
        CONTROL,
        /** Recorded with the CPU profile for the flame graphs, not timed. */
        PROFILE
    }

    /** One child JVM to run. */
    public record Job(String workload, String kind, int fork, Role role, List<String> workloadArgs) {
        public String label() {
            return workload + "-" + kind
                    + switch (role) {
                        case TIMED -> "-f" + fork;
                        case CONTROL -> "-c" + fork;
                        case PROFILE -> "-profile";
                    };
        }

        public boolean profile() {
            return role == Role.PROFILE;
        }
    }

    public List<Job> jobs() {
        List<Job> jobs = new ArrayList<>();
        for (int f = 1; f <= forks; f++) {
            for (String w : workloads) {
                for (String k : KINDS) {
                    for (Role r : f <= controls() ? List.of(Role.TIMED, Role.CONTROL) : List.of(Role.TIMED)) {
                        jobs.add(new Job(w, k, f, r, args(w, k, runs(w, k))));
                    }
                }
            }
        }
        Collections.shuffle(jobs, new Random(seed));
        if (profiled()) {
            for (String w : workloads) {
                for (String k : KINDS) {
                    jobs.add(new Job(w, k, 0, Role.PROFILE, args(w, k, profileRuns())));
                }
            }
        }
        return jobs;
    }

    /**
     * Control JVMs per workload and kind beside {@code forks} timed ones: the fewest with which the JVM-level test of
     * the recording's cost can reach the rule's alpha, and at least 3 (as many as the timed ones at the most): against
     * 5 timed JVMs at 0.05 that is 3 (2 / C(8, 3) = 0.036), at half the time 5 would take; against 4, 4 (3 against 4
     * cannot: 2 / C(7, 3) = 0.057).
     */
    public static int controlsFor(int forks, Verdict.Rule rule) {
        return Math.min(forks, Math.max(3, rule.minimumJvms(forks)));
    }

    /**
     * Whether the profile JVMs run: not when the agent options say {@code profile=off} (read as the agent reads them).
     */
    public boolean profiled() {
        return !AgentOptions.parse(null, agentOptions).profile().isEmpty();
    }

    /** The workload's command line, its options named as the workloads declare them. */
    List<String> args(String workload, String kind, int measuredRuns) {
        List<String> a = new ArrayList<>(List.of(workload));
        add(a, WorkloadOptions.THREADS, kind);
        add(a, WorkloadOptions.RUNS, measuredRuns);
        add(a, WorkloadOptions.WARMUP, warmup(workload, kind));
        switch (workload) {
            case "echo" -> {
                add(a, WorkloadOptions.Echo.N, requests);
                add(a, WorkloadOptions.Echo.C, concurrency);
                // the client in a JVM of its own, as the thesis drove its servers from another process: the server's
                // figures are its own
                add(a, WorkloadOptions.Echo.CLIENT, "process");
            }
            case "sleep" -> add(a, WorkloadOptions.Sleep.TASKS, tasks);
            case "gameoflife" -> {
                add(a, WorkloadOptions.GameOfLife.PADDING, 5);
                add(a, WorkloadOptions.GameOfLife.GENERATIONS, 50);
            }
            case "rendezvous" -> add(a, WorkloadOptions.Rendezvous.N, 200_000);
            case "pinning" -> add(a, WorkloadOptions.Pinning.CASE, "clinit");
            default -> {}
        }
        return a;
    }

    private static void add(List<String> args, Option o, Object value) {
        String v = value.toString();
        String complaint = o.complaint(v);
        if (complaint != null) {
            throw new IllegalStateException(complaint); // the study checks what it is given
        }
        args.add(o.flag());
        args.add(v);
    }
}
