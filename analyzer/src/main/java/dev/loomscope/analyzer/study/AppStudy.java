package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.BottomLine;
import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Grouping;
import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.compare.Words;
import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.report.HtmlReport;
import dev.loomscope.analyzer.report.WindowChart;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.analyzer.views.LibraryHazard;
import dev.loomscope.load.Slo;
import dev.loomscope.load.stats.Quantiles;
import dev.loomscope.options.BadDataException;
import dev.loomscope.probes.MachineCpu;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.RecordingSource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code study --app}: the user's service on both thread kinds, end to end. The JVMs of the {@link AppPlan} run one at
 * a time ({@link AppRunner}); one that ran while other processes took more than {@link MachineCpu#DISTURBED} of the CPU
 * in its median measured window runs again (at most {@code reruns} times), and is left out with the reason if it stays
 * disturbed. Each URL and rate is judged apart, from the load client's windows (the runs) joined with the recording's
 * events of the same windows; with an objective, the capacity a kind sustains within it.
 */
public final class AppStudy {
    /**
     * What a service's verdicts judge: the client's figures first, then the recording's over the same windows (a
     * window's length, the workloads' run time, is the study's choice and not judged).
     */
    static final List<Metric> METRICS = List.of(
            Metric.THROUGHPUT,
            Metric.LATENCY_P50,
            Metric.LATENCY_P99,
            Metric.LATENCY_P999,
            Metric.STALLS,
            Metric.ERROR_RATE,
            Metric.SERVICE_TIME_P99,
            Metric.WAIT_OUTSIDE_THE_HANDLER_P50,
            Metric.CPU_TIME_PER_UNIT,
            Metric.CONTEXT_SWITCHES_PER_UNIT,
            Metric.PINS_PER_UNIT,
            Metric.PINNED_TIME_PER_UNIT,
            Metric.PLATFORM_THREADS_STARTED_PER_UNIT,
            Metric.GC_PAUSE_PER_UNIT,
            Metric.GC_PAUSE_TOTAL,
            Metric.HEAP_AFTER_GC_MAX,
            Metric.ALLOCATION_RATE,
            Metric.PEAK_THREADS);

    /** What a service's bottom line leads with: what its clients waited, then what it served. */
    static final List<Metric> HEADLINES = List.of(Metric.LATENCY_P99, Metric.THROUGHPUT, Metric.ERROR_RATE);

    /** How a JVM that stayed disturbed is listed among the failed ones (it did not fail: it was left out). */
    public static final String LEFT_OUT = "left out: ";

    /** The one comparison of a study whose load was the user's own command. */
    static final String UNDER_LOAD_COMMAND = "under the load command";

    private AppStudy() {}

    /** The machine and files a study needs, and what it was asked. */
    public record Setup(
            AppPlan plan,
            Path java,
            Path agent,
            List<String> urls,
            String ready,
            List<String> loadClient,
            long readyTimeoutSeconds,
            double loadMinSeconds,
            double loadMaxSeconds,
            Slo slo,
            boolean searched) {}

    /**
     * Runs the study and hands its result to {@code print} (also when a signal stopped it: the finished JVMs' verdicts,
     * said to be partial) before the process may end.
     */
    public static Study.Result run(
            Setup s, Path reportDir, Verdict.Rule rule, PrintWriter err, Consumer<Study.Result> print)
            throws IOException {
        boolean existed = Files.exists(reportDir);
        Files.createDirectories(reportDir);
        Path recordings = reportDir.resolve("recordings");
        AppPlan plan = s.plan();
        List<AppPlan.Job> jobs = plan.jobs();
        AppRunner runner = new AppRunner(
                plan,
                s.java(),
                s.agent(),
                s.urls(),
                s.ready(),
                s.loadClient(),
                s.readyTimeoutSeconds(),
                s.loadMaxSeconds());
        StopOnSignal onStop = new StopOnSignal(runner::stop, runner::stopped);
        try {
            announce(s, err);
            Progress p = new Progress();
            int n = 0;
            for (AppPlan.Job job : jobs) {
                attempts(job, ++n, runner, recordings, reportDir, existed, plan, err, p);
                if (runner.stopped()) {
                    err.println(String.format(
                            Locale.ROOT,
                            "loomscope study: stopped; the verdicts and report are of the %d JVM%s that finished"
                                    + " (partial)",
                            p.outcomes.size(),
                            p.outcomes.size() == 1 ? "" : "s"));
                    p.caveats.add(String.format(
                            Locale.ROOT,
                            "partial: the study was stopped after %d of %d JVMs; these verdicts are of those that"
                                    + " finished",
                            p.outcomes.size(),
                            jobs.size()));
                    err.flush();
                    break;
                }
            }
            Study.Result r = judge(s, p.outcomes, p.failures, p.caveats, reportDir, recordings, rule);
            print.accept(r);
            return r;
        } finally {
            onStop.reported();
        }
    }

    /** The JVMs a study has run so far, those that failed or were left out, and what its verdicts must add. */
    private static final class Progress {
        final List<AppRunner.Outcome> outcomes = new ArrayList<>();
        final List<String> caveats = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        int leftOutInARow;
    }

    /** What the study will do and how long it takes, before its first JVM starts. */
    private static void announce(Setup s, PrintWriter err) {
        AppPlan plan = s.plan();
        int jvms = plan.jobs().size();
        String load = plan.loadCommand() != null
                ? String.format(Locale.ROOT, "then the --load-command to its end (at most %.0f s)", s.loadMaxSeconds())
                : String.format(
                        Locale.ROOT,
                        "then the load: %.0f-%.0f s (a warm-up until steady, then the measured windows): about"
                                + " %.1f-%.1f min in all with the starts",
                        s.loadMinSeconds(),
                        s.loadMaxSeconds(),
                        jvms * (s.loadMinSeconds() + 8) / 60,
                        jvms * (s.loadMaxSeconds() + 15) / 60);
        err.println(String.format(
                Locale.ROOT,
                "loomscope study --app: %d JVMs (platform, virtual x %d recorded + %d control%s without the agent), one"
                        + " at a time, order shuffled with --seed %d; each: start, wait for an answer, %s",
                jvms,
                plan.forks(),
                plan.controls(),
                plan.controls() == 1 ? "" : "s",
                plan.seed(),
                load));
        err.println("order: "
                + String.join(", ", plan.jobs().stream().map(AppPlan.Job::label).toList()));
        err.flush();
    }

    /**
     * Job {@code n} of the plan, run again while the machine was too busy for its figures (the plan's reruns), until it
     * is kept, left out or failed, or the study is stopped.
     */
    private static void attempts(
            AppPlan.Job job,
            int n,
            AppRunner runner,
            Path recordings,
            Path reportDir,
            boolean existed,
            AppPlan plan,
            PrintWriter err,
            Progress p)
            throws IOException {
        for (int attempt = 0; !runner.stopped(); attempt++) {
            err.println("study: " + n + "/" + plan.jobs().size() + " " + job.label()
                    + (attempt > 0
                            ? " (again: " + attempt + " of " + plan.reruns().reruns() + ")"
                            : ""));
            err.flush();
            AppRunner.Outcome o =
                    runner.run(job, recordings.resolve(job.label() + (attempt > 0 ? "-again" + attempt : "")));
            if (runner.stopped()) {
                break; // the JVM that ran when the signal came is not a result
            }
            if (!o.ok()) {
                if (p.outcomes.isEmpty() && p.failures.isEmpty() && Double.isNaN(o.readySeconds())) {
                    // the service never answered on the first try: every other JVM would fail the same way
                    if (!existed) {
                        AppRunner.clear(reportDir);
                    }
                    throw new BadDataException("--app: the service did not start: " + job.label() + " " + o.failure()
                            + (existed ? " (its output: " + o.dir().resolve("output.log") + ")" : ""));
                }
                p.failures.add(job.label() + ": " + o.failure());
                err.println("study: " + job.label() + " failed (" + o.failure() + ")");
                break;
            }
            double busy = Reruns.busyElsewhere(o.results(), o.recording());
            Reruns.Action next = plan.reruns().after(busy, attempt, p.leftOutInARow);
            p.leftOutInARow = next == Reruns.Action.AGAIN ? p.leftOutInARow : Reruns.streak(next, p.leftOutInARow);
            if (next == Reruns.Action.ACCEPT || next == Reruns.Action.KEEP_FLAGGED) {
                p.outcomes.add(o); // a flagged one's verdict lines say the machine was busy
                err.println(String.format(
                        Locale.ROOT,
                        "study: %s done in %.1f s (answered %.1f s after its start)%s",
                        job.label(),
                        o.seconds(),
                        o.readySeconds(),
                        next == Reruns.Action.ACCEPT
                                ? ""
                                : "; kept though disturbed (--keep-disturbed): " + Reruns.busy(busy)));
                if (next == Reruns.Action.KEEP_FLAGGED) {
                    p.caveats.add(job.label() + ": kept though disturbed (--keep-disturbed): " + Reruns.busy(busy));
                }
                break;
            }
            if (next == Reruns.Action.LEAVE_OUT) {
                p.failures.add(LEFT_OUT + job.label() + ": " + plan.reruns().leftOut(busy, attempt + 1));
                err.println("study: " + job.label() + " " + plan.reruns().leftOut(busy, attempt + 1));
                break;
            }
            err.println("study: " + job.label() + " ran on a busy machine (" + Reruns.busy(busy) + "): run again");
        }
    }

    /**
     * The client's p99 window by window beside the pins and GC pauses of the same windows, for each kind's JVM whose
     * measured windows' median p99 is the kind's median; empty without windows.
     */
    private static String windowChart(String workload, Map<String, List<RecordingFacts>> groups) {
        Map<String, List<WindowChart.Window>> byKind = new LinkedHashMap<>();
        List<String> jvmNames = new ArrayList<>();
        for (String kind : StudyPlan.KINDS) {
            List<RecordingFacts> jvms = new ArrayList<>(groups.getOrDefault(kind, List.of()).stream()
                    .filter(f -> !f.runs.measured().isEmpty())
                    .toList());
            if (jvms.isEmpty()) {
                continue;
            }
            jvms.sort(Comparator.comparingDouble(f -> median(f.runs.measured().stream()
                    .mapToDouble(WorkloadRun::p99LatencyMs)
                    .toArray())));
            RecordingFacts f = jvms.get(jvms.size() / 2);
            long start = f.runs.runs().stream()
                    .mapToLong(WorkloadRun::startNanos)
                    .min()
                    .getAsLong(); // it has measured runs
            List<WindowChart.Window> windows = new ArrayList<>();
            for (WorkloadRun r : f.runs.runs().stream()
                    .sorted(Comparator.comparingLong(WorkloadRun::startNanos))
                    .toList()) {
                windows.add(new WindowChart.Window(
                        (r.startNanos() - start) / 1e9,
                        r.millis() / 1e3,
                        r.p99LatencyMs(),
                        r.warmup(),
                        f.pinning
                                .allInTime()
                                .between(r.startNanos(), r.endNanos())
                                .sum(),
                        f.gc.pausesInTime()
                                .between(r.startNanos(), r.endNanos())
                                .sum(),
                        carriersBusy(f, r)));
            }
            byKind.put(kind, windows);
            jvmNames.add(f.source.name().getParent().getFileName().toString());
        }
        return WindowChart.of(
                workload + ": p99 by window, pins and GC below",
                "the client's latency p99 of each window with the pinned time, GC pauses and, on JDK 24+, the busy"
                        + " carriers the recording has in it; JVMs "
                        + String.join(", ", jvmNames),
                byKind);
    }

    /**
     * Virtual threads mounted in the window, the mean of the scheduler's samples (JDK 24+, virtual threads); NaN when
     * none fell in it.
     */
    private static double carriersBusy(RecordingFacts f, WorkloadRun r) {
        var mounted = f.scheduler.mountedInTime().between(r.startNanos(), r.endNanos());
        return mounted.count() == 0 || !"virtual".equals(f.summary.threadKind)
                ? Double.NaN
                : mounted.sum() / mounted.count();
    }

    private static double median(double[] v) {
        double[] known = Arrays.stream(v).filter(x -> !Double.isNaN(x)).toArray();
        return known.length == 0 ? Double.NaN : Quantiles.of(known, 0.5);
    }

    /**
     * {@code JDK 21.0.8+9-LTS}: the version in a recording's JVM line; the line itself when it has none in brackets.
     */
    static String jdk(String jvm) {
        if (jvm == null) {
            return "JDK unknown (the recording has no jdk.JVMInformation)";
        }
        return HtmlReport.jdk(jvm);
    }

    /**
     * What each kind's JVMs ran on, from their recordings: the JDK, the collectors, the heap's bound, the hardware
     * threads, the carriers; one line.
     */
    static String ranOn(Map<String, List<RecordingFacts>> byKind) {
        List<String> kinds = new ArrayList<>();
        for (String kind : StudyPlan.KINDS) {
            LinkedHashSet<String> facts = new LinkedHashSet<>();
            for (RecordingFacts f : byKind.getOrDefault(kind, List.of())) {
                facts.add(jdk(f.summary.jvm)
                        + (f.summary.youngCollector == null
                                ? ""
                                : ", " + f.summary.youngCollector + "/" + f.summary.oldCollector)
                        + (f.summary.maxHeapBytes > 0
                                ? ", heap at most "
                                        + (f.summary.maxHeapBytes >= 1L << 30
                                                ? String.format(
                                                        Locale.ROOT,
                                                        "%.1f GB",
                                                        f.summary.maxHeapBytes / (double) (1L << 30))
                                                : (f.summary.maxHeapBytes >> 20) + " MB")
                                : "")
                        + (f.summary.hardwareThreads > 0 ? ", " + f.summary.hardwareThreads + " hardware threads" : "")
                        + (f.summary.cpus > 0
                                ? ", " + f.summary.cpus + " processors seen (the virtual threads' carriers)"
                                : ""));
            }
            if (!facts.isEmpty()) {
                kinds.add(kind + " on " + String.join(" and ", facts));
            }
        }
        return kinds.isEmpty() ? null : "the service ran (from its recordings): " + String.join("; ", kinds);
    }

    /** {@code JDK 21.0.8+9-LTS}, or the versions of each kind where the JVMs differ. */
    private static String jdkOf(Map<String, List<RecordingFacts>> groups) {
        LinkedHashSet<String> jdks = new LinkedHashSet<>();
        groups.values().forEach(l -> l.forEach(f -> jdks.add(jdk(f.summary.jvm))));
        return String.join(" and ", jdks);
    }

    /** The virtual threads' pins over the measured windows, said also when there are none. */
    private static String pinsSaid(List<RecordingFacts> virtual) {
        if (virtual == null || virtual.isEmpty()) {
            return "pins: no virtual-thread JVM finished";
        }
        long pins = 0;
        for (RecordingFacts f : virtual) {
            for (WorkloadRun r : f.runs.measured()) {
                pins += f.pinning
                        .allInTime()
                        .between(r.startNanos(), r.endNanos())
                        .count();
            }
        }
        if (pins == 0) {
            RecordingFacts f = virtual.get(0);
            if (!f.settings.enabled(JdkEvents.VIRTUAL_THREAD_PINNED)) {
                return "virtual threads' pins: not recorded (the recordings did not enable jdk.VirtualThreadPinned)";
            }
            Duration threshold = f.settings.threshold(JdkEvents.VIRTUAL_THREAD_PINNED);
            return "virtual threads' pins: none in the measured windows"
                    + (threshold == null || threshold.isZero()
                            ? ""
                            : " (of " + threshold.toMillis() + " ms or longer: the recording's threshold)");
        }
        return String.format(
                Locale.ROOT,
                "virtual threads' pins: %,d in the measured windows of %d JVM%s",
                pins,
                virtual.size(),
                virtual.size() == 1 ? "" : "s");
    }

    /** What a study says as its URLs and rates are judged: its lines, and the report's parts and charts. */
    private static final class Said {
        final List<String> verdicts = new ArrayList<>();
        final List<String> measured = new ArrayList<>();
        final List<String> bottom = new ArrayList<>();
        final List<String> charts = new ArrayList<>();
        final List<StudyBottomLine.Section> sections = new ArrayList<>();
        final List<HtmlReport.Part> parts = new ArrayList<>();
        final Set<String> warnings = new LinkedHashSet<>();
    }

    private static Study.Result judge(
            Setup s,
            List<AppRunner.Outcome> outcomes,
            List<String> failures,
            List<String> caveats,
            Path reportDir,
            Path recordings,
            Verdict.Rule rule) {
        Map<AppRunner.Outcome, List<WorkloadRun>> runs = new LinkedHashMap<>();
        outcomes.forEach(o -> runs.put(o, o.results() == null ? List.of() : ControlRuns.read(o.results())));
        LinkedHashSet<String> workloads = new LinkedHashSet<>();
        runs.values().forEach(r -> r.forEach(w -> workloads.add(w.workload())));
        if (s.plan().loadCommand() != null) {
            workloads.add(UNDER_LOAD_COMMAND); // no windows: each recording whole
        }
        Said said = new Said();
        said.measured.add(howMeasured(s.plan()));
        Map<String, Map<String, List<RecordingFacts>>> byWorkload = new LinkedHashMap<>();
        List<AppRunner.Outcome> recorded =
                outcomes.stream().filter(o -> o.job().recorded()).toList();
        // each recording read once; each URL and rate joins its own windows to it
        List<RecordingFacts> parsed = Analysis.of(
                recorded.stream().map(o -> RecordingSource.file(o.recording())).toList());
        String ranOn = ranOn(Grouping.of(parsed, List.of()));
        if (ranOn != null) {
            said.verdicts.add(ranOn);
        }
        Map<String, String> libraries = new TreeMap<>();
        parsed.forEach(f -> libraries.putAll(f.summary.libraries));
        List<LibraryHazard.Found> hazards = LibraryHazard.of(libraries);
        hazards.forEach(h -> said.measured.add(
                "a known hazard in what the service loads (the agent's loomscope.Library), whatever these rates"
                        + " showed: " + h.line()));
        for (String w : workloads) {
            List<RecordingFacts> timed = new ArrayList<>();
            List<RecordingFacts> controls = new ArrayList<>();
            for (int i = 0; i < recorded.size(); i++) {
                timed.add(parsed.get(i)
                        .withRuns(runs.get(recorded.get(i)).stream()
                                .filter(r -> r.workload().equals(w))
                                .toList())); // none under a load command
            }
            for (AppRunner.Outcome o : outcomes) {
                if (!o.job().recorded()) {
                    // a search's rates are each JVM's own: most are tried by one kind only, and that is no news
                    controls.add(RecordingFacts.ofRuns(
                            RecordingSource.file(o.results()),
                            runs.get(o).stream()
                                    .filter(r -> r.workload().equals(w))
                                    .toList()));
                }
            }
            Map<String, List<RecordingFacts>> groups = Grouping.of(timed, List.of());
            byWorkload.put(w, groups);
            if (!groups.containsKey("platform") || !groups.containsKey("virtual")) {
                if (!s.searched()) {
                    caveats.add(w + ": no verdict: no JVM of "
                            + (groups.containsKey("platform") ? "virtual" : "platform") + " threads finished");
                }
                continue;
            }
            if (s.searched()
                    && groups.values().stream()
                            .flatMap(List::stream)
                            .anyMatch(f -> f.runs.measured().isEmpty())) {
                continue; // a rate some JVM's search never ran: in the capacity line, not a section of its own
            }
            judge(w, groups, Grouping.of(controls, List.of()), rule, said);
            said.warnings.addAll(RecordingFacts.warnings(timed)); // the same recordings under each URL: said once
        }
        List<Capacity.Url> capacities = List.of();
        if (s.slo() != null) {
            Capacity.Result capacity = Capacity.of(s.slo(), byWorkload, rule);
            said.measured.addAll(capacity.lines());
            said.charts.addAll(
                    capacity.charts().stream().filter(c -> !c.isEmpty()).toList());
            capacities = capacity.urls();
        }
        int feature = parsed.stream()
                .filter(f -> "virtual".equals(f.summary.threadKind))
                .mapToInt(f -> f.summary.jdkFeature())
                .max()
                .orElse(0);
        StallHolds holds = StallHolds.of(recorded.stream()
                .filter(o -> o.job().kind().equals("virtual") && o.recording() != null)
                .map(o -> o.recording().getParent())
                .toList());
        if (holds != null) {
            said.measured.add(
                    "the virtual JVMs' stalls (the agent's two thread dumps at each, read as 'loomscope threads' reads"
                            + " them): "
                            + (holds.brief() != null
                                    ? holds.brief()
                                    : "no carrier held in any of the " + holds.stalls() + " stalls dumped"));
        }
        String study = StudyBottomLine.of(
                        said.sections,
                        capacities,
                        hazards.stream().filter(h -> h.holdsOn(feature)).toList(),
                        holds,
                        feature,
                        s.plan().forks(),
                        rule.fewestEach())
                .text();
        said.bottom.add(0, study); // first in the report, last in the terminal
        return report(s, outcomes, failures, caveats, reportDir, recordings, said, study);
    }

    /**
     * The study's HTML report in {@code reportDir}, and its result: what {@code said} says, the caveats with the
     * recordings' warnings.
     */
    private static Study.Result report(
            Setup s,
            List<AppRunner.Outcome> outcomes,
            List<String> failures,
            List<String> caveats,
            Path reportDir,
            Path recordings,
            Said said,
            String bottomLine) {
        List<String> runLines = new ArrayList<>();
        for (AppRunner.Outcome o : outcomes) {
            runLines.add(String.format(
                    Locale.ROOT,
                    "%-28s %6.1f s  ok (answered %.1f s after its start)%s",
                    o.job().label(),
                    o.seconds(),
                    o.readySeconds(),
                    o.job().recorded() ? "" : " (no agent, no JFR: the recording's cost)"));
        }
        String heading = "Study of " + String.join(" ", s.plan().command()) + ": "
                + s.plan().forks() + " recorded JVM(s) and " + s.plan().controls()
                + " control JVM(s) without the agent per thread kind, one at a time, in an order shuffled with seed "
                + s.plan().seed()
                + "; each under the load client's open-loop load; recordings in " + recordings;
        // the report says what the terminal says: the caveats with what was measured (the recordings' warnings in its
        // own banner)
        HtmlReport.Extras extras = new HtmlReport.Extras(
                        heading,
                        runLines,
                        failures,
                        Stream.concat(said.measured.stream(), caveats.stream()).toList())
                .withRunRecordings(outcomes.stream()
                        .map(o -> o.recording() != null ? o.recording() : o.results())
                        .toList())
                .withCharts(said.charts)
                .withVerdicts(said.verdicts, said.bottom, Words.SERVICE);
        Path index = HtmlReport.write(reportDir, said.parts, extras);
        said.warnings.forEach(x -> caveats.add("warning: " + x));
        return new Study.Result(
                said.verdicts,
                said.measured,
                caveats,
                failures,
                index,
                outcomes.stream().anyMatch(o -> o.job().recorded()),
                bottomLine);
    }

    /** What the figures of a study are, and over which windows: the first of its measured lines. */
    private static String howMeasured(AppPlan plan) {
        if (plan.loadCommand() != null) {
            return "the load came from --load-command " + String.join(" ", plan.loadCommand())
                    + ": a client of its own, most likely a closed loop (it waits for each answer, so a stalled service"
                    + " slows the load and hides in it); without its windows each recording is judged whole, start-up"
                    + " and the load's ramp included, and latency, which only a client measures, not at all: see the"
                    + " client's own figures in each JVM's load.log";
        }
        return "latency, throughput and errors are the load client's (open loop at a fixed rate, each request's latency"
                + " from when it was due), over each JVM's measured windows only; the recording's figures (pins, GC,"
                + " context switches per request) over the same windows; service time (the agent's work=) is the"
                + " handler's own, not what a client waits";
    }

    /**
     * One URL and rate ({@code w}) judged on both kinds' recorded JVMs ({@code groups}), with the controls' latency
     * beside them: its chart, verdicts, what the client saw, the pins' ceiling and the bottom line, into {@code said}.
     */
    private static void judge(
            String w,
            Map<String, List<RecordingFacts>> groups,
            Map<String, List<RecordingFacts>> controlGroups,
            Verdict.Rule rule,
            Said said) {
        String over = windowChart(w, groups);
        if (!over.isEmpty()) {
            said.charts.add(over);
        }
        List<MetricResult> results = Comparer.compare(groups, List.of(), "platform", false, rule).stream()
                .filter(r -> METRICS.contains(r.metric()))
                .sorted(Comparator.comparing(r -> METRICS.indexOf(r.metric())))
                .toList();
        said.parts.add(new HtmlReport.Part(w, groups, results));
        // the warm-up a service gets is the load client's, until steady
        CompareView.verdictsOnly(results, Words.SERVICE).forEach(v -> said.verdicts.add(w + ": " + v));
        double rate = ClientLine.offeredRate(groups.values());
        String few = results.stream().anyMatch(r -> r.metric() == Metric.LATENCY_P99)
                ? ClientLine.fewForP99(w, groups.values(), rate)
                : null;
        if (few != null) {
            said.verdicts.add(few);
        }
        said.verdicts.add(w + ": what the client saw, " + jdkOf(groups) + ": "
                + String.join(
                        "; ",
                        StudyPlan.KINDS.stream()
                                .filter(groups::containsKey)
                                .map(k -> ClientLine.of(k, groups.get(k)))
                                .toList())
                + "; "
                + pinsSaid(groups.get("virtual")));
        if (controlGroups.containsKey("platform") && controlGroups.containsKey("virtual")) {
            List<MetricResult> unrecorded = Comparer.compare(
                    controlGroups, List.of(Metric.LATENCY_P99, Metric.ERROR_RATE), "platform", false, rule);
            CompareView.verdictsOnly(unrecorded, Words.SERVICE)
                    .forEach(v -> said.measured.add(w + " without a recording: " + v));
        }
        var carriers = ServiceCause.carriers(groups.get("virtual"));
        ServiceCause.Ceiling ceiling = Double.isNaN(rate)
                ? null
                : ServiceCause.ceiling(rate, groups.get("virtual"), carriers.count(), carriers.from());
        if (ceiling != null) {
            said.measured.add(ServiceCause.line(w, ceiling));
        }
        String advised = AdviseScore.line(w, groups, rate);
        if (advised != null) {
            // a drain's figures are of the backlog, not of the service: said, and no bottom line rests on them
            said.measured.add(advised);
        }
        MetricResult stalls = results.stream()
                .filter(r -> r.metric() == Metric.STALLS)
                .findFirst()
                .orElse(null);
        String drains = Draining.of(groups);
        if (drains != null) {
            String none = BottomLine.MARK + w + ": no bottom line: " + drains;
            said.verdicts.add(none);
            said.bottom.add(none);
            said.sections.add(new StudyBottomLine.Section(w, null, drains, null, null));
            return;
        }
        BottomLine.Line line = BottomLine.of(
                w,
                results,
                HEADLINES,
                "virtual",
                Words.SERVICE.unit(),
                ceiling != null && ceiling.limits() ? ceiling : null);
        said.sections.add(new StudyBottomLine.Section(w, line, null, stalls, ceiling));
        if (line != null) {
            said.verdicts.add(line.text()); // under the workload's verdicts, and at the top of the report
            said.bottom.add(line.text());
        }
    }
}
