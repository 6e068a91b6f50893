package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.flamegraphs.testing.OtlpProfiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flame --threads --top N}: CPU by virtual thread and by carrier, on the rendezvous workload (two virtual
 * threads a run, named rendezvous-sender and rendezvous-receiver, handing values to each other: nearly all the CPU is
 * theirs), sampled by JFR (the virtual threads themselves) and by async-profiler (their carriers).
 */
class ThreadCpuIT {
    @TempDir
    static Path dir;

    static Path sampledByJfr;
    static Path sampledByAsyncProfiler;
    static Path sampledByBoth;

    @BeforeAll
    static void record() throws Exception {
        sampledByJfr = Fixtures.rendezvous(dir, "rendezvous-jfr", "virtual", "varhandle", "engine=jfr", 3);
        sampledByAsyncProfiler =
                Fixtures.rendezvous(dir, "rendezvous-ctimer", "virtual", "varhandle", "engine=ctimer", 3);
        // the agent's async-profiler, and JFR's execution sampler enabled by a recording of the JVM's own (JFR writes
        // every enabled
        // event into every recording): the agent's recording has both engines' samples
        sampledByBoth = Fixtures.rendezvous(
                dir,
                "rendezvous-both",
                "virtual",
                "varhandle",
                "engine=ctimer",
                3,
                "-XX:StartFlightRecording:settings=profile,filename=" + dir.resolve("jvms-own.jfr"));
    }

    /**
     * {@code flame REC --threads --top 20 --format csv}, its CPU by thread table's rows' cells: thread, kind, threads,
     * samples, share, virtual code, mounting, scheduler; the command's output with them for messages.
     */
    record Table(List<String[]> rows, String csv) {}

    static Table threads(Path rec) throws Exception {
        ChildJvm.Result r = Fixtures.cli(dir, "flame", rec.toString(), "--threads", "--top", "20", "--format", "csv");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        // with more tables than one (the join, the spins), each row begins with its table's name
        boolean named = r.stdout().startsWith("table,");
        return new Table(
                r.stdout()
                        .lines()
                        .skip(1)
                        .filter(l -> !l.startsWith("#") && !l.isBlank())
                        .map(l -> l.split(",", -1))
                        .filter(cells -> !named || cells[0].equals("threads"))
                        .map(cells -> named ? Arrays.copyOfRange(cells, 1, cells.length) : cells)
                        .toList(),
                r.stdout());
    }

    static double share(List<String[]> rows, String kind) {
        return rows.stream()
                .filter(r -> r[1].equals(kind))
                .mapToDouble(r -> Double.parseDouble(r[4]))
                .sum();
    }

    @Test
    void jfrSamplesVirtualThreadsAsThemselvesGroupedByNameAndCode() throws Exception {
        Table t = threads(sampledByJfr);
        List<String[]> rows = t.rows();
        // one row per name and code, however many virtual threads ran it (a sender and a receiver each run)
        assertThat(rows).anySatisfy(row -> {
            assertThat(row[0])
                    .isEqualTo("rendezvous-receiver running"
                            + " dev/loomscope/workloads/rendezvous/RendezvousWorkload.lambda$run$0");
            assertThat(row[1]).isEqualTo("virtual threads");
            assertThat(Integer.parseInt(row[2])).isGreaterThanOrEqualTo(2);
        });
        assertThat(rows)
                .anySatisfy(row ->
                        assertThat(row[0]).startsWith("rendezvous-sender running dev/loomscope/workloads/rendezvous/"));
        assertThat(share(rows, "virtual threads")).as(t.csv()).isGreaterThan(50);
        // the carriers' own samples are the scheduler's: the virtual threads' are not theirs
        rows.stream()
                .filter(row -> row[1].equals("carrier"))
                .forEach(row -> assertThat(Double.parseDouble(row[7])).isEqualTo(100.0));
    }

