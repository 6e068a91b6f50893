package dev.loomscope.workloads.sleep;

import dev.loomscope.workloads.core.ThreadKind;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The presentation's ThreadsBenchmark: one operation is the {@link SleepWorkload}'s batch of {@code tasks} tasks each
 * sleeping {@code sleepMs}, on a cached pool, a platform thread per task or a virtual thread per task (its floor is one
 * sleep).
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(3)
public class ThreadsBenchmark {
    @Param("10000")
    public int tasks;

    @Param("200")
    public int sleepMs;

    private SleepWorkload cached;
    private SleepWorkload platform;
    private SleepWorkload virtual;

    @Setup
    public void setup() {
        cached = new SleepWorkload(ThreadKind.PLATFORM, "cached", tasks, sleepMs);
        platform = new SleepWorkload(ThreadKind.PLATFORM, "per-task", tasks, sleepMs);
        virtual = new SleepWorkload(ThreadKind.VIRTUAL, "per-task", tasks, sleepMs);
    }

    @Benchmark
    public long cachedThreadPool() throws Exception {
        return cached.run().units();
    }

    @Benchmark
    public long platformThreadPerTask() throws Exception {
        return platform.run().units();
    }

    @Benchmark
    public long virtualThreadPerTask() throws Exception {
        return virtual.run().units();
    }
}
