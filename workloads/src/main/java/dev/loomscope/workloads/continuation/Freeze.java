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

/** Freeze: create a continuation, descend {@code stackDepth} frames and freeze at the yield ({@link ContinuationCases#frozen()}). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = Continuations.ADD_EXPORTS_ARG)
public class Freeze {
    @Param({"1", "2", "3"})
    public int paramCount;

    @Param({"5", "10", "20", "100"})
    public int stackDepth;

    private ContinuationCases cases;

    @Setup
    public void setup() {
        cases = new ContinuationCases(paramCount, stackDepth, 1, 1, 1);
    }

    @Benchmark
    public Object freeze() throws Throwable {
        return cases.frozen();
    }
}