    @Test
    void profilesOtherToolsReadLabelEachJfrSampledVirtualThreadWithItsId() throws Exception {
        Path pprof = dir.resolve("rendezvous.pb.gz");
        ChildJvm.Result r =
                Fixtures.cli(dir, "flame", sampledByJfr.toString(), "--format", "pprof", "-o", pprof.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        ChildJvm.Result tags =
                ChildJvm.exec(List.of("/usr/local/go/bin/go", "tool", "pprof", "-tags", pprof.toString()), dir, 120);
        assertThat(tags.exitCode()).as(tags.stdout() + tags.stderr()).isZero();
        // go tool pprof -tags: the label's values with their shares; a run's sender and receiver are virtual threads of
        // their own
        assertThat(tags.stdout()).contains("thread_kind").contains("virtual_thread_id");
        Path otlp = dir.resolve("rendezvous.otlp");
        r = Fixtures.cli(dir, "flame", sampledByJfr.toString(), "--format", "otlp", "-o", otlp.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        List<String> samples = OtlpProfiles.read(otlp, dir);
        List<String> virtual =
                samples.stream().filter(l -> l.startsWith("virtual|")).toList();
        assertThat(virtual.stream()
                        .map(l -> l.split("\\|")[1])
                        .distinct()
                        .filter(id -> !id.equals("-"))
                        .count())
                .as(String.join("\n", samples))
                .isGreaterThanOrEqualTo(2);
        assertThat(virtual).anyMatch(l -> l.contains("RendezvousWorkload"));
        assertThat(samples.get(samples.size() - 1))
                .startsWith("type=cpu unit=count time=")
                .doesNotContain("time=0 ");
        // async-profiler samples carriers: no virtual thread id to give
        Path carriers = dir.resolve("carriers.otlp");
        r = Fixtures.cli(
                dir, "flame", sampledByAsyncProfiler.toString(), "--format", "otlp", "-o", carriers.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(OtlpProfiles.read(carriers, dir))
                .allMatch(l -> l.startsWith("type=") || l.split("\\|")[1].equals("-"));
    }

    @Test
    void theHeatmapCountsEverySampleOfTheGraphByTimeAndThreadKind() throws Exception {
        for (Path rec : List.of(sampledByJfr, sampledByAsyncProfiler)) {
            Path page = dir.resolve(rec.getFileName() + ".heatmap.html");
            ChildJvm.Result r =
                    Fixtures.cli(dir, "flame", rec.toString(), "--format", "heatmap", "-o", page.toString());
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            String html = Files.readString(page);
            // every sample the graph draws (all threads) is in one cell of one map: the cells' counts sum to the
            // graph's
            ChildJvm.Result graph = Fixtures.cli(dir, "flame", rec.toString(), "--collapsed");
            long drawn = graph.stdout()
                    .lines()
                    .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
                    .sum();
            long inCells = Pattern.compile("ms: (\\d+) samples</title>")
                    .matcher(html)
                    .results()
                    .mapToLong(m -> Long.parseLong(m.group(1)))
                    .sum();
            assertThat(inCells).as(rec.toString()).isPositive().isEqualTo(drawn);
            // the virtual threads' map leads (their code has most of the CPU), the maps' shares add up
            assertThat(html).containsPattern("<h2>virtual threads: [\\d,]+ samples \\((\\d{2}|100)\\.\\d%\\)</h2>");
        }
        // two JVMs that ran apart: each its own section and time axis from its own first sample, every sample still in
        // one cell
        Path both = dir.resolve("both.heatmap.html");
        ChildJvm.Result r = Fixtures.cli(
                dir,
                "flame",
                sampledByJfr.toString(),
                sampledByAsyncProfiler.toString(),
                "--format",
                "heatmap",
                "-o",
                both.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        String html = Files.readString(both);
        assertThat(html)
                .contains("<h2>" + sampledByJfr.toAbsolutePath() + "</h2>")
                .contains("<h2>" + sampledByAsyncProfiler.toAbsolutePath() + "</h2>")
                .contains("each on a time axis of its own")
                .containsPattern("<h3>virtual threads: [\\d,]+ samples");
        assertThat(html.split("<svg ", -1).length - 1)
                .as("a map per recording and kind")
                .isGreaterThanOrEqualTo(2);
        // each map's cells start at its own second 0
        for (String section : html.split("<h2>")) {
            if (section.contains("<svg ")) {
                assertThat(section).containsPattern("<title>0 s \\+\\d+ ms: \\d+ samples</title>");
            }
        }
        long drawn = 0;
        for (Path rec : List.of(sampledByJfr, sampledByAsyncProfiler)) {
            drawn += Fixtures.cli(dir, "flame", rec.toString(), "--collapsed")
                    .stdout()
                    .lines()
                    .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
                    .sum();
        }
        assertThat(Pattern.compile("ms: (\\d+) samples</title>")
                        .matcher(html)
                        .results()
                        .mapToLong(m -> Long.parseLong(m.group(1)))
                        .sum())
                .isEqualTo(drawn);
    }

    @Test
    void whereBothEnginesSampledCarriersSamplesAreJoinedToTheVirtualThreadsTheyRan() throws Exception {
        ChildJvm.Result r =
                Fixtures.cli(dir, "flame", sampledByBoth.toString(), "--threads", "--top", "20", "--format", "json");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        JsonNode tables = new ObjectMapper().readTree(r.stdout());
        JsonNode joined = null;
        for (JsonNode t : tables.isArray() ? tables : tables.path("tables")) {
            if (t.path("name").asText().equals("threads_joined")) {
                joined = t;
            }
        }
        assertThat(joined).as(r.stdout()).isNotNull();
        // the rows: a virtual thread group (sender or receiver, by name and code) on a carrier of the scheduler
        long inRows = 0;
        for (JsonNode row : joined.path("rows")) {
            assertThat(row.path("virtual threads").asText())
                    .matches("rendezvous-(sender|receiver) running dev/loomscope/workloads/rendezvous/.*");
            assertThat(row.path("carrier").asText()).startsWith("ForkJoinPool-");
            inRows += row.path("samples").asLong();
        }
        assertThat(inRows).as(r.stdout()).isPositive();
        // the note accounts for every carrier sample in virtual threads' code: joined, ambiguous, unmatched
        String note = joined.path("notes").get(0).asText();
        Matcher m = Pattern.compile("(\\d+) carrier samples in virtual threads' code: joined ([\\d.]+)%, ambiguous"
                        + " ([\\d.]+)% .*unmatched ([\\d.]+)%")
                .matcher(note);
        assertThat(m.find()).as(note).isTrue();
        double shares =
                Double.parseDouble(m.group(2)) + Double.parseDouble(m.group(3)) + Double.parseDouble(m.group(4));
        assertThat(shares).as(note).isCloseTo(100.0, Offset.offset(0.2));
        assertThat(100.0 * inRows / Long.parseLong(m.group(1)))
                .as(note)
                .isCloseTo(Double.parseDouble(m.group(2)), Offset.offset(0.1));
        // one engine alone: nothing to join
        ChildJvm.Result alone =
                Fixtures.cli(dir, "flame", sampledByAsyncProfiler.toString(), "--threads", "--top", "5");
        assertThat(alone.stdout()).doesNotContain("joined with JFR's");
    }

    @Test
    void asyncProfilerSamplesCarriersWithTheShareThatRanVirtualThreads() throws Exception {
        Path rec = sampledByAsyncProfiler;
        Table t = threads(rec);
        List<String[]> rows = t.rows();
        // the scheduler's workers are the carriers, most of their samples in the virtual threads' code (the rest,
        // mounting and the
        // scheduler, grows on a busy machine: 10-30% here); the main thread, which starts
        // virtual threads, is no carrier; no sample is a virtual thread's own (async-profiler samples OS threads)
        List<String[]> carriers =
                rows.stream().filter(row -> row[1].equals("carrier")).toList();
        assertThat(carriers)
                .as(t.csv())
                .isNotEmpty()
                .allSatisfy(row -> assertThat(row[0]).startsWith("ForkJoinPool-"));
        long carrierSamples =
                carriers.stream().mapToLong(row -> Long.parseLong(row[3])).sum();
        double inCode = carriers.stream()
                .mapToDouble(row -> Long.parseLong(row[3]) * Double.parseDouble(row[5]) / 100)
                .sum();
        assertThat(inCode / carrierSamples).as(t.csv()).isGreaterThan(0.5);
        assertThat(rows).noneMatch(row -> row[1].equals("virtual threads"));
        assertThat(rows).noneMatch(row -> row[0].equals("main") && !row[1].equals("platform"));
        // a virtual thread mounted again runs above the continuation's return barrier: drawn as virtual, not platform
        ChildJvm.Result split = Fixtures.cli(dir, "flame", rec.toString(), "--split-kind", "--collapsed");
        assertThat(split.exitCode()).as(split.stderr()).isZero();
        assertThat(split.stdout().lines())
                .noneMatch(l -> l.startsWith("platform;cont_returnBarrier"))
                .anyMatch(l ->
                        l.startsWith("virtual (on carrier);cont_returnBarrier;dev/loomscope/workloads/rendezvous/"));
    }

    @Test
    void theTableIsForOneCpuProfile() throws Exception {
        Path rec = sampledByJfr;
        ChildJvm.Result wall = Fixtures.cli(dir, "flame", rec.toString(), "--threads", "--top", "5", "--event", "wall");
        assertThat(wall.exitCode()).isEqualTo(2);
        assertThat(wall.stderr().strip().lines()).hasSize(1);
        assertThat(wall.stderr()).contains("--top with --threads lists the CPU by thread of one profile");
        ChildJvm.Result diff =
                Fixtures.cli(dir, "flame", "--diff", rec.toString(), rec.toString(), "--threads", "--top", "5");
        assertThat(diff.exitCode()).isEqualTo(2);
        assertThat(diff.stderr()).contains("without --diff");
    }
}
