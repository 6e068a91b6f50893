package dev.loomscope.spark;

import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Grouping;
import dev.loomscope.analyzer.fleet.Exporter;
import dev.loomscope.analyzer.fleet.FleetColumn;
import dev.loomscope.analyzer.fleet.FleetReplay;
import dev.loomscope.analyzer.fleet.FleetSchema;
import dev.loomscope.analyzer.fleet.FleetTable;
import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.ProfileFile;
import dev.loomscope.recording.RecordingSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.SerializableConfiguration;

/**
 * A fleet's recordings on Spark: {@code spark-submit --class dev.loomscope.spark.FleetJob loomscope-spark.jar
 * RECORDINGS... OUT}. Recording paths or globs ({@code **} too) on any Hadoop file system; each executor reads and
 * reduces its recordings with the analyzer's own code ({@link Exporter#rows}) and the tables are written as
 * {@code loomscope export} writes them ({@code OUT/<table>/*.parquet}); then the driver compares the groups and prints
 * the verdicts.
 */
public final class FleetJob {
    private FleetJob() {}

    static final String USAGE = "usage: FleetJob [--by threadKind|label|jvm] RECORDINGS... OUT (paths or globs on any"
            + " Hadoop file system; OUT gets the export's tables)";

    public static void main(String[] args) {
        List<String> rest = new ArrayList<>(List.of(args));
        Grouping.By by = Grouping.By.threadKind;
        if (!rest.isEmpty() && rest.get(0).equals("--by")) {
            String key = rest.size() > 1 ? rest.get(1) : "";
            by = Arrays.stream(Grouping.By.values())
                    .filter(b -> b.name().equalsIgnoreCase(key))
                    .findFirst()
                    .orElse(null);
            if (by == null) {
                System.err.println("loomscope-spark: --by " + key + ": use threadKind, label or jvm; " + USAGE);
                System.exit(2);
            }
            rest = rest.subList(2, rest.size());
        }
        if (rest.size() < 2 || rest.stream().anyMatch(a -> a.startsWith("--"))) {
            System.err.println("loomscope-spark: " + USAGE);
            System.exit(2);
        }
        List<String> inputs = rest.subList(0, rest.size() - 1);
        String out = rest.get(rest.size() - 1);
        SparkSession spark =
                SparkSession.builder().appName("loomscope fleet export").getOrCreate();
        try {
            Result r = run(spark, inputs, out, by);
            System.out.printf(
                    "%s: %d recordings exported, %d in the problems table%n", out, r.exported(), r.problems());
            r.verdicts().forEach(System.out::println);
        } catch (BadDataException | UsageException bad) {
            System.err.println("loomscope-spark: " + bad.getMessage());
            System.exit(2);
        } finally {
            spark.stop();
        }
    }

    /** What the job did: recordings exported and listed as problems, the verdict lines. */
    public record Result(long exported, long problems, List<String> verdicts) {}

