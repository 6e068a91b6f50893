package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Grouping;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.errors.BadDataException;
import dev.loomscope.analyzer.read.RecordingSource;
import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.report.HtmlReport;
import dev.loomscope.analyzer.study.ControlRuns;
import dev.loomscope.analyzer.study.RecordingCost;
import dev.loomscope.analyzer.study.StudyPlan;
import dev.loomscope.analyzer.study.StudyRunner;
import dev.loomscope.analyzer.study.ThreadStartCalibration;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loomscope study}: the main job, end to end. */
@Command(name = "study", mixinStandardHelpOptions = true,
        description = {"The main job: runs the workloads on platform and virtual threads and writes the report.",
            "Each workload and thread kind runs under the agent in its own JVMs, kinds alternated between forks, timed",
            "without a CPU profile; one more JVM each records the profile for the flame graphs and is not timed. Then",
            "verdicts here and a self-contained report (statistics, pinning, GC, heap, context switches, flame graphs",
            "per thread kind and the differential graph)."})
public final class StudyCommand implements Callable<Integer> {
    @Option(names = "--workload", split = ",", paramLabel = "NAME", description = "workloads: echo, sleep, rendezvous, gameoflife, pinning (default: echo,sleep)")
    List<String> workloads = new ArrayList<>(List.of("echo", "sleep"));

    @Option(names = "--runs", paramLabel = "R", description = "measured runs per JVM (default 5; --quick 3)")
    Integer runs;

    @Option(names = "--warmup", paramLabel = "W", description = "warm-up runs per JVM, left out of the statistics (default: 1 on platform threads, 3 on virtual threads)")
    Integer warmup;

    @Option(names = "--forks", paramLabel = "F", description = "timed JVMs per workload and thread kind (default 2; --quick 1)")
    Integer forks;

    @Option(names = "--requests", paramLabel = "N", description = "echo: requests per run (default 5000; --quick 2000)")
    Integer requests;

    @Option(names = "--concurrency", paramLabel = "C", description = "echo: concurrent clients (default 100)")
    Integer concurrency;

