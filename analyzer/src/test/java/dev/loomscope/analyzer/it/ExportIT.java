package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.fleet.FleetSchema;
import dev.loomscope.analyzer.fleet.FleetTable;
import dev.loomscope.analyzer.fleet.ParquetTables;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.ProfileFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope export} on recordings of real JVMs under the agent, and compare and report reading the export: the
 * same figures, verdicts and flame graphs as from the recordings.
 */
class ExportIT {
    @TempDir
    static Path dir;

    static Path recordings;
    static Path export;
    static ChildJvm.Result exported;

    @BeforeAll
    static void exportThem() throws Exception {
        recordings = Files.createDirectories(dir.resolve("recordings"));
        for (Path p : List.of(
                Fixtures.sleep(dir, "platform", "flame=cpu"),
                Fixtures.sleep(dir, "virtual", "flame=cpu"),
                Fixtures.fixture(dir, 3, 2))) {
            Files.copy(p, recordings.resolve(p.getFileName()));
            Path profile = ProfileFile.beside(p); // async-profiler's samples go with their recording
            if (profile != null) {
                Files.copy(profile, recordings.resolve(profile.getFileName()));
            }
        }
        Path damaged = dir.resolve("damaged.jfr");
        byte[] real =
                Files.readAllBytes(Files.list(recordings).sorted().findFirst().orElseThrow());
        byte[] cut = Arrays.copyOf(real, 2000);
        Files.write(damaged, cut);
        export = dir.resolve("fleet");
        exported = Fixtures.cli(dir, "export", recordings.toString(), damaged.toString(), "--to", export.toString());
    }

    static List<Object[]> rows(FleetTable t) {
        List<Object[]> rows = new ArrayList<>();
        ParquetTables.read(export, t, rows::add);
        return rows;
    }

