package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomscope.analyzer.compare.BottomLine;
import dev.loomscope.analyzer.study.StudyPlan;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.ProfileFile;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope study} end to end with tiny sizes, one run made to fail (its JVM exits 3), and the report opened in
 * headless Chromium.
 */
class StudyIT {
    @TempDir
    static Path dir;

    static ChildJvm.Result result;
    static Path report;

    @BeforeAll
    static void study() throws Exception {
        Path fakeJava = dir.resolve("java-that-crashes-sleep-virtual");
        Files.writeString(
                fakeJava,
                "#!/bin/sh\necho \"$*\" >> '" + dir.resolve("java-args.log") + "'\ncase \"$*\" in *\"sleep --threads"
                        + " virtual\"*) echo 'simulated crash' >&2; exit 3;; esac\nexec '"
                        + ChildJvm.javaExecutable() + "' \"$@\"\n");
        Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwx------"));
        report = dir.resolve("report");
        result = Fixtures.cli(
                dir,
                "study",
                "--workload",
                "echo,sleep",
                "--runs",
                "5",
                "--warmup",
                "0",
                "--forks",
                "1",
                "--requests",
                "300",
                "--concurrency",
                "10",
                "--tasks",
                "300",
                "--out",
                report.toString(),
                "--java",
                fakeJava.toString(),
                "--keep",
                "--parallelism",
                "2",
                "--reruns",
                "0",
                "--keep-disturbed");
    }