    /** Exports {@code inputs} into {@code out} and compares the groups there ({@code by} what the recordings store). */
    public static Result run(SparkSession spark, List<String> inputs, String out, Grouping.By by) {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        List<String> files = list(inputs, conf);
        if (files.isEmpty()) {
            throw new BadDataException(
                    String.join(" ", inputs) + ": no recording found (check the paths and patterns)");
        }
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        var shared = jsc.broadcast(new SerializableConfiguration(conf));
        int slices = Math.min(files.size(), Math.max(1, jsc.defaultParallelism() * 4));
        JavaRDD<HashMap<String, List<Object[]>>> rows = jsc.parallelize(files, slices)
                .map(f -> rows(f, shared.value().value()))
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
            for (FleetTable t : FleetSchema.TABLES) {
                String name = t.name(); // the closure ships to the executors: a string, not the table
                JavaRDD<Row> tableRows = rows.flatMap(m -> m.getOrDefault(name, List.of()).stream()
                        .map(RowFactory::create)
                        .iterator());
                spark.createDataFrame(tableRows, schema(t))
                        .write()
                        .mode(SaveMode.Overwrite)
                        .parquet(out + "/" + t.name());
            }
            // the comparison on the driver, from the rows it needs (not the samples and stacks of flame graphs)
            List<HashMap<String, List<Object[]>>> forComparison = rows.map(m -> {
                        HashMap<String, List<Object[]>> c = new HashMap<>(m);
                        c.remove(FleetSchema.SAMPLES.name());
                        c.remove(FleetSchema.STACKS.name());
                        return c;
                    })
                    .collect();
            List<RecordingFacts> facts = new ArrayList<>();
            long problems = 0;
            for (HashMap<String, List<Object[]>> m : forComparison) {
                if (!m.getOrDefault(FleetSchema.PROBLEMS.name(), List.of()).isEmpty()) {
                    problems++;
                    continue;
                }
                Map<FleetTable, List<Object[]>> byTable = new HashMap<>();
                m.forEach((name, r) -> byTable.put(FleetSchema.named(name), r));
                String recording = (String) m.get(FleetSchema.RECORDINGS.name()).get(0)[0];
                facts.add(FleetReplay.facts(recording, byTable, false));
            }
            Map<String, List<RecordingFacts>> groups = Grouping.of(facts, List.of(), by);
            List<String> verdicts = facts.isEmpty()
                    ? List.of()
                    : CompareView.verdicts(Comparer.compare(groups, List.of(), null, false));
            if (!facts.isEmpty() && verdicts.isEmpty()) {
                verdicts = List.of(CompareView.nothingToCompare(groups.keySet()));
            }
            return new Result(facts.size(), problems, verdicts);
        } finally {
            rows.unpersist();
        }
    }

    /**
     * One recording's rows in every table (by table name), read in this executor: a local file in place, a file of
     * another file system copied to local disk first.
     */
    static HashMap<String, List<Object[]>> rows(String file, Configuration conf) throws IOException {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file);
        FileSystem fs = p.getFileSystem(conf);
        Path local;
        Path copy = null;
        String id;
        if ("file".equals(fs.getUri().getScheme())) {
            local = Path.of(p.toUri().getPath());
            id = Exporter.id(RecordingSource.file(local)); // as loomscope export names it
        } else {
            // the recording's own name in a directory of its own, so that its async-profiler samples come along under
            // theirs
            copy = Files.createTempDirectory("loomscope-");
            local = copy.resolve(p.getName());
            try (InputStream in = fs.open(p)) {
                Files.copy(in, local);
            }
            org.apache.hadoop.fs.Path profile = new org.apache.hadoop.fs.Path(
                    p.getParent(), ProfileFile.of(Path.of(p.getName())).toString());
            if (!ProfileFile.is(local) && fs.isFile(profile)) {
                try (InputStream in = fs.open(profile)) {
                    Files.copy(in, copy.resolve(profile.getName()));
                }
            }
            id = fs.makeQualified(p).toString();
        }
        try {
            HashMap<String, List<Object[]>> out = new HashMap<>();
            Exporter.rows(RecordingSource.file(local), id).forEach((t, r) -> out.put(t.name(), new ArrayList<>(r)));
            if (copy != null) {
                // the reader names the file it read, the local copy: what it said is said of the recording
                String copied = local.toAbsolutePath().toString();
                renamed(out, FleetSchema.PROBLEMS, "message", copied, id);
                renamed(out, FleetSchema.RECORDINGS, "warnings", copied, id);
            }
            return out;
        } finally {
            if (copy != null) {
                try (Stream<Path> copied = Files.list(copy)) {
                    for (Path f : copied.toList()) {
                        Files.deleteIfExists(f);
                    }
                }
                Files.deleteIfExists(copy);
            }
        }
    }

    /** {@code column} of {@code table}'s rows with {@code from} replaced by {@code to}. */
    private static void renamed(
            Map<String, List<Object[]>> rows, FleetTable table, String column, String from, String to) {
        int c = table.index(column);
        for (Object[] r : rows.getOrDefault(table.name(), List.of())) {
            if (r[c] instanceof String text) {
                r[c] = text.replace(from, to);
            }
        }
    }

    /**
     * The recordings {@code inputs} name: files, directories (every .jfr below), globs with {@code **} for any depth.
     */
    static List<String> list(List<String> inputs, Configuration conf) {
        List<String> files = new ArrayList<>();
        try {
            for (String input : inputs) {
                org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(input);
                FileSystem fs = p.getFileSystem(conf);
                if (input.contains("**")) {
                    // Hadoop's globs stop at one directory level: walk from the part before ** and match the rest
                    String root = input.substring(0, input.indexOf("**"));
                    PathMatcher m = FileSystems.getDefault()
                            .getPathMatcher(
                                    "glob:" + fs.makeQualified(p).toUri().getPath());
                    walk(
                            fs,
                            new org.apache.hadoop.fs.Path(root.isEmpty() ? "." : root),
                            f -> m.matches(Path.of(f.toUri().getPath())),
                            files);
                } else if (fs.isDirectory(p)) {
                    walk(fs, p, f -> Inputs.isRecordingName(f.getName()), files);
                } else {
                    FileStatus[] matched = fs.globStatus(p);
                    if (matched != null) {
                        for (FileStatus s : matched) {
                            if (s.isFile()) {
                                files.add(s.getPath().toString());
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new BadDataException(String.join(" ", inputs) + ": cannot list: " + e.getMessage()
                    + " (check the paths and the file system's credentials)");
        }
        // the agent's async-profiler samples are read with their recording, not as one of their own
        Set<String> all = new HashSet<>(files);
        return files.stream()
                .distinct()
                .filter(f -> !ProfileFile.is(Path.of(f))
                        || !all.contains(ProfileFile.recordingOf(Path.of(f)).toString()))
                .sorted()
                .toList();
    }

    private static void walk(
            FileSystem fs, org.apache.hadoop.fs.Path root, Predicate<org.apache.hadoop.fs.Path> take, List<String> into)
            throws IOException {
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
        while (it.hasNext()) {
            org.apache.hadoop.fs.Path f = it.next().getPath();
            if (take.test(f)) {
                into.add(f.toString());
            }
        }
    }

    /** A table's Spark schema: the same columns and types as the export's Parquet files (all nullable). */
    static StructType schema(FleetTable t) {
        List<StructField> fields = new ArrayList<>();
        for (FleetColumn c : t.columns()) {
            DataType type = switch (c.type()) {
                case LONG -> DataTypes.LongType;
                case INT -> DataTypes.IntegerType;
                case DOUBLE -> DataTypes.DoubleType;
                case BOOLEAN -> DataTypes.BooleanType;
                case STRING -> DataTypes.StringType;
            };
            fields.add(DataTypes.createStructField(c.name(), type, true));
        }
        return DataTypes.createStructType(fields);
    }
}