    @Test
    void exportsEveryReadableRecordingAndListsTheDamagedOne() {
        assertThat(exported.exitCode()).as(exported.stderr()).isZero();
        assertThat(exported.stdout()).contains("3 recordings exported, 1 in the problems table");
        assertThat(exported.stderr()
                        .lines()
                        .filter(l -> !l.startsWith("WARNING"))
                        .toList())
                .singleElement()
                .asString()
                .startsWith("loomscope export: " + dir.resolve("damaged.jfr"))
                .endsWith("(listed in the problems table)");
        List<Object[]> problems = rows(FleetSchema.PROBLEMS);
        assertThat(problems).hasSize(1);
        assertThat(problems.get(0)[0]).isEqualTo(dir.resolve("damaged.jfr").toString());
        assertThat(problems.get(0)[1]).isEqualTo("bad input");
        assertThat(rows(FleetSchema.RECORDINGS))
                .extracting(r -> r[FleetSchema.RECORDINGS.index("thread_kind")])
                .containsExactlyInAnyOrder("platform", "virtual", "virtual");
        // sleep: 1 warm-up + 6 measured runs per JVM, each with its run time and the metrics computed per run
        List<Object[]> runs = rows(FleetSchema.RUNS);
        assertThat(runs).hasSize(14);
        assertThat(runs)
                .allSatisfy(r -> assertThat((Double) r[FleetSchema.RUNS.index("run_time_ms")])
                        .isPositive());
        assertThat(rows(FleetSchema.PINS))
                .hasSize(3)
                .allSatisfy(r -> assertThat((String) r[FleetSchema.PINS.index("top_frame")])
                        .contains("FixtureApp"));
        assertThat(rows(FleetSchema.SAMPLES)).isNotEmpty();
        assertThat(rows(FleetSchema.STACKS)).isNotEmpty();
        assertThat(rows(FleetSchema.GC)).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void compareReadsTheExportAsItReadsTheRecordings() throws Exception {
        ChildJvm.Result fromRecordings = Fixtures.cli(dir, "compare", recordings.toString(), "--format", "json");
        ChildJvm.Result fromExport = Fixtures.cli(dir, "compare", export.toString(), "--format", "json");
        assertThat(fromExport.exitCode()).as(fromExport.stderr()).isZero();
        var mapper = new ObjectMapper();
        var a = mapper.readTree(fromRecordings.stdout());
        var b = mapper.readTree(fromExport.stdout());
        for (String table : List.of("verdicts", "boxplot", "regression", "comparison")) {
            assertThat(AnalyzerIT.table(b, table).get("rows"))
                    .as(table)
                    .isEqualTo(AnalyzerIT.table(a, table).get("rows"));
        }
        assertThat(fromExport.stdout()).contains("1 recording of the export could not be read");
    }

    @Test
    void groupsByLabelAsFromTheRecordings() throws Exception {
        ChildJvm.Result fromRecordings =
                Fixtures.cli(dir, "compare", recordings.toString(), "--by", "label", "--format", "json");
        ChildJvm.Result fromExport =
                Fixtures.cli(dir, "compare", export.toString(), "--by", "label", "--format", "json");
        assertThat(fromExport.exitCode()).as(fromExport.stderr()).isZero();
        var mapper = new ObjectMapper();
        var a = AnalyzerIT.table(mapper.readTree(fromRecordings.stdout()), "boxplot")
                .get("rows");
        var b = AnalyzerIT.table(mapper.readTree(fromExport.stdout()), "boxplot")
                .get("rows");
        assertThat(b).isEqualTo(a);
        // the fixture's label, not its thread kind, names its group
        List<String> groups = new ArrayList<>();
        b.forEach(row -> groups.add(row.get("group").asText()));
        assertThat(groups).contains("fixture").doesNotContain("virtual");
    }

    @Test
    void reportFromTheExportDrawsTheSameFlameGraphs() throws Exception {
        Path a = dir.resolve("report-recordings");
        Path b = dir.resolve("report-export");
        assertThat(Fixtures.cli(dir, "report", recordings.toString(), "-o", a.toString())
                        .exitCode())
                .isZero();
        ChildJvm.Result r = Fixtures.cli(dir, "report", export.toString(), "-o", b.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        // each workload's comparison its own flame graphs (the fixture app, which names no workload, apart from the
        // sleep JVMs)
        List<String> flames;
        try (var files = Files.list(a)) {
            flames = files.map(f -> f.getFileName().toString())
                    .filter(f -> f.contains("flame-") && f.endsWith(".html"))
                    .sorted()
                    .toList();
        }
        assertThat(flames)
                .as("flame graphs of the report: %s", flames)
                .contains(
                        "flame-sleep-platform.html",
                        "flame-sleep-virtual.html",
                        "flame-diff-sleep-virtual-vs-platform.html",
                        "flame-no_workload-virtual.html");
        for (String f : flames) {
            assertThat(Files.readString(b.resolve(f))).as(f).isEqualTo(Files.readString(a.resolve(f)));
        }
    }

    @Test
    void aSecondExportIntoTheSameDirectoryNeedsOverwrite() throws Exception {
        ChildJvm.Result again = Fixtures.cli(dir, "export", recordings.toString(), "--to", export.toString());
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.stderr()).contains("is not empty (an export: add --overwrite to replace it)");
    }

    /** The CLI carries export's Parquet without Hadoop's runtime or Snappy's native code (what lets it stay lean). */
    @Test
    void theCliJarIsLeanAndItsOnlyNativeCodeIsLz4s() throws Exception {
        assertThat(Files.size(Fixtures.CLI)).isLessThanOrEqualTo(15L << 20);
        List<String> natives = new ArrayList<>();
        int hadoop = 0;
        try (var jar = new ZipFile(Fixtures.CLI.toFile())) {
            for (var e : Collections.list(jar.entries())) {
                String n = e.getName();
                if (n.endsWith(".so")
                        || n.endsWith(".dylib")
                        || n.endsWith(".dll")
                        || n.endsWith(".jnilib")
                        || n.endsWith(".a")) {
                    natives.add(n);
                }
                hadoop += n.startsWith("org/apache/hadoop/") && n.endsWith(".class") ? 1 : 0;
            }
        }
        assertThat(natives).isNotEmpty().allMatch(n -> n.startsWith("net/jpountz/"));
        assertThat(hadoop).isLessThan(30);
    }
}
