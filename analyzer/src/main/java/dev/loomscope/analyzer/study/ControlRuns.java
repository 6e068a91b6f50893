package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.errors.BadDataException;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The results file a JVM without agent or JFR writes ({@code loomscope-workloads ... --results
 * FILE.csv}): one row per run with the WorkloadRun event's fields, read into the same records.
 */
public final class ControlRuns {
    /** The columns read; the file may have more, in any order. */
    static final List<String> COLUMNS = List.of("workload", "threadKind", "runIndex", "warmup", "units", "unit", "startEpochNanos", "nanos",
            "p50LatencyMs", "p99LatencyMs", "voluntaryContextSwitches", "involuntaryContextSwitches");
    /** Columns read when present (a results file of an older loomscope has none of them). */
    static final List<String> OPTIONAL = List.of("processCpu", "otherCpu", "stealCpu", "allocatedBytes");

    private ControlRuns() {}

    public static List<WorkloadRun> read(Path csv) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BadDataException(csv + ": cannot read the workload's results (" + e.getMessage() + ")", e);
        }
        if (lines.isEmpty()) {
            throw new BadDataException(csv + ": empty: the workload wrote no results (see its output.log beside it)");
        }
        List<String> header = Arrays.asList(lines.get(0).split(",", -1));
        int[] at = new int[COLUMNS.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = header.indexOf(COLUMNS.get(i));
            if (at[i] < 0) {
                throw new BadDataException(csv + ": line 1: no column '" + COLUMNS.get(i) + "' (columns: " + String.join(", ", COLUMNS) + ")");
            }
        }
        int[] optional = OPTIONAL.stream().mapToInt(header::indexOf).toArray();
        List<WorkloadRun> runs = new ArrayList<>();
        for (int n = 1; n < lines.size(); n++) {
            if (lines.get(n).isBlank()) {
                continue;
            }
            String[] v = lines.get(n).split(",", -1);
            if (v.length != header.size()) {
                throw new BadDataException(csv + ": line " + (n + 1) + ": " + v.length + " values, the header names " + header.size());
            }
            try {
                long start = Long.parseLong(v[at[6]]);
                long nanos = Long.parseLong(v[at[7]]);
                runs.add(new WorkloadRun(v[at[0]], v[at[1]], Integer.parseInt(v[at[2]]), Boolean.parseBoolean(v[at[3]]), Long.parseLong(v[at[4]]),
                        v[at[5]], null, nanos / 1e6, Double.parseDouble(v[at[8]]), Double.parseDouble(v[at[9]]), start, start + nanos,
                        Long.parseLong(v[at[10]]), Long.parseLong(v[at[11]]), optional(v, optional[0]), optional(v, optional[1]),
                        optional(v, optional[2]), optional[3] < 0 ? -1 : Long.parseLong(v[optional[3]])));
            } catch (NumberFormatException e) {
                throw new BadDataException(csv + ": line " + (n + 1) + ": not a number where one belongs (" + e.getMessage() + ")", e);
            }
        }
        return runs;
    }

    private static double optional(String[] values, int at) {
        return at < 0 ? Double.NaN : Double.parseDouble(values[at]);
    }
}
