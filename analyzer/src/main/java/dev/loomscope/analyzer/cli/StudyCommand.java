package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.study.AppPlan;
import dev.loomscope.analyzer.study.AppStudy;
import dev.loomscope.analyzer.study.Reruns;
import dev.loomscope.analyzer.study.Study;
import dev.loomscope.analyzer.study.StudyPlan;
import dev.loomscope.load.RequestFile;
import dev.loomscope.load.Slo;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.Launch;
import dev.loomscope.options.UsageException;
import dev.loomscope.options.WorkloadOptions;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code loomscope study}: the main job, end to end. */
@Command(
        name = "study",
        mixinStandardHelpOptions = true,
        description = {
            "The main job: runs a program on platform and on virtual threads and writes the verdicts and a report:"
                    + " loomscope's own workloads, or with --app COMMAND your own service, each JVM alone under"
                    + " open-loop HTTP load, judged from its clients' side.",
            "Each workload and thread kind runs under the agent in its own JVMs (5 a kind: the JVM is the unit the"
                    + " verdicts count), in an order shuffled by a printed seed, timed without a CPU profile; one more"
                    + " JVM each records the profile for the flame graphs and is not timed. Then verdicts here and a"
                    + " self-contained report (statistics, pinning, GC, heap, context switches, flame graphs per thread"
                    + " kind and the differential graph)."
        })
public final class StudyCommand extends CliCommand {
    @Option(
            names = "--workload",
            split = ",",
            paramLabel = "NAME",
            description = "workloads: echo, sleep, rendezvous, gameoflife, pinning (default: echo,sleep)")
    List<String> workloads = new ArrayList<>(List.of("echo", "sleep"));

    @Option(
            names = "--runs",
            paramLabel = "R",
            description = "measured runs per JVM (default: what the Kalibera-Jones line advised here, echo 3 on"
                    + " platform / 4 on virtual threads, sleep 2 / 5, others 3; --quick 2)")
    Integer runs;

    @Option(
            names = "--warmup",
            paramLabel = "W",
            description =
                    "warm-up runs per JVM, left out of the statistics (default: 1 on platform threads, 2 for echo's, 3"
                            + " on virtual threads)")
    Integer warmup;

    @Option(
            names = "--forks",
            paramLabel = "F",
            description =
                    "timed JVMs per workload and thread kind, the unit the verdicts count (default 5, the fewest at"
                            + " which a difference can reach p < 0.05 with room to spare; --quick 2, which can give no"
                            + " verdict but 'too few JVMs')")
    Integer forks;

    @Option(names = "--requests", paramLabel = "N", description = "echo: requests per run (default 5000; --quick 2000)")
    Integer requests;

    @Option(names = "--concurrency", paramLabel = "C", description = "echo: concurrent clients (default 100)")
    Integer concurrency;

