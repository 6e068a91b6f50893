package dev.loomscope.analyzer.study;

import dev.loomscope.load.Target;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.recording.ProfileFile;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs one JVM of an {@link AppPlan}: the user's command (under the agent when the job records), waits until the
 * service answers, drives it with the load client in a process of its own, then stops it as an operator would (SIGTERM,
 * then harder), so the agent writes its recording. Never two measured JVMs at once: the next job starts after this
 * one's process tree has ended.
 */
final class AppRunner {
    /**
     * What one JVM gave: its directory, recording (null for a control JVM), the load client's results, how long it took
     * to answer, why it failed (null).
     */
    record Outcome(
            AppPlan.Job job,
            Path dir,
            Path recording,
            Path results,
            double seconds,
            double readySeconds,
            String failure) {
        boolean ok() {
            return failure == null;
        }
    }

    private final AppPlan plan;
    private final Path java;
    private final Path agent;
    private final List<String> urls;
    private final String ready;
    private final List<String> loadClient;
    private final long readyTimeoutSeconds;
    private final double loadSeconds;
    private volatile Process current;
    private volatile boolean stopped;

    AppRunner(
            AppPlan plan,
            Path java,
            Path agent,
            List<String> urls,
            String ready,
            List<String> loadClient,
            long readyTimeoutSeconds,
            double loadSeconds) {
        this.plan = plan;
        this.java = java;
        this.agent = agent;
        this.urls = urls;
        this.ready = ready;
        this.loadClient = loadClient;
        this.readyTimeoutSeconds = readyTimeoutSeconds;
        this.loadSeconds = loadSeconds;
    }

    boolean stopped() {
        return stopped;
    }

    void stop() {
        stopped = true;
        Process p = current;
        if (p != null) {
            end(p);
        }
    }

