package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Format;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code --export DIR}: the data as tidy CSV, one row per value, so R and pandas users can redo everything: values.csv
 * (group, recording, run index, metric, unit, value), and the statistics tables beside it.
 */
public final class TidyExport {
    private TidyExport() {}

    public static void write(Path dir, Map<String, List<RecordingFacts>> groups, List<MetricResult> results) {
        try {
            Files.createDirectories(dir);
            Table tidy = new Table(
                    "values",
                    "values",
                    List.of(
                            Table.text("group"),
                            Table.text("recording"),
                            Table.number("index", "", 0),
                            Table.text("metric"),
                            Table.text("unit"),
                            Table.number("value", "", 6),
                            Table.number("units_of_work", "", 6)));
            for (MetricResult r : results) {
                for (Map.Entry<String, List<RecordingFacts>> g : groups.entrySet()) {
                    for (RecordingFacts f : g.getValue()) {
                        for (Metric.Value v : r.metric().extract().apply(f)) {
                            int index = r.metric().level() == Metric.Level.RECORDING ? 0 : (int) v.x();
                            tidy.row(
                                    g.getKey(),
                                    f.source.name().toString(),
                                    index,
                                    r.metric().name(),
                                    r.metric().unit(),
                                    v.value(),
                                    v.units());
                        }
                    }
                }
            }
            Files.writeString(dir.resolve("values.csv"), Format.CSV.render(List.of(tidy)));
            Files.writeString(dir.resolve("boxplot.csv"), Format.CSV.render(List.of(CompareView.boxplots(results))));
            Files.writeString(
                    dir.resolve("regression.csv"), Format.CSV.render(List.of(CompareView.regressions(results))));
            Files.writeString(
                    dir.resolve("comparison.csv"), Format.CSV.render(List.of(CompareView.comparisons(results))));
            Files.writeString(dir.resolve("spread.csv"), Format.CSV.render(List.of(CompareView.spreads(results))));
        } catch (IOException e) {
            throw new BadDataException(dir.toAbsolutePath() + ": cannot write the export: " + e.getMessage()
                    + " (choose another --export)");
        }
    }
}
