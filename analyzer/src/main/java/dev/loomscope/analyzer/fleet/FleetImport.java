package dev.loomscope.analyzer.fleet;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.options.BadDataException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** The recordings of an export, made again from its tables: what compare and report read instead of the recordings. */
public final class FleetImport {
    private FleetImport() {}

    /**
     * Every recording of the export in {@code dir} (those in its problems table are named in a warning of the first);
     * with the CPU samples for flame graphs when {@code flames}. The tables are read one after the other, each row
     * handed to its recording's replay as it is read: what is held is the recordings' reductions and the distinct
     * stacks (without flame graphs, only those of pins), not the export's rows.
     */
    public static List<RecordingFacts> read(Path dir, boolean flames) {
        FleetReplay.Stacks stacks = new FleetReplay.Stacks();
        Map<String, FleetReplay> replays = new LinkedHashMap<>();
        ParquetTables.read(
                dir,
                FleetSchema.RECORDINGS,
                row -> replays.putIfAbsent((String) row[0], new FleetReplay((String) row[0], row, flames, stacks)));
        Set<Long> pinStacks = new HashSet<>();
        if (!flames) {
            ParquetTables.read(dir, FleetSchema.PINS, row -> {
                if (row[FleetSchema.PINS.index("stack_id")] instanceof Long id) {
                    pinStacks.add(id);
                }
            });
        }
        for (FleetTable t : FleetReplay.TABLES.subList(1, FleetReplay.TABLES.size())) {
            Consumer<Object[]> replay = row -> {
                FleetReplay r = replays.get((String) row[0]);
                if (r != null) {
                    r.row(t, row);
                }
            };
            if (flames || t != FleetSchema.SAMPLES && t != FleetSchema.STACKS) {
                ParquetTables.read(dir, t, replay);
            } else if (t == FleetSchema.STACKS && !pinStacks.isEmpty()) {
                // without flame graphs only the pins' stacks are needed
                ParquetTables.read(dir, t, "stack_id", pinStacks, replay);
            }
        }
        List<Object[]> problems = new ArrayList<>();
        ParquetTables.read(dir, FleetSchema.PROBLEMS, row -> {
            if (!replays.containsKey((String) row[0])) {
                problems.add(row);
            }
        });
        if (replays.isEmpty()) {
            throw new BadDataException(dir.toAbsolutePath() + ": the export has no recordings"
                    + (problems.isEmpty() ? "" : " (" + problems.size() + " could not be read: see its problems table)")
                    + " (export readable recordings)");
        }
        List<RecordingFacts> out = new ArrayList<>();
        replays.values().forEach(r -> out.add(r.finish()));
        if (!problems.isEmpty()) {
            out.get(0)
                    .warnings
                    .add(dir.toAbsolutePath() + ": " + problems.size() + " recording"
                            + (problems.size() == 1 ? "" : "s")
                            + " of the export could not be read and are left out (its problems table; the first: "
                            + problems.get(0)[2] + ")");
        }
        return out;
    }
}
