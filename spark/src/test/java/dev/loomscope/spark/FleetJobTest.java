package dev.loomscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Grouping;
import dev.loomscope.analyzer.fleet.Exporter;
import dev.loomscope.analyzer.fleet.FleetImport;
import dev.loomscope.analyzer.fleet.FleetSchema;
import dev.loomscope.analyzer.fleet.FleetTable;
import dev.loomscope.recording.ProfileFile;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.workloads.core.Runner;
import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.sleep.SleepWorkload;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import jdk.jfr.Configuration;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark job on Spark's local mode over 201 recordings this test makes (the sleep workload on both thread kinds,
 * each in a JFR recording of its own, and one damaged file): the tables it writes are the single-machine export's, row
 * for row, and so are its verdicts.
 */
class FleetJobTest {
    static final int RECORDINGS = 200;

    @TempDir
    static Path dir;

    static SparkSession spark;
    static Path recordings;

    /**
     * The agent's loomscope.RunInfo, as any app may emit it (the event schema is public): the recording's thread kind.
     */
    @Name("loomscope.RunInfo")
    @Label("Run Info")
    static final class RunInfo extends Event {
        @Label("Label")
        String label;

        @Label("Thread Kind")
        String threadKind;

        @Label("Command")
        String command;
    }

    @BeforeAll
    static void recordAndStart() throws Exception {
        recordings = Files.createDirectories(dir.resolve("fleet/instances"));
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        for (int i = 0; i < RECORDINGS; i++) {
            ThreadKind kind = i % 2 == 0 ? ThreadKind.PLATFORM : ThreadKind.VIRTUAL;
            Path sub = Files.createDirectories(recordings.resolve("host-" + i % 10));
            try (Recording r = new Recording(Configuration.getConfiguration("default"))) {
                r.start();
                RunInfo info = new RunInfo();
                info.label = "instance-" + i;
                info.threadKind = kind.name().toLowerCase(Locale.ROOT);
                info.command = "FleetJobTest";
                info.commit();
                SleepWorkload w = new SleepWorkload(kind, "per-task", 200, 1);
                Runner.run("sleep", w, 1, 3, quiet);
                w.close();
                r.stop();
                r.dump(sub.resolve("sleep-" + i + ".jfr"));
            }
        }
        byte[] real = Files.readAllBytes(recordings.resolve("host-0/sleep-0.jfr"));
        Files.write(recordings.resolve("host-0/damaged.jfr"), Arrays.copyOf(real, 3000));
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("FleetJobTest")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .getOrCreate();
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    static List<String> rows(Path export, FleetTable t) {
        List<String> out = new ArrayList<>();
        for (Row r : spark.read().parquet(export.resolve(t.name()).toString()).collectAsList()) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < r.length(); i++) {
                values.add(r.schema().fields()[i].name() + "=" + r.get(i));
            }
            out.add(String.join(",", values));
        }
        out.sort(null);
        return out;
    }

    @Test
    void theJobWritesTheSingleMachineExportAndItsVerdicts() throws Exception {
        List<RecordingSource> sources;
        try (Stream<Path> s = Files.walk(recordings)) {
            sources = s.filter(p -> p.toString().endsWith(".jfr") && !ProfileFile.is(p))
                    .sorted()
                    .map(RecordingSource::file)
                    .toList();
        }
        assertThat(sources).hasSize(RECORDINGS + 1);
        Path single = dir.resolve("single");
        Exporter.Result local = Exporter.export(sources, single, 2, problem -> {});
        assertThat(local.exported()).isEqualTo(RECORDINGS);
        assertThat(local.problems()).isEqualTo(1);

        Path onSpark = dir.resolve("spark");
        FleetJob.Result job =
                FleetJob.run(spark, List.of(recordings + "/**/*.jfr"), onSpark.toString(), Grouping.By.threadKind);
        assertThat(job.exported()).isEqualTo(RECORDINGS);
        assertThat(job.problems()).isEqualTo(1);

        for (FleetTable t : FleetSchema.TABLES) {
            List<String> a = rows(single, t);
            List<String> b = rows(onSpark, t);
            assertThat(b).as(t.name()).hasSameSizeAs(a).isEqualTo(a);
        }
        assertThat(rows(single, FleetSchema.RUNS)).hasSize(RECORDINGS * 4);
        assertThat(rows(single, FleetSchema.PROBLEMS))
                .singleElement()
                .asString()
                .contains("damaged.jfr")
                .contains("kind=bad input");

        // the verdicts on the driver are those compare gives from the single-machine export
        List<String> verdicts = CompareView.verdicts(
                Comparer.compare(Grouping.of(FleetImport.read(single, false), List.of()), List.of(), null, false));
        assertThat(job.verdicts()).isNotEmpty().isEqualTo(verdicts);
        // and loomscope's reader takes what Spark wrote (its files, Snappy pages of Spark's own codec) to the same
        // verdicts
        assertThat(CompareView.verdicts(Comparer.compare(
                        Grouping.of(FleetImport.read(onSpark, false), List.of()), List.of(), null, false)))
                .isEqualTo(verdicts);
        assertThat(job.verdicts())
                .anyMatch(v -> v.startsWith("virtual vs platform: run time median")
                        && v.matches(".*, n=\\d{2,3}/\\d{2,3} JVMs(, \\d+/\\d+ runs| x \\d runs): better.*"));
    }

    @Test
    void aRecordingOnAnotherFileSystemIsNamedByItsOwnPath() throws Exception {
        // viewfs is a file system of its own (not "file"): the job copies the recording to local disk first
        org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
        conf.set(
                "fs.viewfs.mounttable.fleet.link./instances", recordings.toUri().toString());
        // a chunk its JVM was still writing (outside the fleet the other test walks): read up to its last flush, with a
        // warning
        Path other = Files.createDirectories(dir.resolve("other"));
        byte[] bytes = Files.readAllBytes(recordings.resolve("host-1/sleep-1.jfr"));
        bytes[64] = (byte) 255; // the chunk header's state byte, as a JVM leaves it while it writes the chunk
        Files.write(other.resolve("unfinished.jfr"), bytes);
        conf.set("fs.viewfs.mounttable.fleet.link./other", other.toUri().toString());
        String unfinished = "viewfs://fleet/other/unfinished.jfr";
        String good = "viewfs://fleet/instances/host-1/sleep-1.jfr";
        String damaged = "viewfs://fleet/instances/host-0/damaged.jfr";
        assertThat(FleetJob.list(List.of("viewfs://fleet/instances/**/sleep-1*.jfr"), conf))
                .contains(good);

        var rows = FleetJob.rows(good, conf);
        assertThat(rows.get(FleetSchema.RECORDINGS.name()))
                .singleElement()
                .satisfies(r -> assertThat(r[0]).isEqualTo(good));
        var local = Exporter.rows(RecordingSource.file(recordings.resolve("host-1/sleep-1.jfr")), good);
        assertThat(rows.get(FleetSchema.RUNS.name()))
                .hasSize(4)
                .extracting(Arrays::toString)
                .isEqualTo(local.get(FleetSchema.RUNS).stream()
                        .map(Arrays::toString)
                        .toList());

        var warned = FleetJob.rows(unfinished, conf).get(FleetSchema.RECORDINGS.name());
        assertThat(warned)
                .singleElement()
                .satisfies(r -> assertThat((String) r[FleetSchema.RECORDINGS.index("warnings")])
                        .startsWith(unfinished + ": the chunk at byte 0 was still being written")
                        .doesNotContain("loomscope-"));

        var problem = FleetJob.rows(damaged, conf).get(FleetSchema.PROBLEMS.name());
        assertThat(problem).singleElement().satisfies(r -> {
            assertThat(r[0]).isEqualTo(damaged);
            assertThat((String) r[2]).startsWith(damaged + ": truncated").doesNotContain("loomscope-");
        });
    }
}
