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

/** FreezeAndThaw: resume a continuation that yields {@code stackDepth} frames deep forever: one thaw and one freeze per op. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = Continuations.ADD_EXPORTS_ARG)
public class FreezeAndThaw {
    @Param({"1", "2", "3"})
    public int paramCount;

    @Param({"5", "10", "20", "100"})
    public int stackDepth;

    private Object looping;

    @Setup
    public void setup() throws Throwable {
        looping = new ContinuationCases(paramCount, stackDepth, 1, 1, 1).looping();
    }

    @Benchmark
    public void freezeAndThaw() throws Throwable {
        ContinuationCases.resume(looping);
    }
}