    @Option(names = "--tasks", paramLabel = "N", description = "sleep: tasks per run (default 10000; --quick 2000)")
    Integer tasks;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "loomscope-report", description = "report directory (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--quick", description = "a smaller study that takes under a minute")
    boolean quick;

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "an option for the workload JVMs (repeatable), e.g. --jvm-arg=-Xmx512m")
    List<String> jvmArgs = new ArrayList<>();

    @Option(names = "--agent-opts", paramLabel = "OPTS", description = "more agent options, e.g. profile=cpu+wall,interval=5ms (the profile JVMs take them as given, the timed ones with profile=off;"
            + " profile=off: no profile JVMs)")
    String agentOpts;

    @Option(names = "--keep", description = "keep the recordings beside the report (DIR/recordings)")
    boolean keep;

    @Option(names = "--java", paramLabel = "PATH", description = "the java the workloads run on (default: the one running loomscope)")
    Path javaExecutable;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "300", description = "a JVM running longer fails (default: ${DEFAULT-VALUE})")
    long timeout;

    @picocli.CommandLine.Mixin
    DebugOption debug;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        for (String w : workloads) {
            if (!StudyPlan.WORKLOADS.contains(w)) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "--workload " + w + ": unknown (use " + String.join(", ", StudyPlan.WORKLOADS) + ")");
            }
        }
        StudyPlan plan = new StudyPlan(List.copyOf(new java.util.LinkedHashSet<>(workloads)), positive("--runs", runs, quick ? 3 : 5),
                warmup == null ? null : atLeastZero("--warmup", warmup, 0), positive("--forks", forks, quick ? 1 : 2), positive("--requests", requests, quick ? 2000 : 5000),
                positive("--concurrency", concurrency, 100), positive("--tasks", tasks, quick ? 2000 : 10_000), jvmArgs, agentOpts,
                timeout);
        Path home = home();
        Path agent = home.resolve("agent/target/loomscope-agent.jar");
        Path workloadsJar = home.resolve("workloads/target/loomscope-workloads.jar");
        for (Path jar : List.of(agent, workloadsJar)) {
            if (!Files.isRegularFile(jar)) {
                throw new BadDataException(jar + ": missing (build it with ./mvnw -B package, or run ./loomscope which builds it)");
            }
        }
        Path java = javaExecutable != null ? javaExecutable.toAbsolutePath() : Path.of(System.getProperty("java.home"), "bin", "java");
        if (!Files.isExecutable(java)) {
            throw new BadDataException(java + ": not an executable java (point --java at a JDK 21+ bin/java)");
        }
        Path report = out.toAbsolutePath();
        Files.createDirectories(report);
        Path recordings = keep ? report.resolve("recordings") : Files.createTempDirectory("loomscope-study-");
        StudyRunner runner = new StudyRunner(plan, java, agent, workloadsJar, recordings,
                new StudyRunner.Progress(stderr, Boolean.getBoolean("loomscope.stderrIsTerminal")));
        CountDownLatch reported = new CountDownLatch(1);
        Thread onCtrlC = new Thread(() -> {
            runner.stop();
            try {
                reported.await(120, TimeUnit.SECONDS); // let the partial report be written
            } catch (InterruptedException ignored) {
                // exit now
            }
        }, "loomscope-study-stop");
        Runtime.getRuntime().addShutdownHook(onCtrlC);
        stderr.println("loomscope study: " + plan.jobs().size() + " JVMs (" + String.join(", ", plan.workloads()) + " x platform, virtual x "
                + plan.forks() + " timed fork" + (plan.forks() == 1 ? "" : "s") + " + as many control JVMs without a recording" + (plan.profiled() ? " + 1 profiled, not timed" : "") + "; " + plan.warmupText()
                + " + " + plan.runs() + " runs each)");
        try {
            ThreadStartCalibration calibration = ThreadStartCalibration.measure();
            List<StudyRunner.Outcome> outcomes = runner.run();
            if (runner.stopped()) {
                stderr.println("loomscope study: stopped; writing a partial report from the finished runs");
            }
            return report(plan, outcomes, calibration, report, recordings, stdout, stderr);
        } finally {
            reported.countDown();
            if (!runner.stopped()) {
                try {
                    Runtime.getRuntime().removeShutdownHook(onCtrlC);
                } catch (IllegalStateException exiting) {
                    // already shutting down
                }
            }
            if (!keep) {
                deleteTree(recordings);
            }
        }
    }

    private int report(StudyPlan plan, List<StudyRunner.Outcome> outcomes, ThreadStartCalibration calibration, Path reportDir, Path recordings,
            PrintWriter stdout, PrintWriter stderr) {
        List<String> failures = new ArrayList<>();
        Map<StudyPlan.Role, Map<String, List<RecordingSource>>> byRole = new java.util.EnumMap<>(StudyPlan.Role.class);
        List<String> runLines = new ArrayList<>();
        for (StudyRunner.Outcome o : outcomes) {
            runLines.add(String.format(java.util.Locale.ROOT, "%-24s %6.1f s  %s%s", o.job().label(), o.seconds(), o.ok() ? "ok" : "FAILED: " + o.failure(),
                    switch (o.job().role()) {
                        case TIMED -> "";
                        case CONTROL -> " (no agent, no JFR: the recording's cost)";
                        case PROFILE -> " (CPU profile for the flame graphs; not timed)";
                    }));
            if (o.ok()) {
                byRole.computeIfAbsent(o.job().role(), r -> new LinkedHashMap<>()).computeIfAbsent(o.job().workload(), k -> new ArrayList<>())
                        .add(RecordingSource.file(o.recording()));
            } else {
                failures.add(o.job().label() + ": " + o.failure());
            }
        }
        Map<String, List<RecordingSource>> timed = byRole.getOrDefault(StudyPlan.Role.TIMED, Map.of());
        Map<String, List<RecordingSource>> profiles = byRole.getOrDefault(StudyPlan.Role.PROFILE, Map.of());
        Map<String, List<RecordingSource>> controls = byRole.getOrDefault(StudyPlan.Role.CONTROL, Map.of());
        List<HtmlReport.Part> parts = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        List<String> measured = new ArrayList<>();
        List<String> caveats = new ArrayList<>();
        for (String w : plan.workloads()) {
            List<RecordingSource> sources = timed.getOrDefault(w, List.of());
            if (sources.isEmpty()) {
                continue;
            }
            List<RecordingSource> profiled = profiles.getOrDefault(w, List.of());
            // without profiled JVMs the timed ones' samples make the flame graphs
            Judged judged = judge(w, sources, controls.getOrDefault(w, List.of()), profiled.isEmpty());
            parts.add(new HtmlReport.Part(w, judged.groups(), judged.results(), profiled.isEmpty() ? judged.groups() : groups(profiled, true)));
            verdicts.addAll(judged.verdicts());
            measured.addAll(judged.measured());
            caveats.addAll(judged.caveats());
        }
        if (calibration != null) {
            measured.add(calibration.line());
        }
        String heading = "Study: " + String.join(", ", plan.workloads()) + "; " + plan.forks() + " timed fork(s) per workload and thread kind"
                + " (recorded without a CPU profile), each beside a control JVM without agent or JFR"
                + (plan.profiled() ? ", and one profiled JVM for the flame graphs" : "") + "; " + plan.warmupText() + " + " + plan.runs()
                + " measured runs per JVM" + (keep ? "; recordings in " + recordings : "");
        Path index = HtmlReport.write(reportDir, parts, new HtmlReport.Extras(heading, runLines, failures, measured));
        verdicts.forEach(stdout::println);
        if (verdicts.isEmpty()) {
            stdout.println("no verdicts: no workload finished on both thread kinds");
        }
        measured.forEach(stdout::println);
        caveats.forEach(stdout::println);
        failures.forEach(f -> stdout.println("failed: " + f));
        stdout.println("report: " + index);
        stdout.flush();
        return failures.isEmpty() && !timed.isEmpty() ? Errors.OK : Errors.CHECK_FAILED;
    }

    /**
     * One workload's comparison as the study makes it: recordings grouped by thread kind, platform
     * the baseline; what the control JVMs measured beside it; the reader's warnings.
     */
    public record Judged(Map<String, List<RecordingFacts>> groups, List<MetricResult> results, List<String> verdicts, List<String> measured,
            List<String> caveats) {}

    /**
     * Compares one workload's recordings: its verdict lines, with the control JVMs' results files
     * ({@code controls}) the recording's measured cost per thread kind and the run-time verdict
     * without a recording, each line led by the workload's name; with the recordings' CPU samples
     * for the report's flame graphs read in the same pass when {@code flames}.
     */
    public static Judged judge(String workload, List<RecordingSource> sources, List<RecordingSource> controls, boolean flames) {
        Map<String, List<RecordingFacts>> groups = groups(sources, flames);
        List<MetricResult> results = Comparer.compare(groups, List.of(), "platform", false);
        List<String> measured = new ArrayList<>();
        if (!controls.isEmpty()) {
            List<RecordingFacts> controlFacts = new ArrayList<>();
            for (RecordingSource c : controls) {
                controlFacts.add(RecordingFacts.ofRuns(c, ControlRuns.read(c.name())));
            }
            Map<String, List<RecordingFacts>> controlGroups = Grouping.of(controlFacts, List.of());
            String cost = RecordingCost.line(groups, controlGroups);
            if (cost != null) {
                measured.add(workload + ": " + cost);
            }
            List<MetricResult> unrecorded = Comparer.compare(controlGroups, List.of("run time"), "platform", false);
            CompareView.verdicts(unrecorded).forEach(v -> measured.add(workload + " without a recording: " + v));
        }
        List<String> caveats = new ArrayList<>();
        RecordingFacts.warnings(groups.values().stream().flatMap(List::stream).toList()).forEach(w -> caveats.add(workload + ": warning: " + w));
        return new Judged(groups, results, CompareView.headlineVerdicts(results).stream().map(v -> workload + ": " + v).toList(), measured, caveats);
    }

    private static Map<String, List<RecordingFacts>> groups(List<RecordingSource> sources, boolean flames) {
        List<RecordingFacts> facts = new ArrayList<>(flames ? Analysis.withFlames(sources) : Analysis.of(sources));
        facts.sort(Comparator.comparing(f -> f.source.name().toString()));
        return Grouping.of(facts, List.of());
    }

    private int positive(String name, Integer value, int def) {
        int v = value == null ? def : value;
        if (v < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), name + " " + v + ": must be at least 1");
        }
        return v;
    }

    private int atLeastZero(String name, Integer value, int def) {
        int v = value == null ? def : value;
        if (v < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), name + " " + v + ": must not be negative");
        }
        return v;
    }

    /** The project root: set by the launcher, else found from where this jar sits (analyzer/target/loomscope.jar). */
    static Path home() {
        String h = System.getProperty("loomscope.home");
        if (h != null) {
            return Path.of(h);
        }
        try {
            Path jar = Path.of(StudyCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.getParent().getParent().getParent();
        } catch (Exception e) {
            return Path.of(".").toAbsolutePath();
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }
}
