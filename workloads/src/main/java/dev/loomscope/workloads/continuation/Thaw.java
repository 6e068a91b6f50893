package dev.loomscope.workloads.continuation;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Thaw: thaw a frozen continuation and return to its end ({@link ContinuationCases#thawToEnd}).
 * A continuation thaws once, so each iteration freezes a batch of {@value #BATCH} in its setup
 * (untimed) and times one pass over the batch (single-shot, normalised per continuation).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 20)
@Measurement(iterations = 20)
@Fork(value = 3, jvmArgsAppend = Continuations.ADD_EXPORTS_ARG)
public class Thaw {
    static final int BATCH = 10_000;

    @Param({"1", "2", "3"})
    public int paramCount;

    @Param({"5", "10", "20", "100"})
    public int stackDepth;

    private ContinuationCases cases;
    private final Object[] frozen = new Object[BATCH];

    @Setup(Level.Trial)
    public void setup() {
        cases = new ContinuationCases(paramCount, stackDepth, 1, 1, 1);
    }

    @Setup(Level.Iteration)
    public void freezeBatch() throws Throwable {
        for (int i = 0; i < BATCH; i++) {
            frozen[i] = cases.frozen();
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void thaw() throws Throwable {
        for (Object k : frozen) {
            cases.thawToEnd(k);
        }
    }
}
