package dev.loomscope.analyzer.study;

import java.util.ArrayList;
import java.util.List;

/**
 * What a study runs: for each fork, each workload on each thread kind in its own JVM (kinds
 * alternated between forks, so machine noise spreads evenly over both), recorded without a CPU
 * profile; then, unless the agent options turn profiling off, one more JVM per workload and kind
 * with the profile, for the flame graphs and not timed. A profiler's work at every thread start
 * costs a thread-per-request server far more than virtual threads (docs/benchmarks.md), so the
 * timings are taken where the recording costs either kind least.
 */
public record StudyPlan(List<String> workloads, int runs, int warmup, int forks, int requests, int concurrency, int tasks,
        List<String> jvmArgs, String agentOptions, long timeoutSeconds) {

    public static final List<String> WORKLOADS = List.of("echo", "sleep", "rendezvous", "gameoflife", "pinning");
    public static final List<String> KINDS = List.of("platform", "virtual");

    /** One child JVM to run: a timed fork, or (profile) the JVM whose CPU profile makes the flame graphs. */
    public record Job(String workload, String kind, int fork, boolean profile, List<String> workloadArgs) {
        public String label() {
            return workload + "-" + kind + (profile ? "-profile" : "-f" + fork);
        }
    }

    public List<Job> jobs() {
        List<Job> jobs = new ArrayList<>();
        for (int f = 1; f <= forks; f++) {
            for (String w : workloads) {
                List<String> kinds = f % 2 == 1 ? KINDS : List.of(KINDS.get(1), KINDS.get(0));
                for (String k : kinds) {
                    jobs.add(new Job(w, k, f, false, args(w, k)));
                }
            }
        }
        if (profiled()) {
            for (String w : workloads) {
                for (String k : KINDS) {
                    jobs.add(new Job(w, k, 0, true, args(w, k)));
                }
            }
        }
        return jobs;
    }

    /** Whether the profile JVMs run: not when the agent options say {@code profile=off} (the last profile= given counts, as in the agent). */
    public boolean profiled() {
        String profile = "cpu";
        for (String token : (agentOptions == null ? "" : agentOptions).split(",")) {
            String t = token.strip();
            if (t.startsWith("profile=")) {
                profile = t.substring("profile=".length()).strip();
            }
        }
        return !profile.equals("off");
    }

    List<String> args(String workload, String kind) {
        List<String> a = new ArrayList<>(List.of(workload, "--threads", kind, "--runs", Integer.toString(runs), "--warmup", Integer.toString(warmup)));
        switch (workload) {
            case "echo" -> a.addAll(List.of("--n", Integer.toString(requests), "--c", Integer.toString(concurrency)));
            case "sleep" -> a.addAll(List.of("--tasks", Integer.toString(tasks)));
            case "gameoflife" -> a.addAll(List.of("--padding", "5", "--generations", "50"));
            case "rendezvous" -> a.addAll(List.of("--n", "200000"));
            case "pinning" -> a.addAll(List.of("--case", "clinit"));
            default -> { }
        }
        return a;
    }
}
