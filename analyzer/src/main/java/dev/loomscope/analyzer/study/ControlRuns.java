package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.reduce.RunsReducer;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.events.RunResults;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.FieldValues;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The results file a JVM without agent or JFR writes ({@code loomscope-workloads ... --results FILE.csv},
 * {@link RunResults}): one row per run with the WorkloadRun event's fields, read into the same records by the same code
 * as the events ({@link RunsReducer#run}).
 */
public final class ControlRuns {
    /**
     * The columns a file must have (the run's start and duration, the event's required fields); the others are read
     * when present.
     */
    static final List<String> COLUMNS = Stream.concat(
                    Stream.of(RunResults.START, RunResults.NANOS), RunsReducer.required().stream())
            .toList();

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
        List<String> header = RunResults.split(lines.get(0));
        for (String column : COLUMNS) {
            if (header == null || !header.contains(column)) {
                throw new BadDataException(csv + ": line 1: no column '" + column + "' (a results file has at least: "
                        + String.join(", ", COLUMNS) + ")");
            }
        }
        List<WorkloadRun> runs = new ArrayList<>();
        for (int n = 1; n < lines.size(); n++) {
            if (lines.get(n).isBlank()) {
                continue;
            }
            List<String> v = RunResults.split(lines.get(n));
            if (v == null || v.size() != header.size()) {
                throw new BadDataException(csv + ": line " + (n + 1) + ": "
                        + (v == null
                                ? "a quote is not closed"
                                : v.size() + " values, the header names " + header.size()));
            }
            Function<String, String> value = column -> header.contains(column) ? v.get(header.indexOf(column)) : null;
            try {
                long start = Long.parseLong(value.apply(RunResults.START));
                long nanos = Long.parseLong(value.apply(RunResults.NANOS));
                runs.add(RunsReducer.run(
                        new FieldValues() {
                            @Override
                            public boolean hasField(String field) {
                                String s = value.apply(field);
                                return s != null && !s.isEmpty();
                            }

                            @Override
                            public String string(String field) {
                                return value.apply(field);
                            }

                            @Override
                            public long longValue(String field) {
                                return Long.parseLong(value.apply(field));
                            }

                            @Override
                            public double doubleValue(String field) {
                                return Double.parseDouble(value.apply(field));
                            }

                            @Override
                            public boolean bool(String field) {
                                return Boolean.parseBoolean(value.apply(field));
                            }
                        },
                        csv + ": line " + (n + 1),
                        start,
                        nanos));
            } catch (NumberFormatException e) {
                throw new BadDataException(
                        csv + ": line " + (n + 1) + ": not a number where one belongs (" + e.getMessage() + ")", e);
            }
        }
        return runs;
    }
}
