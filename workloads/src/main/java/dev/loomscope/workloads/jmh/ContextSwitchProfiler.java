package dev.loomscope.workloads.jmh;

import dev.loomscope.probes.ContextSwitchCounter;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * {@code -prof ctxsw}: context switches of the benchmark's JVM per operation, without perf. Reads the process's
 * voluntary and involuntary context switches (getrusage through the FFM API on JDK 22+, the threads' /proc status on
 * 21) before and after each iteration and divides by the iteration's operations. The counts are the whole JVM's (JMH's
 * own threads included: a few switches per iteration), as perfnorm's are.
 *
 * <p>Secondary results: {@code ctxsw.context-switches}, {@code ctxsw.voluntary} and {@code ctxsw.involuntary}, in
 * {@code #/op}. Registered with JMH's profiler service loader (it shows in {@code -lprof}); {@code -prof ctxsw} finds
 * it through the {@code ctxsw} class.
 */
public class ContextSwitchProfiler implements InternalProfiler {
    /** The unit perfnorm uses for its normalised counters. */
    public static final String UNIT = "#/op";

    private long[] before;

    public ContextSwitchProfiler() throws ProfilerException {
        this("");
    }

    public ContextSwitchProfiler(String options) throws ProfilerException {
        if (options != null && !options.isBlank()) {
            throw new ProfilerException("ctxsw takes no options (got '" + options + "')");
        }
        if (ContextSwitchCounter.source() == null) {
            throw new ProfilerException(
                    "ctxsw: this platform gives no context-switch counts (needs getrusage on JDK 22+ or Linux /proc)");
        }
    }

    @Override
    public String getDescription() {
        return "Context switches of the benchmark JVM per operation, voluntary and involuntary (getrusage or /proc; no"
                + " perf needed)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = ContextSwitchCounter.read();
    }

    @Override
    public List<? extends Result> afterIteration(
            BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
        long[] after = ContextSwitchCounter.read();
        long ops = result.getMetadata().getAllOps();
        if (before == null || after == null || ops <= 0) {
            return List.of();
        }
        double voluntary = (after[0] - before[0]) / (double) ops;
        double involuntary = (after[1] - before[1]) / (double) ops;
        return List.of(
                new ScalarResult("ctxsw.context-switches", voluntary + involuntary, UNIT, AggregationPolicy.AVG),
                new ScalarResult("ctxsw.voluntary", voluntary, UNIT, AggregationPolicy.AVG),
                new ScalarResult("ctxsw.involuntary", involuntary, UNIT, AggregationPolicy.AVG));
    }
}
