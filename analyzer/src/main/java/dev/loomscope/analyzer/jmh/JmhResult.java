package dev.loomscope.analyzer.jmh;

import java.util.List;
import java.util.Map;

/**
 * One benchmark result of a JMH JSON file: a benchmark method, its mode and parameters, the primary score and the
 * context switches per operation when a profiler measured them.
 *
 * @param file the JSON file it came from
 * @param benchmark the fully qualified benchmark method
 * @param mode JMH's mode (thrpt, avgt, sample, ss)
 * @param params the {@code @Param} values, in JMH's order
 * @param forks how many forks ran
 * @param iterations measured iterations per fork
 * @param score the primary score
 * @param error the half-width of JMH's 99.9% interval (NaN when JMH had too few samples)
 * @param unit the score's unit
 * @param perfnormSwitches context switches #/op from perfnorm (NaN when absent)
 * @param perfnormKey the perfnorm key read ({@code context-switches} or {@code context-switches:u}), or null
 * @param ctxswSwitches context switches #/op from the ctxsw profiler (NaN when absent)
 * @param cpuMigrations cpu-migrations #/op from perfnorm (NaN when absent)
 * @param rawData the primary metric's measured iterations, one array per fork (each fork a JVM); empty when JMH wrote
 *     none
 */
public record JmhResult(
        String file,
        String benchmark,
        String mode,
        Map<String, String> params,
        int forks,
        int iterations,
        double score,
        double error,
        String unit,
        double perfnormSwitches,
        String perfnormKey,
        double ctxswSwitches,
        double cpuMigrations,
        List<double[]> rawData) {

    /** Whether a lower score is better: time per operation (avgt, sample, ss), not operations per time (thrpt). */
    public boolean lowerIsBetter() {
        return !mode.equals("thrpt");
    }

    /** The method's short name: {@code GameOfLifeBenchmark.frame}. */
    public String shortName() {
        int method = benchmark.lastIndexOf('.');
        int type = method > 0 ? benchmark.lastIndexOf('.', method - 1) : -1;
        return benchmark.substring(type + 1);
    }

    /** The parameters as {@code name=value} words. */
    public String paramText() {
        StringBuilder sb = new StringBuilder();
        params.forEach((k, v) ->
                sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    /** The context switches #/op to show: perfnorm's when measured, else ctxsw's. */
    public double switches() {
        return Double.isNaN(perfnormSwitches) ? ctxswSwitches : perfnormSwitches;
    }
}