    @Option(names = "--tasks", paramLabel = "N", description = "sleep: tasks per run (default 10000; --quick 2000)")
    Integer tasks;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "loomscope-report",
            description = "report directory (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--quick", description = "a smaller study that takes under a minute")
    boolean quick;

    @Option(
            names = "--parallelism",
            paramLabel = "P",
            description = "the virtual thread scheduler's parallelism, maxPoolSize and minRunnable in every workload"
                    + " JVM (default: the JDK's, the number of cores)")
    Integer parallelism;

    @Option(
            names = "--jvm-arg",
            paramLabel = "ARG",
            description = "an option for the workload JVMs (repeatable), e.g. --jvm-arg=-Xmx512m")
    List<String> jvmArgs = new ArrayList<>();

    @Option(
            names = "--agent-opts",
            paramLabel = "OPTS",
            description =
                    "more agent options, e.g. profile=cpu+wall,interval=5ms (the profile JVMs take them as given, the"
                            + " timed ones with profile=off; profile=off: no profile JVMs)")
    String agentOpts;

    @Option(
            names = "--seed",
            paramLabel = "N",
            description = "the seed that shuffles the JVMs' order (default: a new one, printed)")
    Long seed;

    @picocli.CommandLine.Mixin
    VerdictOptions verdictOptions;

    @Option(
            names = "--keep",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "keep the recordings beside the report (DIR/recordings; the report links each), so summary,"
                    + " compare and flame read them later; --no-keep removes them (default: keep)")
    boolean keep = true;

    @Option(
            names = "--java",
            paramLabel = "PATH",
            description = "the java the workloads run on (default: the one running loomscope)")
    Path javaExecutable;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            defaultValue = "300",
            description = "a JVM running longer fails (default: ${DEFAULT-VALUE})")
    long timeout;

    @Option(
            names = "--app",
            paramLabel = "COMMAND",
            description = "study your own service in place of the workloads: the command that starts it, a template:"
                    + " {threads} becomes platform or virtual, {virtual} false or true, {port} a free port; a first"
                    + " word java is the JDK of --java, and loomscope adds its agent (to another command through"
                    + " JAVA_TOOL_OPTIONS). Each JVM runs alone, under the load client's open-loop load (--url,"
                    + " --rate)")
    String app;

    @picocli.CommandLine.Mixin
    LoadOptions load;

    @Option(
            names = "--load-command",
            paramLabel = "COMMAND",
            description = "--app: your own load client in place of loomscope's, a template as --app's ({port},"
                    + " {threads}, {virtual}), run to its end against each JVM (within --timeout): no windows, so each"
                    + " recording is judged whole and latency not at all, as the output says; no control JVMs")
    String loadCommand;

    @Option(
            names = "--ready",
            paramLabel = "URL",
            description = "--app: the URL that answers once the service is up (default: the first --url)")
    String ready;

    @Option(
            names = "--ready-timeout",
            paramLabel = "SECONDS",
            defaultValue = "120",
            description = "--app: a service not answering this long after its start fails (default: ${DEFAULT-VALUE})")
    long readyTimeout;

    @Option(
            names = "--work",
            paramLabel = "FILTER",
            description = "--app: the agent's work= filter, the handler whose own time is the 'service time' (e.g."
                    + " demo.Api::io)")
    String work;

    @Option(
            names = "--controls",
            paramLabel = "N",
            defaultValue = "1",
            description = "--app: JVMs a kind without the agent, for what the recording costs (default:"
                    + " ${DEFAULT-VALUE})")
    int controls;

    @Option(
            names = "--reruns",
            paramLabel = "N",
            defaultValue = "2",
            description = "times a JVM disturbed by other processes (over 20%% of the CPU in its median measured run or"
                    + " window) runs again before it is left out (default: ${DEFAULT-VALUE})")
    int reruns;

    @Option(
            names = "--keep-disturbed",
            description = "keep a JVM still disturbed after its reruns, its verdict lines flagged 'busy machine',"
                    + " instead of leaving it out (on a machine that is always busy)")
    boolean keepDisturbed;

    @picocli.CommandLine.Mixin
    DebugOption debug;

    @Override
    public Integer call() throws IOException {
        PrintWriter stdout = stdout();
        PrintWriter stderr = stderr();
        if (reruns < 0) {
            throw new UsageException("--reruns " + reruns + ": must be 0 or more");
        }
        if (out.toAbsolutePath()
                .toString()
                .contains(",")) { // the recordings go under it, named in the agent's options, which commas separate
            throw new UsageException("--out " + out + ": a directory whose path has no comma (the agent's options,"
                    + " which name where its recordings go, are separated by commas)");
        }
        if (app != null) {
            return app(stdout, stderr);
        }
        checkWorkloadOptions();
        checkAgentOpts();
        // without --runs each workload and kind runs its own default (StudyPlan.DEFAULT_RUNS); --quick runs 2
        Integer measuredRuns = runs == null && !quick ? null : checked("--runs", runs, 2, WorkloadOptions.RUNS);
        List<String> workloadJvmArgs = new ArrayList<>(jvmArgs);
        if (parallelism != null) {
            checked("--parallelism", parallelism, 0, WorkloadOptions.Rendezvous.PARALLELISM);
            WorkloadOptions.Rendezvous.schedulerProperties(parallelism)
                    .forEach((k, v) -> workloadJvmArgs.add("-D" + k + "=" + v));
        }
        int timed = positive("--forks", forks, quick ? 2 : 5);
        StudyPlan plan = new StudyPlan(
                List.copyOf(new LinkedHashSet<>(workloads)),
                measuredRuns,
                warmup == null ? null : checked("--warmup", warmup, 0, WorkloadOptions.WARMUP),
                timed,
                StudyPlan.controlsFor(timed, verdictOptions.rule()),
                checked("--requests", requests, quick ? 2000 : 5000, WorkloadOptions.Echo.N),
                checked("--concurrency", concurrency, 100, WorkloadOptions.Echo.C),
                checked("--tasks", tasks, quick ? 2000 : 10_000, WorkloadOptions.Sleep.TASKS),
                workloadJvmArgs,
                agentOpts,
                timeout,
                seed != null ? seed : new SecureRandom().nextLong() & Long.MAX_VALUE);
        if (forks != null) {
            noteTooFew(forks, stderr); // --quick's 2 say so in its help
        }
        Path agent = Install.AGENT.required();
        Path workloadsJar = Install.WORKLOADS.required();
        Study.Result r = Study.run(
                plan,
                new Study.Jvms(java(), agent, workloadsJar),
                out.toAbsolutePath(),
                keep,
                verdictOptions.rule(),
                new Reruns(reruns, keepDisturbed),
                stderr,
                Boolean.getBoolean("loomscope.stderrIsTerminal"));
        return print(r, stdout);
    }

    /**
     * A note when --forks gives each kind fewer JVMs than the JVM-level test needs to reach --alpha: the study runs,
     * and says so.
     */
    private void noteTooFew(int jvms, PrintWriter stderr) {
        var rule = verdictOptions.rule();
        int fewest = rule.fewestEach();
        if (jvms < fewest) {
            stderr.println("loomscope study: note: --forks " + jvms + ": with fewer than " + fewest
                    + " JVMs a kind no verdict can reach p < " + rule.alpha() + " (" + fewest + " against " + fewest
                    + " is the fewest); the study runs, and its verdicts will say \"too few JVMs\"");
        }
    }

    /** A study of the seed workloads takes none of --app's options, and only workloads it knows. */
    private void checkWorkloadOptions() {
        refuse(
                List.of(
                        "--url",
                        "--rate",
                        "--ready",
                        "--work",
                        "--slo",
                        "--controls",
                        "--load-command",
                        "--connections",
                        "--request-timeout",
                        "--min-warmup",
                        "--max-warmup",
                        "--windows",
                        "--window",
                        "--ramp",
                        "--ready-timeout",
                        "--request-file",
                        "--method",
                        "--header",
                        "--body",
                        "--insecure"),
                "for a study of your own service (--app COMMAND)");
        for (String w : workloads) {
            if (!StudyPlan.WORKLOADS.contains(w)) {
                throw new UsageException(
                        "--workload " + w + ": unknown (use " + String.join(", ", StudyPlan.WORKLOADS) + ")");
            }
        }
    }

    /** A usage error for the first of {@code options} given on the command line: {@code OPTION: why}. */
    private void refuse(List<String> options, String why) {
        for (String o : options) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new UsageException(o + ": " + why);
            }
        }
    }

    /** The placeholders in --app, --load-command, --url and --ready: only those each knows. */
    private void checkPlaceholders() {
        AppPlan.knownPlaceholders("--app", app, AppPlan.PLACEHOLDERS);
        if (loadCommand != null) {
            AppPlan.knownPlaceholders("--load-command", loadCommand, AppPlan.PLACEHOLDERS);
        }
        for (String u : load.urls) {
            AppPlan.knownPlaceholders("--url", u, List.of("{port}"));
        }
        if (ready != null) {
            AppPlan.knownPlaceholders("--ready", ready, List.of("{port}"));
        }
    }

    /** --agent-opts as the agent reads them: a usage error naming each problem. */
    private void checkAgentOpts() {
        List<String> agentProblems = agentOpts == null
                ? List.of()
                : AgentOptions.parse(null, agentOpts).problems();
        if (!agentProblems.isEmpty()) {
            throw new UsageException("--agent-opts " + agentOpts + ": " + String.join("; ", agentProblems));
        }
    }

    private Path java() {
        Path java = javaExecutable != null ? javaExecutable.toAbsolutePath() : Path.of(Launch.thisJava());
        if (Files.isDirectory(java) && Files.isExecutable(java.resolve("bin/java"))) {
            java = java.resolve("bin/java"); // a JDK's home
        }
        if (!Files.isRegularFile(java) || !Files.isExecutable(java)) {
            throw new BadDataException(
                    java + ": not an executable java nor a JDK's home (give --java a JDK 21+ home or its bin/java)");
        }
        return java;
    }

    /** {@code study --app}: the user's service both ways under the load client's load. */
    private int app(PrintWriter stdout, PrintWriter stderr) throws IOException {
        refuse(
                List.of(
                        "--workload",
                        "--runs",
                        "--warmup",
                        "--requests",
                        "--concurrency",
                        "--tasks",
                        "--quick",
                        "--parallelism"),
                "for loomscope's own workloads, not --app (the load is --url and --rate; JVM options go in the"
                        + " command)");
        checkPlaceholders();
        List<String> command = AppPlan.words("--app", app);
        List<String> loadWords = loadCommand == null ? null : AppPlan.words("--load-command", loadCommand);
        runnable("--app", command.get(0));
        if (loadWords != null) {
            runnable("--load-command", loadWords.get(0));
            refuse(
                    List.of(
                            "--rate",
                            "--slo",
                            "--connections",
                            "--request-timeout",
                            "--min-warmup",
                            "--max-warmup",
                            "--windows",
                            "--window",
                            "--ramp",
                            "--request-file",
                            "--method",
                            "--header",
                            "--body",
                            "--insecure"),
                    "for loomscope's load client, not with --load-command (your client sets its own load)");
        }
        if (work != null && work.contains(",")) {
            throw new UsageException(
                    "--work " + work + ": one filter; several are joined with ';' (see the agent's work= option)");
        }
        checkAgentOpts();
        if (controls < 0) {
            throw new UsageException("--controls " + controls + ": must be 0 or more");
        }
        // four a kind: the fewest at which the JVM-level test can reach p < 0.05 (three against three cannot: p >= 0.1)
        int jvms = positive("--forks", forks, 4);
        var loadSpec = load.forStudy()
                .spec(u -> u.replace("{port}", "1"), "platform", 0); // checks the options once, before any JVM starts
        List<String> urls =
                load.urls.isEmpty() && load.requestFiles.isEmpty() ? List.of("http://localhost:{port}/") : load.urls;
        // the service is ready when it answers at --ready, else at the first URL, else at the first request file's
        // first URL
        String readyAt = ready != null
                ? ready
                : !urls.isEmpty()
                        ? urls.get(0)
                        : RequestFile.read(load.requestFiles.get(0), u -> u.replace("{port}", "65535"))
                                .first()
                                .uri()
                                .toString()
                                .replace(":65535", ":{port}");
        if (urls.stream().noneMatch(u -> u.contains("{port}")) && !urls.isEmpty() && app.contains("{port}")) {
            stderr.println(
                    "loomscope study: note: no --url holds {port}, so the load goes where the URLs say, not to the port"
                            + " given to the service");
        }
        Slo objective = loadSpec.slo();
        Path agent = Install.AGENT.required();
        noteTooFew(jvms, stderr);
        var plan = new AppPlan(
                command,
                loadWords,
                jvms,
                loadWords != null ? 0 : controls,
                new Reruns(reruns, keepDisturbed),
                work,
                agentOpts,
                seed != null ? seed : new SecureRandom().nextLong() & Long.MAX_VALUE);
        var setup = new AppStudy.Setup(
                plan,
                java(),
                agent,
                urls,
                readyAt,
                load.clientCommand(),
                readyTimeout,
                loadWords != null ? 0 : loadSpec.minSeconds(),
                loadWords != null ? timeout : loadSpec.maxSeconds(),
                objective,
                loadSpec.search());
        int[] exit = {Errors.OK};
        AppStudy.run(setup, out.toAbsolutePath(), verdictOptions.rule(), stderr, r -> exit[0] = print(r, stdout));
        return exit[0];
    }

    /**
     * A command's first word: java (the JDK of --java), a path to an executable, or a name on the PATH; else one line
     * before any JVM starts.
     */
    private static void runnable(String option, String first) {
        if (first.equals("java")) {
            return;
        }
        boolean found = first.contains("/")
                ? Files.isExecutable(Path.of(first))
                : Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, first)));
        if (!found) {
            throw new BadDataException(option + ": '" + first
                    + "' is not a command here (not an executable file, nor on the PATH): give java, a path or a"
                    + " command name");
        }
    }

    private static int print(Study.Result r, PrintWriter stdout) {
        r.verdicts().forEach(stdout::println);
        if (r.verdicts().isEmpty()) {
            stdout.println("no verdicts: no workload finished on both thread kinds");
        }
        r.measured().forEach(stdout::println);
        r.caveats().forEach(stdout::println);
        r.failures().forEach(f -> stdout.println(f.startsWith(AppStudy.LEFT_OUT) ? f : "failed: " + f));
        if (r.bottomLine() != null) {
            stdout.println(r.bottomLine());
        }
        stdout.println("report: " + r.index());
        stdout.flush();
        return r.ok() ? Errors.OK : Errors.CHECK_FAILED;
    }

    private int positive(String name, Integer value, int def) {
        int v = value == null ? def : value;
        if (v < 1) {
            throw new UsageException(name + " " + v + ": must be at least 1");
        }
        return v;
    }

    /** A study option that the workloads take as {@code option}: checked against its declaration. */
    private int checked(String name, Integer value, int def, dev.loomscope.options.Option option) {
        int v = value == null ? def : value;
        String problem = option.problem(Integer.toString(v));
        if (problem != null) {
            throw new UsageException(name + " " + v + ": " + problem);
        }
        return v;
    }
}
