package dev.loomscope.analyzer.study;

import dev.loomscope.options.AgentOptions;
import dev.loomscope.recording.ProfileFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Runs the jobs of a plan one after another, each a child JVM with the agent and its own recording (the timed ones with
 * profile=off), or a control JVM without agent and JFR that writes its runs to a results file. A child that crashes or
 * times out marks its job failed and the study goes on; a stop request (Ctrl-C) ends the running child and the jobs not
 * started.
 */
public final class StudyRunner {

    /** The file a control JVM writes its runs to, in its job's directory. */
    static final String RESULTS = "results.csv";

    /**
     * What happened to a job: its recording (a control JVM's results file; null if none), its output, why it failed
     * (null if it did not).
     */
    public record Outcome(StudyPlan.Job job, Path recording, double seconds, String failure, List<String> output) {
        public boolean ok() {
            return failure == null;
        }
    }

    private final StudyPlan plan;
    private final Path javaExe;
    private final Path agentJar;
    private final Path workloadsJar;
    private final Path recordings;
    private final Progress progress;
    private final Reruns reruns;
    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile Process current;

    public StudyRunner(
            StudyPlan plan,
            Path java,
            Path agentJar,
            Path workloadsJar,
            Path recordings,
            Progress progress,
            Reruns reruns) {
        this.plan = plan;
        this.reruns = reruns;
        this.javaExe = java;
        this.agentJar = agentJar;
        this.workloadsJar = workloadsJar;
        this.recordings = recordings;
        this.progress = progress;
    }

    /** Asks the study to stop: the running child is ended, no further job starts. */
    public void stop() {
        stop.set(true);
        Process p = current;
        if (p != null) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
    }

    public boolean stopped() {
        return stop.get();
    }

    public List<Outcome> run() throws IOException {
        Files.createDirectories(recordings);
        List<StudyPlan.Job> jobs = plan.jobs();
        List<Outcome> outcomes = new ArrayList<>();
        progress.start(jobs.size());
        int leftOutInARow = 0;
        for (StudyPlan.Job job : jobs) {
            if (stop.get()) {
                break;
            }
            for (int attempt = 0; ; attempt++) {
                progress.begin(job);
                Outcome o = runJob(job);
                double busy = !o.ok() || job.role() == StudyPlan.Role.PROFILE
                        ? Double.NaN
                        : job.role() == StudyPlan.Role.CONTROL
                                ? Reruns.busyElsewhere(o.recording(), null)
                                : Reruns.busyElsewhere(null, o.recording());
                Reruns.Action next = reruns.after(busy, attempt, leftOutInARow);
                leftOutInARow = next == Reruns.Action.AGAIN ? leftOutInARow : Reruns.streak(next, leftOutInARow);
                if (next == Reruns.Action.AGAIN && !stop.get()) {
                    progress.again(o, Reruns.busy(busy));
                    continue;
                }
                if (next == Reruns.Action.LEAVE_OUT) {
                    o = new Outcome(job, o.recording(), o.seconds(), reruns.leftOut(busy, attempt + 1), o.output());
                }
                outcomes.add(o);
                progress.end(o);
                break;
            }
        }
        progress.finish();
        return outcomes;
    }

