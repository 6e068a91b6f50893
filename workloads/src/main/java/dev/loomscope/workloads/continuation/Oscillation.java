package dev.loomscope.workloads.continuation;

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
 * Oscillation: one continuation climbs from depth 1 to {@code maxDepth} and back {@code repeat} times, yielding at
 * every level from {@code minDepth} on, and is resumed until it ends.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = Continuations.ADD_EXPORTS_ARG)
public class Oscillation {
    @Param({"2", "3", "4"})
    public int minDepth;

    @Param({"5", "6", "7", "8"})
    public int maxDepth;

    @Param({"10", "100", "1000"})
    public int repeat;

    private ContinuationCases cases;

    @Setup
    public void setup() {
        cases = new ContinuationCases(1, 1, minDepth, maxDepth, repeat);
    }

    @Benchmark
    public int oscillation() throws Throwable {
        return cases.oscillation();
    }
}
