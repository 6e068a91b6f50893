package dev.loomscope.analyzer.cli;

import dev.loomscope.load.LoadSpec;
import dev.loomscope.load.RequestFile;
import dev.loomscope.load.Requests;
import dev.loomscope.load.Slo;
import dev.loomscope.load.Target;
import dev.loomscope.options.Launch;
import dev.loomscope.options.UsageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/** The load client's options, the same for {@code loomscope load} and {@code loomscope study --app}. */
public final class LoadOptions {
    /** The content type curl gives a {@code -d} body when no header names one. */
    private static final String FORM = "application/x-www-form-urlencoded";

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "an http:// or https:// URL to request (repeatable: each in turn, a workload of its own);"
                    + " study --app: {port} becomes the service's port (default: http://localhost:{port}/)")
    List<String> urls = new ArrayList<>();

    @Option(
            names = "--request-file",
            paramLabel = "FILE",
            description = "a request file: several requests in a weighted mix, a workload of its own (repeatable; the"
                    + " .http form editors read: '### weight=3', then METHOD URL, headers, a blank line and the body;"
                    + " {port} in its URLs as in --url)")
    List<Path> requestFiles = new ArrayList<>();

    @Option(
            names = {"-X", "--method"},
            paramLabel = "METHOD",
            description = "the request's method, as curl's -X (default: GET; POST with --body, as curl)")
    String method;

    @Option(
            names = {"-H", "--header"},
            paramLabel = "'NAME: VALUE'",
            description = "a request header, as curl's -H (repeatable)")
    List<String> headers = new ArrayList<>();

    @Option(
            names = {"-d", "--body"},
            paramLabel = "TEXT|@FILE",
            description = "the request's body, as curl's -d: the text, or @FILE for a file's"
                    + " bytes; sent by POST unless -X says otherwise, as 'Content-Type: " + FORM
                    + "' unless -H names one")
    String body;

    @Option(
            names = {"-k", "--insecure"},
            description = "https://: accept a certificate that does not verify (a test service's self-signed one)")
    boolean insecure;

    @Option(
            names = "--rate",
            paramLabel = "N",
            split = ",",
            description = "requests a second at a constant arrival rate, open loop (several: each in turn, ascending;"
                    + " e.g. --rate 200,400,800 with --slo for the capacity; default 100)")
    List<Double> rates = new ArrayList<>();

    @Option(
            names = "--slo",
            paramLabel = "pNN=DURATION",
            description =
                    "a latency objective, e.g. p99=50ms (p50, p99 or p99.9): without --rate the capacity is searched,"
                            + " the rate doubled from 100/s until the objective is missed and then bisected until"
                            + " within 5%%; with several --rate values, the highest that kept it; kept means the"
                            + " percentile within the bound, under 1%% errors, no request left late")
    String slo;

    @Option(
            names = "--connections",
            paramLabel = "C",
            defaultValue = "100",
            description = "kept-alive connections; a due request waits for a free one, and that wait is in its latency"
                    + " (default: ${DEFAULT-VALUE})")
    int connections;

    @Option(
            names = "--request-timeout",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "a request unanswered this long is an error (default: ${DEFAULT-VALUE})")
    String timeout;

    @Option(
            names = "--min-warmup",
            paramLabel = "DURATION",
            defaultValue = "5s",
            description = "load before any window is measured; steadiness is judged on the last 5 s of it, so a warm-up"
                    + " takes 5 s at the least unless --max-warmup is shorter (default: ${DEFAULT-VALUE})")
    String warmupMin;

    @Option(
            names = "--max-warmup",
            paramLabel = "DURATION",
            defaultValue = "30s",
            description = "the longest warm-up: a service not steady by then is measured as it is, and that is said"
                    + " (default: ${DEFAULT-VALUE})")
    String warmupMax;

    @Option(
            names = "--windows",
            paramLabel = "N",
            defaultValue = "5",
            description = "measured windows per URL and rate, the runs the comparison judges (default:"
                    + " ${DEFAULT-VALUE})")
    int windows;

    @Option(
            names = "--window",
            paramLabel = "DURATION",
            defaultValue = "2s",
            description = "a measured window's length (default: ${DEFAULT-VALUE})")
    String window;

    @Option(
            names = "--ramp",
            paramLabel = "DURATION",
            description = "before a URL's first --rate, the load rises to it in three steps (a quarter, a half, three"
                    + " quarters of it), each a third of this long, so that a JVM compiles its code at a rate it keeps,"
                    + " not under a backlog its cold start built; before a capacity search, doubling from 100/s, a"
                    + " third of this each, until the service falls behind; a step not kept up ends the ramp (default:"
                    + " none for load, " + STUDY_RAMP + " for study --app, whose JVMs are always new; 0s: none)")
    String ramp;

    /** The ramp a study's JVMs get unless --ramp says otherwise: each is a new JVM, compiling as it is first loaded. */
    static final String STUDY_RAMP = "15s";

    /** A study's load: its ramp {@link #STUDY_RAMP} unless one was given. */
    LoadOptions forStudy() {
        ramp = ramp != null ? ramp : STUDY_RAMP;
        return this;
    }

    /**
     * The spec with each URL passed through {@code url} first (a study's {@code {port}}); usage errors name the option.
     */
    LoadSpec spec(UnaryOperator<String> url, String threadKind, long appPid) {
        List<String> given = urls.isEmpty() && requestFiles.isEmpty() ? List.of("http://localhost:{port}/") : urls;
        byte[] bytes = body();
        List<String> sent = new ArrayList<>(headers);
        if (body != null && headers.stream().noneMatch(h -> h.regionMatches(true, 0, "Content-Type:", 0, 13))) {
            sent.add("Content-Type: " + FORM);
        }
        List<Requests> targets = new ArrayList<>(given.stream()
                .map(u -> Requests.of(Target.of(url.apply(u), method(), sent, bytes, insecure)))
                .toList());
        for (Path f : requestFiles) {
            targets.add(RequestFile.read(f, url, insecure));
        }
        List<Double> r = rates.isEmpty()
                ? List.of(100.0)
                : rates.stream().sorted().distinct().toList();
        Slo objective = slo == null ? null : Slo.parse(slo);
        for (double v : r) {
            if (!(v > 0) || v > 1_000_000) {
                throw new UsageException(
                        "--rate " + LoadSpec.rate(v) + ": must be above 0 and at most 1,000,000 requests a second");
            }
        }
        if (connections < 1 || connections > 10_000) {
            throw new UsageException("--connections " + connections + ": must be 1 to 10,000");
        }
        if (windows < 1) {
            throw new UsageException("--windows " + windows + ": must be at least 1");
        }
        Duration min = CliCommand.duration("--min-warmup", warmupMin, Duration.ZERO);
        Duration max = CliCommand.duration("--max-warmup", warmupMax, Duration.ZERO);
        if (max.compareTo(min) < 0) {
            throw new UsageException("--max-warmup " + warmupMax + ": shorter than --min-warmup " + warmupMin);
        }
        return new LoadSpec(
                targets,
                r,
                connections,
                CliCommand.duration("--request-timeout", timeout, Duration.ofMillis(1)),
                min,
                max,
                windows,
                CliCommand.duration("--window", window, Duration.ofMillis(100)),
                ramp == null ? Duration.ZERO : CliCommand.duration("--ramp", ramp, Duration.ZERO),
                threadKind,
                appPid,
                objective,
                objective != null && rates.isEmpty());
    }

    /** {@code -X}'s method; else POST with a body and GET without, as curl chooses. */
    private String method() {
        return method != null ? method : body != null ? "POST" : "GET";
    }

    /** The body's bytes: {@code --body}'s text (UTF-8), or the file it names after {@code @}; none without it. */
    private byte[] body() {
        if (body == null) {
            return new byte[0];
        }
        if (!body.startsWith("@")) {
            return body.getBytes(StandardCharsets.UTF_8);
        }
        Path file = Path.of(body.substring(1)).toAbsolutePath();
        try {
            if (Files.size(file) > 64L * 1024 * 1024) {
                throw new UsageException(
                        "--body " + body + ": " + file + " is over 64 MiB, more than one request's body should be");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UsageException("--body " + body + ": cannot read " + file + " ("
                    + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()) + ")");
        }
    }

    /**
     * The load client's command line with these options: this CLI's JVM and class path running {@code load} (a study
     * starts it as a process of its own, so that its CPU is not the service's or the study's); the study adds the URLs,
     * the thread kind and where the results go.
     */
    List<String> clientCommand() {
        List<String> a = new ArrayList<>(
                List.of(Launch.thisJava(), "-cp", System.getProperty("java.class.path"), Main.class.getName(), "load"));
        a.addAll(List.of(
                "--connections",
                Integer.toString(connections),
                "--request-timeout",
                timeout,
                "--min-warmup",
                warmupMin,
                "--max-warmup",
                warmupMax,
                "--windows",
                Integer.toString(windows),
                "--window",
                window,
                "--method",
                method()));
        if (ramp != null) {
            a.addAll(List.of("--ramp", ramp));
        }
        headers.forEach(h -> a.addAll(List.of("--header", h)));
        requestFiles.forEach(
                f -> a.addAll(List.of("--request-file", f.toAbsolutePath().toString())));
        if (body != null) {
            a.addAll(List.of(
                    "--body",
                    body.startsWith("@") ? "@" + Path.of(body.substring(1)).toAbsolutePath() : body));
        }
        if (insecure) {
            a.add("--insecure");
        }
        if (slo != null) {
            a.addAll(List.of("--slo", slo));
        }
        if (!rates.isEmpty()) {
            a.add("--rate");
            a.add(String.join(",", rates.stream().map(d -> Double.toString(d)).toList()));
        }
        return a;
    }
}