    @Test
    void failedRunIsListedAndTheStudyFinishes() throws Exception {
        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(1);
        List<String> lines = result.stdout().lines().toList();
        assertThat(lines).anyMatch(l -> l.startsWith("echo: virtual vs platform: run time median"));
        assertThat(lines).contains("failed: sleep-virtual-f1: exited with 3: simulated crash");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("report: " + report.resolve("index.html"));
        assertThat(result.stderr()).contains("study: sleep-virtual-f1 failed (exited with 3: simulated crash)");
        String html = Files.readString(report.resolve("index.html"));
        assertThat(html)
                .contains("Failed runs")
                .contains("sleep-virtual-f1: exited with 3")
                .contains("echo: virtual vs platform: run time median")
                .contains("platform: 1 recording")
                .contains("virtual: 1 recording");
        // one story: the workload's verdicts end with its bottom line, and the report lists the terminal's verdict
        // lines as printed, the bottom line on top
        List<String> verdicts = lines.stream()
                .filter(l -> l.startsWith("echo: virtual vs platform: ") || l.startsWith(BottomLine.MARK))
                .toList();
        assertThat(verdicts.get(verdicts.size() - 1))
                .startsWith("=> echo: virtual ")
                .containsPattern("(throughput|latency p99) [\\d.,]+x platform's");
        assertThat(html)
                .contains("<ul class='bottom'>\n<li>=&gt; echo: virtual ")
                .contains("The verdicts as lines (" + verdicts.size() + "), as the terminal");
        assertThat(report.resolve("flame-echo-platform.html")).exists();
        assertThat(report.resolve("flame-echo-virtual.html")).exists();
        assertThat(report.resolve("flame-diff-echo-virtual-vs-platform.html")).exists();
        assertThat(report.resolve("recordings/echo-virtual-f1")).isDirectory();
        // --parallelism: the scheduler's three properties in every workload JVM (the thread-start calibration runs as
        // the JDK sets it up)
        assertThat(Files.readAllLines(dir.resolve("java-args.log")))
                .filteredOn(l -> l.contains("loomscope-workloads.jar") && !l.endsWith(" thread-start"))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l)
                        .contains(
                                "-Djdk.virtualThreadScheduler.parallelism=2",
                                "-Djdk.virtualThreadScheduler.maxPoolSize=2",
                                "-Djdk.virtualThreadScheduler.minRunnable=2"));
    }

    @Test
    void controlJvmsWithoutARecordingMeasureWhatTheRecordingCosts() throws Exception {
        List<String> lines = result.stdout().lines().toList();
        // a figure per kind, or, where the recorded JVMs ran faster than the controls (which a recording cannot cause),
        // that it was not measured
        assertThat(lines)
                .anyMatch(l -> l.matches("echo: recording cost \\(measured\\): platform (\\d\\.\\d\\d \\[\\d\\.\\d\\d,"
                        + " \\d\\.\\d\\d\\]|not measured).*, virtual (\\d\\.\\d\\d \\[|not measured: the recorded JVMs"
                        + " ran faster than those without a recording).*"));
        assertThat(lines).anyMatch(l -> l.startsWith("echo without a recording: virtual vs platform: run time median"));
        // the thread start as measured, or, on a machine busy with other work while it was timed, that it was not
        assertThat(lines)
                .anyMatch(l -> l.startsWith("this machine (")
                        && (l.contains("starting and joining a platform thread takes")
                                || l.matches(".*thread start not measured: (other processes took \\d+% of the CPU while"
                                        + " it ran|a virtual thread came out no cheaper).*")));
        // the crash of every sleep JVM on virtual threads took its control JVM too: no cost line for sleep's virtual
        // threads
        assertThat(lines).contains("failed: sleep-virtual-c1: exited with 3: simulated crash");
        assertThat(lines)
                .anyMatch(l -> l.startsWith("sleep: recording cost (measured): platform ") && !l.contains("virtual"));
        List<String> results = Files.readAllLines(report.resolve("recordings/echo-platform-c1/results.csv"));
        assertThat(results.get(0))
                .startsWith("startEpochNanos,nanos,workload,threadKind,runIndex,warmup,units,unit,params,");
        assertThat(results).hasSize(6); // no warm-up (--warmup 0), 5 runs
        try (Stream<Path> files = Files.list(report.resolve("recordings/echo-platform-c1"))) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(f -> f.endsWith(".jfr"));
        }
        String html = Files.readString(report.resolve("index.html"));
        assertThat(html)
                .contains("echo: recording cost (measured): platform")
                .contains("echo-platform-c1")
                .contains("this machine (");
    }

    @Test
    void timedJvmsRecordWithoutAProfileAndTheFlameGraphsComeFromTheProfiledOnes() throws Exception {
        assertThat(result.stderr())
                .containsPattern(
                        "loomscope study: 12 JVMs \\(echo, sleep x platform, virtual x 1 timed fork \\+ 1 control JVM"
                                + " without a recording \\+ 1 profiled, not timed; 0 warm-up \\+ 5 runs each; order"
                                + " shuffled with --seed \\d+\\)");
        for (String kind : List.of("platform", "virtual")) {
            assertThat(profilingMode(report.resolve("recordings/echo-" + kind + "-f1")))
                    .isEqualTo("off");
            assertThat(profilingMode(report.resolve("recordings/echo-" + kind + "-profile")))
                    .isNotEqualTo("off");
            // perf_events every millisecond (the agent falls back to its timer engine where perf_events is denied)
            assertThat(runInfo(report.resolve("recordings/echo-" + kind + "-profile"), "agentOptions"))
                    .contains("," + StudyPlan.PROFILE_OPTIONS);
        }
        String html = Files.readString(report.resolve("index.html"));
        // the timed groups hold the timed JVM alone; the flame graphs have samples, from the profiled JVMs
        assertThat(html)
                .contains("platform: 1 recording &middot; virtual: 1 recording")
                .contains("were not timed (platform: 1, virtual: 1)")
                .containsPattern("flame-echo-platform.html'>platform</a>: CPU, [1-9][0-9]* samples")
                .contains("echo-platform-profile")
                .contains("(CPU profile for the flame graphs; not timed)");
        assertThat(html).contains("sleep-virtual-profile: exited with 3");
        // the graphs draw the application's threads; the CPU-by-thread table under them has every thread, the JVM's own
        // too
        assertThat(html)
                .containsPattern("the JVM's own \\(JIT compilers, GC\\), \\d+% of the samples, are left out")
                .contains("<summary>CPU by thread, platform</summary>")
                .contains("<summary>CPU by thread, virtual</summary>");
    }

    private static String profilingMode(Path dir) throws Exception {
        return runInfo(dir, "profilingMode");
    }

    private static String runInfo(Path dir, String field) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            Path jfr = files.filter(f -> f.toString().endsWith(".jfr") && !ProfileFile.is(f))
                    .findFirst()
                    .orElseThrow();
            return RecordingFile.readAllEvents(jfr).stream()
                    .filter(e -> e.getEventType().getName().equals("loomscope.RunInfo"))
                    .map(e -> e.getString(field))
                    .findFirst()
                    .orElseThrow();
        }
    }

    @Test
    void badOptionsAreOneLine() throws Exception {
        ChildJvm.Result r = Fixtures.cli(dir, "study", "--workload", "dance");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr().strip())
                .startsWith("loomscope study: --workload dance: unknown (use echo, sleep, rendezvous, gameoflife,"
                        + " pinning)");
        assertThat(Fixtures.cli(dir, "study", "--runs", "0").stderr())
                .contains("--runs 0: must be between 1 and 100000"); // the workloads' own bounds
        assertThat(Fixtures.cli(dir, "study", "--concurrency", "30000").stderr())
                .contains("--concurrency 30000: must be between 1 and 20000");
        assertThat(Fixtures.cli(dir, "study", "--parallelism", "0").stderr())
                .contains("--parallelism 0: must be between 1 and 4096");
        ChildJvm.Result agentOpts = Fixtures.cli(dir, "study", "--agent-opts", "profile=cpu+gpu");
        assertThat(agentOpts.exitCode()).isEqualTo(2);
        assertThat(agentOpts.stderr())
                .contains("--agent-opts profile=cpu+gpu: bad value 'cpu+gpu' for profile (expected cpu, wall, alloc,"
                        + " lock (joined with +) or off)");
        // the options of a study of one's own service, and of the workloads, each refused with the other
        assertThat(Fixtures.cli(dir, "study", "--url", "http://localhost:8080/")
                        .stderr()
                        .strip())
                .isEqualTo(
                        "loomscope study: --url: for a study of your own service (--app COMMAND) (see 'loomscope study"
                                + " --help')");
        assertThat(Fixtures.cli(dir, "study", "--app", "java -jar app.jar", "--workload", "echo")
                        .stderr())
                .contains("--workload: for loomscope's own workloads, not --app");
        assertThat(Fixtures.cli(dir, "study", "--app", "java -jar 'app.jar")
                        .stderr()
                        .strip())
                .isEqualTo("loomscope study: --app java -jar 'app.jar: a ' quote is not closed (see 'loomscope study"
                        + " --help')");
        assertThat(Fixtures.cli(dir, "study", "--app", "java -jar app.jar", "--url", "ftp://localhost/")
                        .stderr())
                .contains("--url ftp://localhost/: not an http:// or https:// URL");
        assertThat(Fixtures.cli(dir, "study", "--app", "java -jar app.jar", "--slo", "p95=1s")
                        .stderr())
                .contains("--slo p95=1s: give a percentile");
        ChildJvm.Result noSuch = Fixtures.cli(dir, "study", "--app", "jaav -jar app.jar");
        assertThat(noSuch.exitCode()).isEqualTo(2);
        assertThat(noSuch.stderr().strip())
                .isEqualTo("loomscope study: --app: 'jaav' is not a command here (not an executable file, nor on the"
                        + " PATH): give java, a path or a command name");
        ChildJvm.Result reruns = Fixtures.cli(dir, "study", "--reruns", "-1");
        assertThat(reruns.exitCode()).isEqualTo(2);
        assertThat(reruns.stderr()).contains("--reruns -1: must be 0 or more");
    }

    @Test
    void reportRendersInHeadlessChromium() throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        assumeTrue(Files.isExecutable(chromium), "chromium is not installed (.ci/run installs it)");
        // the first screen at a laptop's size: the screenshot the README shows
        Path png = dir.resolve("report.png");
        ChildJvm.Result r = chromium(
                chromium,
                "shot",
                "--window-size=1366,768",
                "--screenshot=" + png,
                report.resolve("index.html").toUri().toString());
        assertThat(png).exists();
        BufferedImage img = ImageIO.read(png.toFile());
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 4) {
            for (int x = 0; x < img.getWidth(); x += 4) {
                colours.add(img.getRGB(x, y));
            }
        }
        assertThat(colours.size()).as("distinct colours in the screenshot").isGreaterThan(20);
        assertThat(r.stderr().lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught")))
                .isEmpty();
        Files.copy(png, Path.of("target/report-screenshot.png"), StandardCopyOption.REPLACE_EXISTING);
        // the layout at 1366x768 and 1024x768: the forest plot whole in the first viewport, nothing wider than the
        // window
        for (int width : new int[] {1366, 1024}) {
            Path harness = dir.resolve("layout-" + width + ".html");
            Files.writeString(
                    harness,
                    "<!DOCTYPE html><html><body style='margin:0'><iframe id='f' src='"
                            + report.resolve("index.html").toUri()
                            + "' style='width:" + width
                            + "px;height:768px;"
                            + "border:0'></iframe><script>document.getElementById('f').addEventListener('load',"
                            + " () => { const d = document.getElementById('f').contentDocument; const r ="
                            + " d.getElementById('forest').getBoundingClientRect(); const e = d.documentElement; const"
                            + " out = document.createElement('pre'); out.id = 'layout'; out.textContent = 'LAYOUT ' +"
                            + " [r.top, r.bottom, r.right, e.scrollWidth, e.clientWidth].join(' ');"
                            + " document.body.appendChild(out); });</script></body></html>");
            ChildJvm.Result dom = chromium(
                    chromium,
                    "layout-" + width,
                    "--allow-file-access-from-files",
                    "--virtual-time-budget=10000",
                    "--dump-dom",
                    harness.toUri().toString());
            Matcher m =
                    Pattern.compile("<pre id=\"layout\">LAYOUT ([^<]*)</pre>").matcher(dom.stdout());
            assertThat(m.find())
                    .as("the layout measured at %d px: %s", width, dom)
                    .isTrue();
            String[] v = m.group(1).trim().split(" ");
            double top = Double.parseDouble(v[0]);
            double bottom = Double.parseDouble(v[1]);
            assertThat(top).as("forest plot's top at %d px", width).isGreaterThan(0);
            assertThat(bottom).as("forest plot's bottom at %d px wide", width).isLessThanOrEqualTo(768);
            assertThat(Double.parseDouble(v[2]))
                    .as("forest plot's right edge at %d px", width)
                    .isLessThanOrEqualTo(width);
            assertThat(Double.parseDouble(v[3]))
                    .as("page width at %d px (no horizontal scrolling)", width)
                    .isLessThanOrEqualTo(Double.parseDouble(v[4]));
            assertThat(dom.stderr().lines().filter(l -> l.contains("CONSOLE") || l.contains("Uncaught")))
                    .isEmpty();
        }
        // every metric's charts, measured where the browser drew them: no whisker ends inside its box, no band below
        // the metric's floor
        // (times, counts, rates and sizes are never negative), no negative value on a run chart's axis
        Path charts = dir.resolve("charts.html");
        Files.writeString(
                charts,
                "<!DOCTYPE html><html><body style='margin:0'><iframe id='f' src='"
                        + report.resolve("index.html").toUri()
                        + "' style='width:1366px;height:768px;"
                        + "border:0'></iframe><script>document.getElementById('f').addEventListener('load',"
                        + " () => { const d = document.getElementById('f').contentDocument; let boxes = 0, badBoxes ="
                        + " 0, bands = 0, badBands = 0, negative = 0, legends = 0;"
                        + " d.querySelectorAll('g.box').forEach(g => { boxes++; const r ="
                        + " g.querySelector('rect.iqr').getBBox();  const hi ="
                        + " g.querySelector('line.whisker-high').getBBox(); const lo ="
                        + " g.querySelector('line.whisker-low').getBBox();  if (hi.y > r.y + 0.01 || lo.y < r.y +"
                        + " r.height - 1.01) badBoxes++; }); d.querySelectorAll('svg').forEach(svg => { const floor ="
                        + " svg.querySelector('line.floor'); if (!floor) return;  const y ="
                        + " floor.getBoundingClientRect().top; legends += svg.querySelectorAll('g.legend').length; "
                        + " svg.querySelectorAll('polygon.band').forEach(p => { bands++; if"
                        + " (p.getBoundingClientRect().bottom > y + 0.5) badBands++; }); "
                        + " svg.querySelectorAll('text').forEach(t => { if (/^-\\d/.test(t.textContent.trim()))"
                        + " negative++; }); }); const out = document.createElement('pre'); out.id = 'charts';"
                        + " out.textContent = 'CHARTS ' + [boxes, badBoxes, bands, badBands, negative, legends].join('"
                        + " '); document.body.appendChild(out); });</script></body></html>");
        ChildJvm.Result measured = chromium(
                chromium,
                "charts",
                "--allow-file-access-from-files",
                "--virtual-time-budget=10000",
                "--dump-dom",
                charts.toUri().toString());
        Matcher m = Pattern.compile("<pre id=\"charts\">CHARTS ([^<]*)</pre>").matcher(measured.stdout());
        assertThat(m.find()).as("the charts measured: %s", measured).isTrue();
        long[] c = Arrays.stream(m.group(1).trim().split(" "))
                .mapToLong(Long::parseLong)
                .toArray();
        assertThat(c[0]).as("boxes drawn").isPositive();
        assertThat(c[1]).as("boxes with a whisker ending inside the box").isZero();
        assertThat(c[3])
                .as("prediction bands below the metric's floor (of %d)", c[2])
                .isZero();
        assertThat(c[4]).as("negative values on the run charts' axes").isZero();
        assertThat(c[5]).as("fork legends").isPositive();
    }

    private static ChildJvm.Result chromium(Path chromium, String profile, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + dir.resolve("chromium-" + profile),
                "--enable-logging=stderr",
                "--v=0",
                "--hide-scrollbars"));
        cmd.addAll(List.of(args));
        return ChildJvm.exec(cmd, dir, 120);
    }
}
