package dev.loomscope.analyzer.fleet;

import dev.loomscope.analyzer.read.BadInputException;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The recordings of an export, made again from its tables: what compare and report read instead of the recordings. */
public final class FleetImport {
    private FleetImport() {}

    /**
     * Every recording of the export in {@code dir} (those in its problems table are named in a
     * warning of the first); with the CPU samples for flame graphs when {@code flames}.
     */
    public static List<RecordingFacts> read(Path dir, boolean flames) {
        Map<String, Map<FleetTable, List<Object[]>>> byRecording = ParquetTables.readAll(dir);
        List<RecordingFacts> out = new ArrayList<>();
        List<Object[]> problems = new ArrayList<>();
        byRecording.forEach((recording, rows) -> {
            if (rows.containsKey(FleetSchema.RECORDINGS)) {
                out.add(FleetReplay.facts(recording, rows, flames));
            } else if (rows.containsKey(FleetSchema.PROBLEMS)) {
                problems.addAll(rows.get(FleetSchema.PROBLEMS));
            }
        });
        if (out.isEmpty()) {
            throw new BadInputException(dir.toAbsolutePath() + ": the export has no recordings" + (problems.isEmpty() ? ""
                    : " (" + problems.size() + " could not be read: see its problems table)") + " (export readable recordings)");
        }
        if (!problems.isEmpty()) {
            out.get(0).warnings.add(dir.toAbsolutePath() + ": " + problems.size() + " recording" + (problems.size() == 1 ? "" : "s")
                    + " of the export could not be read and are left out (its problems table; the first: " + problems.get(0)[2] + ")");
        }
        return out;
    }
}
