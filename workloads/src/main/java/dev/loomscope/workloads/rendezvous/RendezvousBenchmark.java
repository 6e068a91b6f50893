package dev.loomscope.workloads.rendezvous;

import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.jmh.SeedBenchmark;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The rendezvous variants on each thread kind: one operation is one {@link RendezvousWorkload} run, a sender and a
 * receiver meeting {@code n} times (the sum checked). Divide the score by n for the cost of one hand-off.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RendezvousBenchmark extends SeedBenchmark {
    @Param({
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
        "kotlin-channel"
    })
    public String variant;

    @Param({"platform", "virtual"})
    public String threads;

    @Param("100000")
    public long n;

    private RendezvousWorkload workload;

    @Setup
    public void setup() {
        workload = new RendezvousWorkload(ThreadKind.named(threads), n, variant, null);
    }

    @Benchmark
    public long rendezvous() throws Exception {
        return workload.run().units();
    }
}
