package dev.loomscope.workloads.continuation;

import org.openjdk.jmh.annotations.Benchmark;

/**
 * FreezeAndThaw: resume a continuation that yields {@code stackDepth} frames deep forever: one thaw and one freeze per
 * op.
 */
public class FreezeAndThaw extends StackShape {
    private Object looping;

    @Override
    protected void prepare() throws Throwable {
        looping = cases.looping();
    }

    @Benchmark
    public void freezeAndThaw() throws Throwable {
        ContinuationCases.resume(looping);
    }
}
