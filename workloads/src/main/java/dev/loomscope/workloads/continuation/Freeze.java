package dev.loomscope.workloads.continuation;

import org.openjdk.jmh.annotations.Benchmark;

/**
 * Freeze: create a continuation, descend {@code stackDepth} frames and freeze at the yield
 * ({@link ContinuationCases#frozen()}).
 */
public class Freeze extends StackShape {
    @Benchmark
    public Object freeze() throws Throwable {
        return cases.frozen();
    }
}