    Outcome run(AppPlan.Job job, Path dir) throws IOException {
        clear(dir); // an earlier study's files in it would be taken for this JVM's
        Files.createDirectories(dir);
        long t0 = System.nanoTime();
        int port = freePort();
        ProcessBuilder app = new ProcessBuilder(command(job, dir, port))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(Failure.SERVICE_LOG).toFile());
        if (job.recorded() && !plan.command().get(0).equals("java")) {
            app.environment()
                    .put(
                            "JAVA_TOOL_OPTIONS",
                            agentArg(job, dir)); // a script that starts java: the JVM picks the agent up
        }
        Process p;
        try {
            p = app.start();
        } catch (IOException e) {
            return new Outcome(job, dir, null, null, 0, Double.NaN, "did not start: " + e.getMessage());
        }
        current = p;
        Failure failure = null;
        double readySeconds = Double.NaN;
        Path results = plan.loadCommand() == null
                ? dir.resolve(LoadWindows.FILE)
                : null; // the user's own client writes no windows
        try {
            Target readyAt = Target.of(fill(ready, port));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(readyTimeoutSeconds);
            while (!readyAt.answers(1000)) {
                if (!p.isAlive()) {
                    failure = Failure.service("exited with " + p.exitValue() + " before answering at " + readyAt.uri());
                    break;
                }
                if (stopped || System.nanoTime() > deadline) {
                    failure = stopped
                            ? Failure.STOPPED
                            : Failure.service("did not answer at " + readyAt.uri() + " within " + readyTimeoutSeconds
                                    + " s (--ready-timeout)");
                    break;
                }
                sleep(100);
            }
            if (failure == null) {
                readySeconds = (System.nanoTime() - t0) / 1e9;
                failure = load(job, p, port, results, dir);
            }
        } finally {
            end(p);
            current = null;
        }
        Path recording = null;
        if (job.recorded()) {
            try (Stream<Path> s = Files.list(dir)) {
                recording = s.filter(f -> f.getFileName().toString().endsWith(".jfr") && !ProfileFile.is(f))
                        .findFirst()
                        .orElse(null);
            }
            if (failure == null && recording == null) {
                failure = Failure.service("no recording was written (see " + dir.resolve(Failure.SERVICE_LOG) + ")");
            }
        }
        if (failure == null && results != null && !Files.isRegularFile(results)) {
            failure = Failure.client("the load client wrote no results (see " + dir.resolve(Failure.CLIENT_LOG) + ")");
        }
        return new Outcome(
                job,
                dir,
                recording,
                results,
                (System.nanoTime() - t0) / 1e9,
                readySeconds,
                failure == null ? null : failure.said(dir));
    }

    /** Why a JVM failed, and the log whose last line tells more (null: none, as when the study was stopped). */
    private record Failure(String why, String log) {
        static final String SERVICE_LOG = "output.log";
        static final String CLIENT_LOG = "load.log";
        static final Failure STOPPED = new Failure("stopped", null);

        static Failure service(String why) {
            return new Failure(why, SERVICE_LOG);
        }

        static Failure client(String why) {
            return new Failure(why, CLIENT_LOG);
        }

        /** The words an outcome keeps: why, and its log's last line. */
        String said(Path dir) throws IOException {
            return log == null ? why : why + ": " + lastLine(dir.resolve(log));
        }
    }

    /** Runs the load client against the service; null when it finished, else why not. */
    private Failure load(AppPlan.Job job, Process app, int port, Path results, Path dir) throws IOException {
        List<String> cmd = plan.loadCommand() != null
                ? AppPlan.filled(plan.loadCommand(), job.kind(), port)
                : client(job, app, port, results);
        String name = plan.loadCommand() != null ? "load command" : "load client";
        Process client;
        try {
            client = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve(Failure.CLIENT_LOG).toFile())
                    .start();
        } catch (IOException e) {
            return Failure.client(name + " did not start (" + e.getMessage() + ")");
        }
        try {
            long deadline = System.nanoTime()
                    + (long) ((loadSeconds + 60) * 1e9); // the longest load, and time to start and stop
            while (!client.waitFor(200, TimeUnit.MILLISECONDS)) {
                if (stopped) {
                    end(client);
                    return Failure.STOPPED;
                }
                if (!app.isAlive()) {
                    end(client);
                    return Failure.service("exited with " + app.exitValue() + " under load");
                }
                if (System.nanoTime() > deadline) {
                    break;
                }
            }
            if (client.isAlive()) {
                end(client);
                return Failure.client(name + " did not finish within " + Math.round(loadSeconds + 60) + " s");
            }
            return client.exitValue() == 0 ? null : Failure.client(name + " exited with " + client.exitValue());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end(client);
            return new Failure("interrupted", null);
        }
    }

    /**
     * The load client's command line (the study's, {@code loadClient}) for this job, its URLs and where its results go.
     */
    private List<String> client(AppPlan.Job job, Process app, int port, Path results) {
        List<String> cmd = new ArrayList<>(loadClient);
        cmd.addAll(List.of(
                "--threads",
                job.kind(),
                "--app-pid",
                Long.toString(app.pid()),
                "--results",
                results.toString(),
                "--port",
                Integer.toString(port)));
        urls.forEach(u -> {
            cmd.add("--url");
            cmd.add(fill(u, port));
        });
        return cmd;
    }

    List<String> command(AppPlan.Job job, Path dir, int port) {
        List<String> cmd = new ArrayList<>(AppPlan.filled(plan.command(), job.kind(), port));
        if (cmd.get(0).equals("java")) {
            cmd.set(0, java.toString());
            if (job.recorded()) {
                cmd.add(1, agentArg(job, dir));
            }
        }
        return cmd;
    }

    private String agentArg(AppPlan.Job job, Path dir) {
        // startup=before-main: the recording holds the service's start too (its pins at class loading), so nothing is
        // said missing
        List<String> opts = new ArrayList<>(List.of(
                AgentOptions.OUT.is(dir.toString()),
                AgentOptions.LABEL.is(job.label()),
                AgentOptions.THREADS.is(job.kind()),
                AgentOptions.STARTUP.is("before-main"),
                AgentOptions.FLAME.is("off"),
                AgentOptions.TRACE_PINNED.is("off")));
        if (plan.work() != null) {
            opts.add(AgentOptions.WORK.is(plan.work()));
        }
        if (plan.agentOptions() != null) {
            opts.add(plan.agentOptions()); // the user's, checked when the study was asked for
        }
        opts.add(AgentOptions.PROFILE.is("off"));
        return "-javaagent:" + agent + "=" + AgentOptions.line(opts.toArray(String[]::new));
    }

    private static String fill(String url, int port) {
        return url.replace("{port}", Integer.toString(port));
    }

    /**
     * SIGTERM to the process and its children, then SIGKILL after 20 s: the agent's recording is written at the first.
     */
    private static void end(Process p) {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    /** Removes a job's directory left by an earlier study or attempt: its files would be taken for this run's. */
    static void clear(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String lastLine(Path log) {
        try {
            return Files.readAllLines(log).stream()
                    .filter(l ->
                            !l.isBlank() && !l.startsWith("WARNING:") && !l.startsWith("Picked up JAVA_TOOL_OPTIONS"))
                    .reduce((a, b) -> b)
                    .orElse("no output");
        } catch (IOException e) {
            return "no output";
        }
    }
}
