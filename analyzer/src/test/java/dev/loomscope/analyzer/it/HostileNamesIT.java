package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording made to attack its reader: its label (the agent's label=) and its threads' names are markup that runs
 * script if a page writes it raw. Every page and chart loomscope writes from it, and from a --group name and a --title
 * of the same kind, is loaded in headless Chromium, and no payload may run; nor from an export of it, nor from JMH
 * results named the same way; the text outputs neither (CSV, terminal).
 */
class HostileNamesIT {
    /**
     * Runs, if it ever runs, mark the page's root element: the dumped DOM then holds data-pwned. No comma: the agent's
     * options are split at commas (a --group name holds no '=': the rule splits there).
     */
    static final String PAYLOAD = "x</script><img src=x onerror=document.documentElement.dataset.pwned=1><svg"
            + " onload=document.documentElement.dataset.pwned=2>";

    @TempDir
    static Path dir;

    static Path platform;
    static Path virtual;

    @BeforeAll
    static void record() throws Exception {
        platform = hostile("platform");
        virtual = hostile("virtual");
    }

    static Path hostile(String kind) throws Exception {
        return hostileInto(dir.resolve("hostile-" + kind), kind, PAYLOAD + "\u2028\u001b[31m");
    }

    /** A recording of HostileApp on virtual threads whose threads are named {@code name}. */
    static Path hostileInto(Path out, String name) throws Exception {
        return hostileInto(out, "virtual", name);
    }

    private static Path hostileInto(Path out, String kind, String name) throws Exception {
        ChildJvm.Result r = ChildJvm.run(
                List.of(
                        "--enable-native-access=ALL-UNNAMED",
                        "-javaagent:" + Fixtures.AGENT + "=out=" + out + ",label=" + PAYLOAD + ",threads=" + kind
                                + ",trace-pinned=off,flame=off,startup=before-main"),
                HostileApp.class.getName(),
                List.of(name),
                out.getParent(),
                120);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return Fixtures.only(out, ".jfr");
    }

    @Test
    void noPageOrChartRunsANameAndTextOutputsAreInert() throws Exception {
        Path report = dir.resolve("report");
        Fixtures.cli(
                dir,
                "report",
                platform.toString(),
                virtual.toString(),
                "--by",
                "label",
                "-o",
                report.resolve("by-label").toString());
        ChildJvm.Result byKind = Fixtures.cli(
                dir,
                "report",
                platform.toString(),
                virtual.toString(),
                "-o",
                report.resolve("by-kind").toString());
        assertThat(byKind.exitCode()).as(byKind.stderr()).isZero();
        Path groups = report.resolve("groups");
        ChildJvm.Result grouped = Fixtures.cli(
                dir,
                "report",
                platform.toString(),
                virtual.toString(),
                "--group",
                "<script>document.documentElement.dataset.pwned++</script>=" + platform,
                "--group",
                "b=" + virtual,
                "-o",
                groups.toString());
        assertThat(grouped.exitCode()).as(grouped.stderr()).isZero();
        ChildJvm.Result flame = Fixtures.cli(
                dir,
                "flame",
                "--threads",
                platform.toString(),
                "--title",
                PAYLOAD,
                "-o",
                report.resolve("threads.html").toString());
        assertThat(flame.exitCode()).as(flame.stderr()).isZero();
        ChildJvm.Result forest = Fixtures.cli(
                dir,
                "compare",
                platform.toString(),
                virtual.toString(),
                "--group",
                "</title><script>document.documentElement.dataset.pwned++</script>=" + platform,
                "--group",
                "b=" + virtual,
                "-o",
                report.resolve("forest.svg").toString());
        assertThat(forest.exitCode()).as(forest.stderr()).isZero();
        // an export carries the names too: a report read from it
        ChildJvm.Result exported = Fixtures.cli(
                dir,
                "export",
                platform.toString(),
                virtual.toString(),
                "--to",
                dir.resolve("tables").toString());
        assertThat(exported.exitCode()).as(exported.stderr()).isZero();
        ChildJvm.Result fromExport = Fixtures.cli(
                dir,
                "report",
                dir.resolve("tables").toString(),
                "--by",
                "label",
                "-o",
                report.resolve("from-export").toString());
        assertThat(fromExport.exitCode()).as(fromExport.stderr()).isZero();
        // and JMH results: a benchmark named as an attack, drawn by jmh --html
        String json = Files.readString(Path.of("src/test/resources/jmh/threads-5-forks.json"))
                .replace(
                        "ThreadsBenchmark",
                        "ThreadsBenchmark</script><img src=x onerror=document.documentElement.dataset.pwned=5>");
        Path hostileJmh = Files.writeString(dir.resolve("hostile-jmh.json"), json);
        ChildJvm.Result jmh = Fixtures.cli(
                dir,
                "jmh",
                hostileJmh.toString(),
                "--html",
                report.resolve("jmh").toString());
        assertThat(jmh.exitCode()).as(jmh.stderr()).isZero();
        List<Path> pages;
        try (Stream<Path> s = Files.walk(report)) {
            pages = s.filter(f -> f.toString().endsWith(".html") || f.toString().endsWith(".svg"))
                    .sorted()
                    .toList();
        }
        assertThat(pages.size()).as("index pages, flame graphs and the chart").isGreaterThanOrEqualTo(8);
        assertThat(String.join("\n", pages.stream().map(Path::toString).toList()))
                .contains("by-label/index.html")
                .contains("threads.html")
                .contains("from-export/index.html")
                .contains("jmh/index.html");
        // the names are in the pages, as text
        assertThat(Files.readString(report.resolve("by-label/index.html"))).contains("&lt;img src=x onerror=");

        // text outputs: no formula, no escape code
        ChildJvm.Result csv = Fixtures.cli(dir, "summary", platform.toString(), "--format", "csv");
        assertThat(csv.stdout()).doesNotContain("\u001b");
        ChildJvm.Result text = Fixtures.cli(dir, "pinning", platform.toString());
        assertThat(text.stdout()).doesNotContain("\u001b");

        Path chromium = Path.of("/usr/bin/chromium");
        assumeTrue(Files.isExecutable(chromium), "chromium is not installed (.ci/run installs it)");
        for (Path page : pages) {
            ChildJvm.Result dom = ChildJvm.exec(
                    List.of(
                            chromium.toString(),
                            "--headless",
                            "--no-sandbox",
                            "--disable-gpu",
                            "--user-data-dir=" + dir.resolve("chromium"),
                            "--allow-file-access-from-files",
                            "--virtual-time-budget=3000",
                            "--dump-dom",
                            page.toUri().toString()),
                    dir,
                    120);
            assertThat(dom.exitCode()).as(page + ": " + dom.stderr()).isZero();
            assertThat(dom.stdout()).as(page + ": a name ran as script").doesNotContain("data-pwned=\"");
        }
    }

    /** The agent's own lines (its pin trace names the pinned thread) print no control or bidi character raw. */
    @Test
    void theAgentsLinesAreInert() throws Exception {
        Path out = dir.resolve("inert");
        ChildJvm.Result r = ChildJvm.run(
                List.of(
                        "--enable-native-access=ALL-UNNAMED",
                        "-javaagent:" + Fixtures.AGENT + "=out=" + out
                                + ",threads=virtual,trace-pinned=short,flame=off,profile=off,startup=before-main"),
                HostileApp.class.getName(),
                List.of("bell\u0007esc\u001b[31mrtl\u202eline\u2028"),
                dir,
                120);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stderr())
                .contains("virtual thread pinned for")
                .contains("bell\\u0007esc\\u001b[31mrtl\\u202eline\\u2028 (virtual)")
                .doesNotContain("\u0007")
                .doesNotContain("\u001b")
                .doesNotContain("\u202e")
                .doesNotContain("\u2028");
    }
}
