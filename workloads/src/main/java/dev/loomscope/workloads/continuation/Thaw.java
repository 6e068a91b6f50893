package dev.loomscope.workloads.continuation;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Thaw: thaw a frozen continuation and return to its end ({@link ContinuationCases#thawToEnd}). A continuation thaws
 * once, so each iteration freezes a batch of {@value #BATCH} in its setup (untimed) and times one pass over the batch
 * (single-shot, normalised per continuation).
 */
@BenchmarkMode(Mode.SingleShotTime)
@Warmup(iterations = 20)
@Measurement(iterations = 20)
public class Thaw extends StackShape {
    static final int BATCH = 10_000;

    private final Object[] frozen = new Object[BATCH];

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
