package dev.loomscope.workloads.continuation;

import org.openjdk.jmh.annotations.Benchmark;

/** OneShot: create a continuation, run it to its yield {@code stackDepth} frames deep, run it to its end. */
public class OneShot extends StackShape {
    @Benchmark
    public void oneShot() throws Throwable {
        cases.oneShot();
    }
}
