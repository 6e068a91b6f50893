package dev.loomscope.load;

/**
 * One window as the load client wrote it and a reader read it back (a results file's row, a recording's
 * {@code loomscope.WorkloadRun} event): what {@link ClientFigures} merges, whoever read the row.
 */
public interface WindowRow {
    /** The window's length, ms. */
    double millis();

    /** The requests answered in it. */
    long units();

    /** The answered requests' latency at p50, ms (NaN: none answered). */
    double p50LatencyMs();

    /** The answered requests' latency at p99, ms (NaN: none answered). */
    double p99LatencyMs();

    /** When it began, epoch nanoseconds. */
    long startNanos();

    /** The client's own columns ({@link ClientRow#NONE}: no load client's). */
    ClientRow client();
}