    List<String> command(StudyPlan.Job job, Path dir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExe.toString());
        cmd.addAll(plan.jvmArgs());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        if (job.role() == StudyPlan.Role.CONTROL) {
            cmd.add("-jar");
            cmd.add(workloadsJar.toString());
            cmd.addAll(job.workloadArgs());
            cmd.add("--results");
            cmd.add(dir.resolve(RESULTS).toString());
            return cmd;
        }
        List<String> opts = new ArrayList<>(List.of(
                AgentOptions.OUT.is(dir.toString()),
                AgentOptions.LABEL.is(job.label()),
                AgentOptions.THREADS.is(job.kind()),
                AgentOptions.FLAME.is("off"),
                AgentOptions.TRACE_PINNED.is("off")));
        if (job.profile()) {
            opts.add(StudyPlan.PROFILE_OPTIONS); // before the user's options, which may set others
        }
        if (plan.agentOptions() != null && !plan.agentOptions().isBlank()) {
            opts.add(plan.agentOptions()); // the user's, checked when the study was asked for
        }
        if (!job.profile()) {
            opts.add(AgentOptions.PROFILE.is("off")); // the agent takes the last value given
        }
        cmd.add("-javaagent:" + agentJar + "=" + AgentOptions.line(opts.toArray(String[]::new)));
        cmd.add("-jar");
        cmd.add(workloadsJar.toString());
        cmd.addAll(job.workloadArgs());
        return cmd;
    }

    private Outcome runJob(StudyPlan.Job job) throws IOException {
        Path dir = recordings.resolve(job.label());
        AppRunner.clear(dir); // an earlier attempt's or study's recording would be taken for this one's
        Files.createDirectories(dir);
        Path log = dir.resolve("output.log");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(command(job, dir))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        current = p;
        String failure = null;
        try {
            if (!p.waitFor(plan.timeoutSeconds(), TimeUnit.SECONDS)) {
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                }
                failure = "timed out after " + plan.timeoutSeconds() + " s";
            } else if (stop.get()) {
                failure = "stopped";
            } else if (p.exitValue() != 0) {
                failure = "exited with " + p.exitValue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            failure = "interrupted";
        } finally {
            current = null;
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        List<String> output = Files.exists(log) ? Files.readAllLines(log) : List.of();
        Path recording = written(job, dir);
        if (failure == null && recording == null) {
            failure = job.role() == StudyPlan.Role.CONTROL ? "no results file was written" : "no recording was written";
        }
        if (failure != null && !failure.equals("stopped")) {
            // the child's last word, not the JVM's or the agent's routine lines
            String last = output.stream()
                    .filter(l -> !l.isBlank()
                            && !l.startsWith("WARNING:")
                            && !l.startsWith("loomscope-agent: recording written"))
                    .reduce((a, b) -> b)
                    .orElse("no output");
            failure = failure + ": " + last;
        }
        return new Outcome(job, recording, seconds, failure, output);
    }

    /**
     * What a job left in {@code dir}: a control JVM's results file, else the agent's recording (not a CPU profile);
     * null when none.
     */
    private static Path written(StudyPlan.Job job, Path dir) throws IOException {
        if (job.role() == StudyPlan.Role.CONTROL) {
            return Files.isRegularFile(dir.resolve(RESULTS)) ? dir.resolve(RESULTS) : null;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().endsWith(".jfr") && !ProfileFile.is(f))
                    .findFirst()
                    .orElse(null);
        }
    }

    /** Shows how far the study is: a bar on a terminal, plain lines otherwise. */
    public static final class Progress {
        private final PrintWriter err;
        private final boolean terminal;
        private int total;
        private int done;
        private long startNanos;
        private double secondsDone;

        public Progress(PrintWriter err, boolean terminal) {
            this.err = err;
            this.terminal = terminal;
        }

        void start(int jobs) {
            total = jobs;
            startNanos = System.nanoTime();
        }

        void begin(StudyPlan.Job job) {
            String what = job.workload() + " on " + job.kind() + " threads ("
                    + switch (job.role()) {
                        case TIMED -> "fork " + job.fork();
                        case CONTROL -> "fork " + job.fork() + ", control: no recording";
                        case PROFILE -> "CPU profile, not timed";
                    }
                    + ")";
            if (terminal) {
                int width = 24;
                int filled = total == 0 ? width : width * done / total;
                String eta = done == 0
                        ? ""
                        : String.format(Locale.ROOT, ", ETA %.0f s", secondsDone / done * (total - done));
                err.print("\r\033[K[" + "=".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/" + total
                        + " JVMs" + eta + "  " + what);
            } else {
                err.println("study: " + (done + 1) + "/" + total + " " + what);
            }
            err.flush();
        }

        void again(Outcome o, String why) {
            if (terminal) {
                err.print("\r\033[K");
            }
            err.println("study: " + o.job().label() + " ran on a busy machine (" + why + "): run again");
            err.flush();
        }

        void end(Outcome o) {
            done++;
            secondsDone = (System.nanoTime() - startNanos) / 1e9;
            if (!o.ok()) {
                if (terminal) {
                    err.print("\r\033[K");
                }
                err.println("study: " + o.job().label() + " failed (" + o.failure() + ")");
            } else if (!terminal) {
                err.println(String.format(
                        Locale.ROOT, "study: %s done in %.1f s", o.job().label(), o.seconds()));
            }
            err.flush();
        }

        void finish() {
            if (terminal) {
                err.print("\r\033[K");
                err.flush();
            }
        }
    }
}
