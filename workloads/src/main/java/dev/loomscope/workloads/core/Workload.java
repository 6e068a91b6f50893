package dev.loomscope.workloads.core;

import java.util.Map;

/** One experiment: set up from its options, then run any number of times. */
public interface Workload extends AutoCloseable {

    /** What one run did. */
    record Run(long units, double p50LatencyMs, double p99LatencyMs, String note) {
        public static Run of(long units) {
            return new Run(units, Double.NaN, Double.NaN, null);
        }
    }

    /**
     * What a run is: the thread kind it runs on (platform or virtual), the name of its unit of work (requests, tasks,
     * messages, frames, operations) and its parameters, named as in the original experiment ({@code n=10000 c=100}).
     */
    record About(String threadKind, String unit, String params) {}

    About about();

    /** System properties that must be set when the JVM starts (the JVM is relaunched with them). */
    default Map<String, String> jvmProperties() {
        return Map.of();
    }

    /**
     * Processes that are part of the experiment (a client in a JVM of its own): their CPU is not other processes'
     * noise.
     */
    default long[] helperPids() {
        return new long[0];
    }

    /** Runs once; throws when the run's correctness check fails. */
    Run run() throws Exception;

    @Override
    default void close() throws Exception {}
}
