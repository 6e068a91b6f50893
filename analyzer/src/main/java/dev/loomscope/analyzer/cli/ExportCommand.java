package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.fleet.Exporter;
import dev.loomscope.analyzer.fleet.FleetSchema;
import dev.loomscope.analyzer.fleet.FleetTable;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.RecordingSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loomscope export}: recordings into Parquet tables, for a fleet's comparison, Spark, DuckDB or pandas. */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        description = {
            "Exports recordings into Parquet tables for compare, report, Spark, DuckDB or pandas.",
            "The tables (DIR/<table>/*.parquet, docs/fleets.md): recordings, runs (every per-run metric), pins, work,"
                    + " gc, heap, allocations, context_switches, cpu_load, scheduler, samples and stacks, event_types;"
                    + " a recording that cannot be read is a row of the problems table and the export goes on. compare"
                    + " and report read DIR as they read recordings; Spark's job (loomscope-spark.jar) writes the same"
                    + " tables."
        })
public final class ExportCommand extends CliCommand {
    @Mixin
    InputArgs in;

    @Option(
            names = "--to",
            paramLabel = "DIR",
            required = true,
            description = "the directory of the tables (must be new or empty, or --overwrite)")
    Path to;

    @Option(names = "--overwrite", description = "replace the tables of an export already in DIR")
    boolean overwrite;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "recordings read at once (default: the cores, ${DEFAULT-VALUE} here)")
    int threads = Runtime.getRuntime().availableProcessors();

    @Mixin
    DebugOption debug;

    @Override
    public Integer call() throws IOException {
        if (threads < 1) {
            throw new UsageException("--threads " + threads + ": use 1 or more");
        }
        Path dir = to.toAbsolutePath().normalize();
        prepare(dir);
        List<RecordingSource> sources = in.sources();
        var err = stderr();
        Exporter.Result r = Exporter.export(
                sources,
                dir,
                threads,
                problem -> err.println("loomscope export: " + problem + " (listed in the problems table)"));
        stdout().printf(
                        "%s: %d recording%s exported, %d in the problems table, %d rows in all its tables%n",
                        dir, r.exported(), r.exported() == 1 ? "" : "s", r.problems(), r.rows());
        if (r.bugs() > 0) {
            err.println("loomscope export: " + r.bugs() + " recording" + (r.bugs() == 1 ? "" : "s")
                    + " failed in loomscope's own code (internal error; the problems table says where; please report)");
            return Errors.INTERNAL;
        }
        if (r.exported() == 0) {
            err.println("loomscope export: " + dir + ": none of the recordings could be read (see the lines above)");
            return Errors.USAGE;
        }
        return Errors.OK;
    }

    /** The directory ready for the tables: new, empty, or an export replaced when --overwrite. */
    private void prepare(Path dir) throws IOException {
        if (Files.isRegularFile(dir)) {
            throw new BadDataException(dir + ": is a file, not a directory (choose a directory for --to)");
        }
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> present;
        try (Stream<Path> s = Files.list(dir)) {
            present = s.toList();
        }
        if (present.isEmpty()) {
            return;
        }
        boolean anExport = present.stream()
                .allMatch(p -> FleetSchema.named(p.getFileName().toString()) != null
                        || p.getFileName().toString().startsWith("_"));
        if (!overwrite || !anExport) {
            throw new BadDataException(dir + ": is not empty ("
                    + (anExport ? "an export: add --overwrite to replace it" : "and not an export: choose another --to")
                    + ")");
        }
        for (FleetTable t : FleetSchema.TABLES) {
            Path tableDir = dir.resolve(t.name());
            if (Files.isDirectory(tableDir)) {
                try (Stream<Path> s = Files.walk(tableDir)) {
                    for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }
}
