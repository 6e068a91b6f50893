package dev.loomscope.analyzer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.jmh.JmhReader;
import dev.loomscope.analyzer.jmh.JmhResult;
import dev.loomscope.analyzer.jmh.JmhView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope jmh} on the JMH results of real short runs (src/test/resources/jmh/README.md says how each was
 * made).
 */
class JmhCommandTest {
    static final Path DIR = Path.of("src/test/resources/jmh");
    static final Path GOL = DIR.resolve("gameoflife-perfnorm-ctxsw.json");
    static final Path LEGACY = DIR.resolve("gameoflife-legacy-dot-keys.json");
    static final Path THREADS = DIR.resolve("threads-ctxsw.json");
    static final Path UNPRIVILEGED = DIR.resolve("rendezvous-perfnorm-unprivileged.json");
    static final Path FORKS = DIR.resolve("threads-5-forks.json");

    @Test
    void pairsAreComparedForkByForkWithTheVerdictRule(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("jmh.json");
        MainTest.Result r = MainTest.run("jmh", FORKS.toString(), "--format", "json", "-o", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode verdicts =
                new ObjectMapper().readTree(out.toFile()).get("tables").get(2);
        assertThat(verdicts.get("name").asText()).isEqualTo("jmh-verdicts");
        JsonNode row = verdicts.get("rows").get(0);
        assertThat(row.get("benchmark").asText()).isEqualTo("ThreadsBenchmark.*ThreadPerTask sleepMs=1 tasks=1000");
        assertThat(row.get("forks").asText()).isEqualTo("5/5");
        // a thousand sleeping tasks: a virtual thread per task takes a fraction of a platform thread per task's time,
        // in every fork
        assertThat(row.get("ratio ci high").asDouble()).isLessThan(1);
        assertThat(row.get("p").asDouble()).isCloseTo(2.0 / 252, Offset.offset(1e-12));
        assertThat(row.get("verdict").asText()).isEqualTo("better");
        assertThat(row.get("platform jmh error").isNumber()).isTrue();
    }

    @Test
    void aRunAgainstItselfIsNeverDifferentAndOneForkIsTooFew() {
        MainTest.Result same = MainTest.run("jmh", FORKS.toString(), "--baseline", FORKS.toString(), "--format", "csv");
        assertThat(same.code()).as(same.err()).isZero();
        List<String> rows =
                same.out().lines().filter(l -> l.startsWith("jmh-baseline,")).toList();
        // ratio 1, p 1; five noisy forks cannot show the two within 5% of each other either: inconclusive, never better
        // or worse
        assertThat(rows).hasSize(3).allMatch(l -> l.contains(",1.0,") && l.endsWith(",1.0,5/5,inconclusive"));
        MainTest.Result one =
                MainTest.run("jmh", THREADS.toString(), "--baseline", THREADS.toString(), "--format", "csv");
        assertThat(one.out().lines().filter(l -> l.startsWith("jmh-baseline,")).toList())
                .allMatch(l -> l.endsWith(",1/1,too few JVMs"));
    }

    @Test
    void jsonBeyondJsonsLimitsIsBadInputNotOurBug(@TempDir Path dir) throws Exception {
        Path deep = Files.writeString(dir.resolve("deep.json"), "[".repeat(200_000) + "]".repeat(200_000));
        MainTest.Result r = MainTest.run("jmh", deep.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip())
                .startsWith("loomscope jmh: " + deep + ": not a JMH result: ")
                .doesNotContain("internal error")
                .doesNotContain("\n");
        Path longName =
                Files.writeString(dir.resolve("long.json"), "[{\"benchmark\": \"" + "x".repeat(30_000_000) + "\"}]");
        MainTest.Result l = MainTest.run("jmh", longName.toString());
        assertThat(l.code()).isEqualTo(2);
        assertThat(l.err()).contains(": not a JMH result: ").doesNotContain("internal error");
    }

    @Test
    void readsPerfnormAndCtxswCountsPerOperation() {
        List<JmhResult> results = JmhReader.read(GOL);
        assertThat(results).hasSize(2);
        JmhResult virtual = results.get(0);
        assertThat(virtual.shortName()).isEqualTo("GameOfLifeBenchmark.frame");
        assertThat(virtual.params()).containsEntry("useVirtualThreads", "true").containsEntry("padding", "25");
        assertThat(virtual.mode()).isEqualTo("thrpt");
        assertThat(virtual.unit()).isEqualTo("ops/s");
        assertThat(virtual.forks()).isEqualTo(1);
        assertThat(virtual.perfnormKey()).isEqualTo("context-switches");
        assertThat(virtual.perfnormSwitches()).isPositive();
        assertThat(virtual.ctxswSwitches()).isPositive();
        assertThat(virtual.cpuMigrations()).isNotNaN();
        assertThat(virtual.switches()).isEqualTo(virtual.perfnormSwitches());
    }

    @Test
    void legacyDotPrefixedKeysReadTheSame() {
        List<JmhResult> modern = JmhReader.read(GOL);
        List<JmhResult> legacy = JmhReader.read(LEGACY);
        for (int i = 0; i < modern.size(); i++) {
            assertThat(legacy.get(i).perfnormSwitches()).isEqualTo(modern.get(i).perfnormSwitches());
            assertThat(legacy.get(i).ctxswSwitches()).isEqualTo(modern.get(i).ctxswSwitches());
            assertThat(legacy.get(i).perfnormKey()).isEqualTo("context-switches");
        }
    }

    @Test
    void pairsResultsThatDifferOnlyByThreadKind() {
        List<JmhView.Pair> gol = JmhView.pairs(JmhReader.read(GOL));
        assertThat(gol).hasSize(1);
        assertThat(gol.get(0).label())
                .isEqualTo("GameOfLifeBenchmark.frame channelType=BlockingQueue padding=25 threadPerCell=true");
        JmhView.Pair p = gol.get(0);
        assertThat(p.scoreRatio()).isEqualTo(p.virtual().score() / p.platform().score());
        assertThat(p.switchRatio()).isLessThan(1); // the published direction: virtual threads switch far less

        // ThreadsBenchmark: the kind is in the method name; the cached pool has no pair
        List<JmhView.Pair> threads = JmhView.pairs(JmhReader.read(THREADS));
        assertThat(threads).hasSize(1);
        assertThat(threads.get(0).platform().shortName()).isEqualTo("ThreadsBenchmark.platformThreadPerTask");
        assertThat(threads.get(0).virtual().shortName()).isEqualTo("ThreadsBenchmark.virtualThreadPerTask");
        assertThat(threads.get(0).label()).startsWith("ThreadsBenchmark.*ThreadPerTask");
    }

    @Test
    void textReportHasTheRatioAndWarnsAboutOneFork() {
        MainTest.Result r = MainTest.run("jmh", GOL.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .contains("GameOfLifeBenchmark.frame", "perfnorm context-switches", "switches virtual/platform")
                .contains("fewer than 3 forks for GameOfLifeBenchmark.frame");
    }

    @Test
    void userOnlyAndZeroCountsAreWarned() {
        MainTest.Result r = MainTest.run("jmh", UNPRIVILEGED.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("context-switches:u").contains("counted user mode only");
    }

    @Test
    void jsonOutputParsesWithBothTables(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("jmh.json");
        MainTest.Result r =
                MainTest.run("jmh", GOL.toString(), THREADS.toString(), "--format", "json", "-o", out.toString());
        assertThat(r.code()).isZero();
        JsonNode tables = new ObjectMapper().readTree(out.toFile()).get("tables");
        assertThat(tables.get(0).get("name").asText()).isEqualTo("jmh");
        assertThat(tables.get(0).get("rows")).hasSize(5);
        assertThat(tables.get(0).get("rows").get(0).get("file").asText()).endsWith("gameoflife-perfnorm-ctxsw.json");
        assertThat(tables.get(1).get("name").asText()).isEqualTo("jmh-ratios");
        assertThat(tables.get(1).get("rows")).hasSize(2);
        assertThat(tables.get(1)
                        .get("rows")
                        .get(0)
                        .get("switches virtual/platform")
                        .asDouble())
                .isPositive();
    }

    @Test
    void htmlReportHasChartsPerBenchmark(@TempDir Path dir) throws Exception {
        MainTest.Result r = MainTest.run("jmh", GOL.toString(), "--format", "md", "--html", dir.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("| GameOfLifeBenchmark.frame |");
        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).contains("<svg", "context switches per operation", "GameOfLifeBenchmark.frame (thrpt, ops/s)");
    }

    @Test
    void badInputsAreOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        Path text = Files.writeString(dir.resolve("results.txt"), "Benchmark  Mode  Cnt  Score\n");
        Path object = Files.writeString(dir.resolve("object.json"), "{\"benchmark\": \"x\"}");
        Path entry = Files.writeString(dir.resolve("entry.json"), "[{\"mode\": \"thrpt\"}]");
        for (Path p : List.of(dir.resolve("missing.json"), text, object, entry)) {
            MainTest.Result r = MainTest.run("jmh", p.toString());
            assertThat(r.code()).as(p.toString()).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(r.err()).startsWith("loomscope jmh: " + p);
        }
    }
}
