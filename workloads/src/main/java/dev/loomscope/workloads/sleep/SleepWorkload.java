package dev.loomscope.workloads.sleep;

import dev.loomscope.options.WorkloadOptions.Sleep;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.core.Workload;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The 10,000 sleeping tasks of the JEP 444 example and the ThreadsBenchmark of the background presentation:
 * {@code tasks} tasks each sleeping {@code sleepMs} on a cached thread pool, a platform thread per task, or a virtual
 * thread per task. The floor of a batch is one sleep.
 *
 * <p>{@code java -jar loomscope-workloads.jar sleep --threads virtual|platform [--executor per-task|cached] [--tasks
 * 10000] [--sleep-ms 200]}
 */
public record SleepWorkload(ThreadKind kind, String executor, int tasks, int sleepMs) implements Workload {
    /** On virtual threads the executor is a virtual thread per task, whatever was asked. */
    public SleepWorkload {
        executor = kind == ThreadKind.VIRTUAL ? "per-task" : executor;
    }

    public static SleepWorkload of(Args a) {
        ThreadKind kind = ThreadKind.of(a);
        String executor = a.choice(Sleep.EXECUTOR);
        return new SleepWorkload(kind, executor, a.integer(Sleep.TASKS), a.integer(Sleep.SLEEP_MS));
    }

    @Override
    public About about() {
        return new About(
                kind.label(),
                "tasks",
                "tasks=" + tasks + " sleepMs=" + sleepMs + " executor="
                        + (kind == ThreadKind.VIRTUAL ? "virtual-per-task" : executor));
    }

    @Override
    public Run run() throws Exception {
        AtomicInteger done = new AtomicInteger();
        try (ExecutorService pool = newExecutor()) {
            for (int i = 0; i < tasks; i++) {
                pool.submit(() -> {
                    Thread.sleep(sleepMs);
                    done.incrementAndGet();
                    return null;
                });
            }
        }
        if (done.get() != tasks) {
            throw new IllegalStateException("only " + done.get() + " of " + tasks + " tasks completed");
        }
        return Run.of(tasks);
    }

    private ExecutorService newExecutor() {
        if (kind == ThreadKind.VIRTUAL) {
            return Executors.newVirtualThreadPerTaskExecutor();
        }
        return executor.equals("cached")
                ? Executors.newCachedThreadPool()
                : Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory());
    }
}
