package dev.loomscope.workloads.echo;

import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.jmh.SeedBenchmark;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The echo server under load: one operation is one {@link EchoWorkload} run, {@code requests} requests from
 * {@code concurrency} connections of the built-in ab-style client against the server started for the trial (thread per
 * connection of the given kind).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class EchoBenchmark extends SeedBenchmark {
    @Param({"platform", "virtual"})
    public String threads;

    @Param("1000")
    public int requests;

    @Param("100")
    public int concurrency;

    @Param("false")
    public boolean keepAlive;

    private EchoWorkload workload;

    @Setup
    public void start() throws Exception {
        workload = new EchoWorkload(ThreadKind.named(threads), requests, concurrency, keepAlive, "builtin", 0);
    }

    @Benchmark
    public long requests() throws Exception {
        return workload.run().units();
    }

    @TearDown
    public void stop() throws Exception {
        workload.close();
    }
}
