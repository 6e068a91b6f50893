package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.BottomLine;
import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Grouping;
import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.compare.Noise;
import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.report.HtmlReport;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.analyzer.threads.ThreadsView;
import dev.loomscope.probes.MachineCpu;
import dev.loomscope.recording.RecordingSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The study, end to end: the plan's JVMs run ({@link StudyRunner}), each workload's recordings judged against its
 * control JVMs ({@link #judge}), the report written. Stopped (Ctrl-C), it writes a partial report from the runs that
 * finished. {@code loomscope study} reads the options and prints the {@link Result}.
 */
public final class Study {
    private Study() {}

    /** Where the study's JVMs come from: the java they run on, the agent and the workloads' jars. */
    public record Jvms(Path java, Path agent, Path workloads) {}

    /**
     * What a study found: the verdict, measurement and caveat lines, the runs that failed, the report's index page, and
     * a service study's one bottom line (null for the experiments, each of whose workloads has its own).
     */
    public record Result(
            List<String> verdicts,
            List<String> measured,
            List<String> caveats,
            List<String> failures,
            Path index,
            boolean anyTimed,
            String bottomLine) {
        /** Every timed JVM ran, and at least one did. */
        public boolean ok() {
            return failures.isEmpty() && anyTimed;
        }
    }

    /**
     * Runs {@code plan} and writes the report into {@code reportDir}; the recordings go to {@code reportDir/recordings}
     * when {@code keep}, else to a temporary directory removed after.
     */
    public static Result run(
            StudyPlan plan,
            Jvms jvms,
            Path reportDir,
            boolean keep,
            Verdict.Rule rule,
            Reruns reruns,
            PrintWriter stderr,
            boolean terminal)
            throws IOException {
        Files.createDirectories(reportDir);
        Path recordings = keep ? reportDir.resolve("recordings") : Files.createTempDirectory("loomscope-study-");
        StudyRunner runner = new StudyRunner(
                plan,
                jvms.java(),
                jvms.agent(),
                jvms.workloads(),
                recordings,
                new StudyRunner.Progress(stderr, terminal),
                reruns);
        stderr.println("loomscope study: " + plan.jobs().size() + " JVMs (" + String.join(", ", plan.workloads())
                + " x platform, virtual x "
                + plan.forks() + " timed fork" + (plan.forks() == 1 ? "" : "s") + " + " + plan.controls()
                + " control JVM"
                + (plan.controls() == 1 ? "" : "s") + " without a recording"
                + (plan.profiled() ? " + 1 profiled, not timed" : "") + "; " + plan.warmupText() + " + "
                + plan.runsText() + " each; order shuffled with --seed " + plan.seed() + ")");
        StopOnSignal onCtrlC = new StopOnSignal(runner::stop, runner::stopped);
        try {
            ThreadStartCalibration calibration = ThreadStartCalibration.measure(jvms.java(), jvms.workloads());
            List<StudyRunner.Outcome> outcomes = runner.run();
            if (runner.stopped()) {
                stderr.println("loomscope study: stopped; writing a partial report from the finished runs");
            }
            return report(plan, outcomes, calibration, reportDir, keep ? recordings : null, rule);
        } finally {
            onCtrlC.reported();
            if (!keep) {
                deleteTree(recordings);
            }
        }
    }

    /** The report from the outcomes; {@code kept} names where the recordings stay (null: they are removed). */
    private static Result report(
            StudyPlan plan,
            List<StudyRunner.Outcome> outcomes,
            ThreadStartCalibration calibration,
            Path reportDir,
            Path kept,
            Verdict.Rule rule) {
        List<String> failures = outcomes.stream()
                .filter(o -> !o.ok())
                .map(o -> o.job().label() + ": " + o.failure())
                .toList();
        Map<StudyPlan.Role, Map<String, List<RecordingSource>>> byRole = new EnumMap<>(StudyPlan.Role.class);
        outcomes.stream()
                .filter(StudyRunner.Outcome::ok)
                .forEach(o -> byRole.computeIfAbsent(o.job().role(), r -> new LinkedHashMap<>())
                        .computeIfAbsent(o.job().workload(), k -> new ArrayList<>())
                        .add(RecordingSource.file(o.recording())));
        Map<String, List<RecordingSource>> timed = byRole.getOrDefault(StudyPlan.Role.TIMED, Map.of());
        Map<Path, Double> jvmSeconds = outcomes.stream()
                .filter(o -> o.ok() && o.job().role() == StudyPlan.Role.TIMED)
                .collect(Collectors.toMap(
                        o -> o.recording().toAbsolutePath().normalize(), StudyRunner.Outcome::seconds, (a, b) -> b));
        Map<String, List<RecordingSource>> profiles = byRole.getOrDefault(StudyPlan.Role.PROFILE, Map.of());
        Map<String, List<RecordingSource>> controls = byRole.getOrDefault(StudyPlan.Role.CONTROL, Map.of());
        List<HtmlReport.Part> parts = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        List<String> bottom = new ArrayList<>();
        List<String> measured = new ArrayList<>();
        List<String> caveats = new ArrayList<>();
        for (String w : plan.workloads()) {
            List<RecordingSource> sources = timed.getOrDefault(w, List.of());
            if (sources.isEmpty()) {
                continue;
            }
            List<RecordingSource> profiled = profiles.getOrDefault(w, List.of());
            // without profiled JVMs the timed ones' samples make the flame graphs
            Judged judged = judge(w, sources, controls.getOrDefault(w, List.of()), profiled.isEmpty(), rule);
            parts.add(new HtmlReport.Part(
                    w,
                    judged.groups(),
                    judged.results(),
                    profiled.isEmpty() ? judged.groups() : groups(profiled, true)));
            verdicts.addAll(judged.verdicts());
            if (judged.bottomLine() != null) {
                verdicts.add(judged.bottomLine()); // under the workload's verdicts, and at the top of the report
                bottom.add(judged.bottomLine());
            }
            measured.addAll(judged.measured());
            String advice = RunsPerJvm.line(judged.groups(), jvmSeconds, plan.runsText());
            if (advice != null) {
                measured.add(w + ": " + advice);
            }
            caveats.addAll(judged.caveats());
        }
        if (calibration != null) {
            measured.add(calibration.line());
        }
        // a JVM stuck in the study leaves the agent's thread dumps beside its recording: the report shows what held it
        List<Path> dumps = ThreadsView.beside(outcomes.stream()
                .map(StudyRunner.Outcome::recording)
                .filter(Objects::nonNull)
                .toList());
        HtmlReport.Extras extras = new HtmlReport.Extras(
                        heading(plan, kept), runLines(outcomes, parts), failures, measured)
                .withThreadDumps(dumps)
                .withVerdicts(verdicts, bottom)
                .withRunRecordings(
                        kept != null
                                ? outcomes.stream()
                                        .map(StudyRunner.Outcome::recording)
                                        .toList()
                                : List.of());
        Path index = HtmlReport.write(reportDir, parts, extras);
        return new Result(verdicts, measured, caveats, failures, index, !timed.isEmpty(), null);
    }

    /**
     * Each JVM's line under What ran, a timed one marked when other processes kept the machine busy during its runs.
     */
    private static List<String> runLines(List<StudyRunner.Outcome> outcomes, List<HtmlReport.Part> parts) {
        Map<Path, Double> busy = new HashMap<>();
        parts.forEach(part -> part.groups()
                .values()
                .forEach(fs -> fs.forEach(
                        f -> busy.put(f.source.name().toAbsolutePath().normalize(), Noise.busyElsewhere(f)))));
        List<String> runLines = new ArrayList<>();
        for (StudyRunner.Outcome o : outcomes) {
            Double elsewhere = o.recording() == null
                    ? null
                    : busy.get(o.recording().toAbsolutePath().normalize());
            runLines.add(String.format(
                    Locale.ROOT,
                    "%-24s %6.1f s  %s%s%s",
                    o.job().label(),
                    o.seconds(),
                    o.ok() ? "ok" : "FAILED: " + o.failure(),
                    switch (o.job().role()) {
                        case TIMED -> "";
                        case CONTROL -> " (no agent, no JFR: the recording's cost)";
                        case PROFILE -> " (CPU profile for the flame graphs; not timed)";
                    },
                    elsewhere != null && elsewhere > MachineCpu.DISTURBED
                            ? String.format(
                                    Locale.ROOT,
                                    " (busy machine: other processes took %.0f%% of the CPU in its median run)",
                                    100 * elsewhere)
                            : ""));
        }
        return runLines;
    }

    /** The report's heading: what ran, how often, in what order, and where its recordings are. */
    private static String heading(StudyPlan plan, Path kept) {
        return "Study: " + String.join(", ", plan.workloads()) + "; " + plan.forks()
                + " timed fork(s) per workload and thread kind"
                + " (recorded without a CPU profile), beside " + plan.controls()
                + " control JVMs without agent or JFR, in an order shuffled with seed " + plan.seed()
                + (plan.profiled() ? ", and one profiled JVM for the flame graphs" : "") + "; " + plan.warmupText()
                + " + "
                + plan.runsText().replace(" runs", " measured runs") + " per JVM"
                + (kept != null
                        ? "; recordings in " + kept + " (loomscope summary, compare or flame read them there; each is"
                                + " linked under What ran)"
                        : "; recordings removed (--no-keep)");
    }

    /**
     * One workload's comparison as the study makes it: recordings grouped by thread kind, platform the baseline; what
     * the control JVMs measured beside it; the reader's warnings.
     */
    public record Judged(
            Map<String, List<RecordingFacts>> groups,
            List<MetricResult> results,
            List<String> verdicts,
            String bottomLine,
            List<String> measured,
            List<String> caveats) {}

    /** What a workload's bottom line leads with: the work done, then what its clients waited. */
    static final List<Metric> HEADLINES = List.of(Metric.THROUGHPUT, Metric.LATENCY_P99);

    /**
     * Compares one workload's recordings: its verdict lines, with the control JVMs' results files ({@code controls})
     * the recording's measured cost per thread kind and the run-time verdict without a recording, each line led by the
     * workload's name; with the recordings' CPU samples for the report's flame graphs read in the same pass when
     * {@code flames}.
     */
    public static Judged judge(
            String workload,
            List<RecordingSource> sources,
            List<RecordingSource> controls,
            boolean flames,
            Verdict.Rule rule) {
        Map<String, List<RecordingFacts>> groups = groups(sources, flames);
        List<MetricResult> results = Comparer.compare(groups, List.of(), "platform", false, rule);
        List<String> measured = new ArrayList<>();
        if (!controls.isEmpty()) {
            List<RecordingFacts> controlFacts = new ArrayList<>();
            for (RecordingSource c : controls) {
                controlFacts.add(RecordingFacts.ofRuns(c, ControlRuns.read(c.name())));
            }
            Map<String, List<RecordingFacts>> controlGroups = Grouping.of(controlFacts, List.of());
            String cost = RecordingCost.line(groups, controlGroups, rule);
            if (cost != null) {
                measured.add(workload + ": " + cost);
            }
            List<MetricResult> unrecorded =
                    Comparer.compare(controlGroups, List.of(Metric.RUN_TIME), "platform", false, rule);
            CompareView.verdicts(unrecorded).forEach(v -> measured.add(workload + " without a recording: " + v));
        }
        List<String> caveats = new ArrayList<>();
        RecordingFacts.warnings(groups.values().stream().flatMap(List::stream).toList())
                .forEach(w -> caveats.add(workload + ": warning: " + w));
        BottomLine.Line bottom = BottomLine.of(workload, results, HEADLINES, "virtual", "unit of work", null);
        return new Judged(
                groups,
                results,
                CompareView.headlineVerdicts(results).stream()
                        .map(v -> workload + ": " + v)
                        .toList(),
                bottom == null ? null : bottom.text(),
                measured,
                caveats);
    }

    private static Map<String, List<RecordingFacts>> groups(List<RecordingSource> sources, boolean flames) {
        List<RecordingFacts> facts = new ArrayList<>(flames ? Analysis.withFlames(sources) : Analysis.of(sources));
        facts.sort(Comparator.comparing(f -> f.source.name().toString()));
        return Grouping.of(facts, List.of());
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }
}
