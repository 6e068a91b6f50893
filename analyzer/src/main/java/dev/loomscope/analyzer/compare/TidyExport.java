package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.read.BadInputException;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Format;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.io.csv.CsvWriteOptions;
import tech.tablesaw.io.csv.CsvWriter;

/**
 * {@code --export DIR}: the data as tidy CSV, one row per value, so R and pandas users can redo
 * everything: values.csv (group, recording, run index, metric, unit, value), and the statistics
 * tables beside it.
 */
public final class TidyExport {
    private TidyExport() {}

    public static void write(Path dir, Map<String, List<RecordingFacts>> groups, List<MetricResult> results) {
        try {
            Files.createDirectories(dir);
            StringColumn group = StringColumn.create("group");
            StringColumn recording = StringColumn.create("recording");
            IntColumn index = IntColumn.create("index");
            StringColumn metric = StringColumn.create("metric");
            StringColumn unit = StringColumn.create("unit");
            DoubleColumn value = DoubleColumn.create("value");
            DoubleColumn units = DoubleColumn.create("units_of_work");
            for (MetricResult r : results) {
                for (Map.Entry<String, List<RecordingFacts>> g : groups.entrySet()) {
                    for (RecordingFacts f : g.getValue()) {
                        for (Metric.Value v : r.metric().extract().apply(f)) {
                            group.append(g.getKey());
                            recording.append(f.source.name().toString());
                            index.append(r.metric().level() == Metric.Level.RECORDING ? 0 : (int) v.x());
                            metric.append(r.metric().name());
                            unit.append(r.metric().unit());
                            value.append(v.value());
                            units.append(v.units());
                        }
                    }
                }
            }
            Table tidy = Table.create("values", group, recording, index, metric, unit, value, units);
            new CsvWriter().write(tidy, CsvWriteOptions.builder(dir.resolve("values.csv").toFile()).build());
            Files.writeString(dir.resolve("boxplot.csv"), Format.CSV.render(List.of(CompareView.boxplots(results))));
            Files.writeString(dir.resolve("regression.csv"), Format.CSV.render(List.of(CompareView.regressions(results))));
            Files.writeString(dir.resolve("comparison.csv"), Format.CSV.render(List.of(CompareView.comparisons(results))));
        } catch (IOException e) {
            throw new BadInputException(dir.toAbsolutePath() + ": cannot write the export: " + e.getMessage() + " (choose another --export)");
        }
    }
}
