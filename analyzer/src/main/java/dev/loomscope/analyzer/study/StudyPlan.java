package dev.loomscope.analyzer.study;

import java.util.ArrayList;
import java.util.List;

/**
 * What a study runs: for each fork, each workload on each thread kind in its own JVM (kinds
 * alternated between forks, so machine noise spreads evenly over both).
 */
public record StudyPlan(List<String> workloads, int runs, int warmup, int forks, int requests, int concurrency, int tasks,
        List<String> jvmArgs, String agentOptions, long timeoutSeconds) {

    public static final List<String> WORKLOADS = List.of("echo", "sleep", "rendezvous", "gameoflife", "pinning");
    public static final List<String> KINDS = List.of("platform", "virtual");

    /** One child JVM to run. */
    public record Job(String workload, String kind, int fork, List<String> workloadArgs) {
        public String label() {
            return workload + "-" + kind + "-f" + fork;
        }
    }

    public List<Job> jobs() {
        List<Job> jobs = new ArrayList<>();
        for (int f = 1; f <= forks; f++) {
            for (String w : workloads) {
                List<String> kinds = f % 2 == 1 ? KINDS : List.of(KINDS.get(1), KINDS.get(0));
                for (String k : kinds) {
                    jobs.add(new Job(w, k, f, args(w, k)));
                }
            }
        }
        return jobs;
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
