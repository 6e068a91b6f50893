package dev.loomscope.workloads.continuation;

import java.util.concurrent.TimeUnit;
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
 * What the Freeze, Thaw, FreezeAndThaw and OneShot benchmarks share: the shape of the stack a continuation yields from
 * ({@code paramCount} live arguments in each of {@code stackDepth} frames), the JMH settings, and the fork's
 * {@code --add-exports}. JMH applies a superclass's parameters and annotations to its subclasses.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = Continuations.ADD_EXPORTS_ARG)
public abstract class StackShape {
    @Param({"1", "2", "3"})
    public int paramCount;

    @Param({"5", "10", "20", "100"})
    public int stackDepth;

    protected ContinuationCases cases;

    @Setup
    public void shape() throws Throwable {
        cases = new ContinuationCases(paramCount, stackDepth, 1, 1, 1);
        prepare();
    }

    /** More setup after {@link #cases} exists (JMH orders no two setup methods of one state). */
    protected void prepare() throws Throwable {}
}
