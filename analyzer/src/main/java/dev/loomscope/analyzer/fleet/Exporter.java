package dev.loomscope.analyzer.fleet;

import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.ReductionFailedException;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.RecordingSource;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Exports recordings into an export's tables: files reduced in parallel, at most two per thread held at a time, written
 * in input order (a row group per recording in each table). A recording that cannot be read becomes a row of the
 * problems table and the export goes on.
 */
public final class Exporter {
    private Exporter() {}

    /** What an export wrote: recordings exported, and those listed as problems (of which loomscope's bugs). */
    public record Result(int exported, int problems, int bugs, long rows) {}

    /** The name a recording has in the tables: its absolute path. */
    public static String id(RecordingSource source) {
        return source.name().toAbsolutePath().normalize().toString();
    }

    /**
     * The rows of one recording in every table, read and reduced in one pass; a recording that cannot be read gives one
     * row of the problems table. The Spark job calls this in its executors.
     */
    public static Map<FleetTable, List<Object[]>> rows(RecordingSource source, String id) {
        try {
            FleetRows rows = new FleetRows(id);
            return rows.finish(RecordingFacts.of(source, false, rows));
        } catch (BadDataException bad) {
            return problem(id, "bad input", bad.getMessage());
        } catch (ReductionFailedException bug) {
            return problem(id, "bug", bug.getMessage() + " (please report)");
        }
    }

    private static Map<FleetTable, List<Object[]>> problem(String id, String kind, String message) {
        Map<FleetTable, List<Object[]>> rows = new LinkedHashMap<>();
        List<Object[]> one = new ArrayList<>();
        one.add(new Object[] {id, kind, message.replace('\n', ' ')});
        rows.put(FleetSchema.PROBLEMS, one);
        return rows;
    }

    /**
     * Exports {@code sources} into {@code dir} with {@code threads} threads; {@code progress} hears of each recording
     * done.
     */
    public static Result export(List<RecordingSource> sources, Path dir, int threads, Consumer<String> progress)
            throws IOException {
        List<ParquetTables.Writer> writers = new ArrayList<>();
        int exported = 0;
        int problems = 0;
        int bugs = 0;
        long rowCount = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads))) {
            for (FleetTable t : FleetSchema.TABLES) {
                writers.add(new ParquetTables.Writer(dir, t));
            }
            ArrayDeque<Future<Map<FleetTable, List<Object[]>>>> window = new ArrayDeque<>();
            int next = 0;
            int done = 0;
            while (done < sources.size()) {
                while (next < sources.size() && window.size() < 2 * Math.max(1, threads)) {
                    RecordingSource s = sources.get(next++);
                    window.add(pool.submit(() -> rows(s, id(s))));
                }
                Map<FleetTable, List<Object[]>> rows = Analysis.join(window.poll());
                done++;
                List<Object[]> problem = rows.get(FleetSchema.PROBLEMS);
                if (problem != null && !problem.isEmpty()) {
                    problems++;
                    bugs += "bug".equals(problem.get(0)[1]) ? 1 : 0;
                    progress.accept((String) problem.get(0)[2]); // the message names the file
                } else {
                    exported++;
                }
                for (int i = 0; i < writers.size(); i++) {
                    List<Object[]> r = rows.getOrDefault(FleetSchema.TABLES.get(i), List.of());
                    writers.get(i).rowGroup(r);
                    rowCount += r.size();
                }
            }
        } finally {
            for (ParquetTables.Writer w : writers) {
                w.close();
            }
        }
        return new Result(exported, problems, bugs, rowCount);
    }
}
