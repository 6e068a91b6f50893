package dev.loomscope.analyzer.cli;

import dev.loomscope.load.HistogramLog;
import dev.loomscope.load.LoadRun;
import dev.loomscope.load.LoadSpec;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loomscope load}: the open-loop HTTP load client, on its own (study --app runs it in a process of its own). */
@Command(
        name = "load",
        mixinStandardHelpOptions = true,
        description = {
            "Requests URLs at a constant rate, whatever the server does (open loop, as wrk2), and measures what a"
                    + " client sees: every request offered is answered, an error, or late (due, not yet answered) at"
                    + " each window's end.",
            "Each request's latency counts from when it was due, so a server that stalls shows in the latency of the"
                    + " requests behind it (coordinated omission corrected); errors and timeouts are counted;"
                    + " HdrHistogram keeps the latencies. Each URL and rate in turn: warm-up windows of a second until"
                    + " throughput and median latency are steady, then the measured windows.",
            "--results FILE.csv writes a row per window (warm-ups marked) in the columns of a workload's results file,"
                    + " which study judges."
        })
public final class LoadCommand extends CliCommand {
    @picocli.CommandLine.Mixin
    LoadOptions load;

    @Parameters(
            paramLabel = "URL",
            arity = "0..*",
            description = "URLs to request, after any --url, as if each were given by --url (where wrk and ab take"
                    + " theirs)")
    List<String> urls = List.of();

    @Option(names = "--results", paramLabel = "FILE", description = "write a row per window to FILE (CSV)")
    Path results;

    @Option(
            names = "--histogram-log",
            paramLabel = "FILE",
            description = "write each window's latency histogram to FILE as an HdrHistogram interval log (tagged"
                    + " measured: or warm-up: with the URL and rate), for HistogramLogProcessor and other HdrHistogram"
                    + " tools")
    Path histogramLog;

    @Option(
            names = "--threads",
            paramLabel = "KIND",
            defaultValue = "unlabelled",
            description = "the thread kind the runs are labelled with (platform or virtual; default: ${DEFAULT-VALUE})")
    String threadKind;

    @Option(
            names = "--app-pid",
            paramLabel = "PID",
            defaultValue = "0",
            description = "the service's process on this machine: each window counts its CPU and context switches, and"
                    + " other processes' CPU (this client's apart)")
    long appPid;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            description = "what {port} stands for in the URLs (study --app gives the service's)")
    Integer port;

    @picocli.CommandLine.Mixin
    DebugOption debug;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = stdout();
        load.urls.addAll(urls);
        if (load.urls.isEmpty() && load.requestFiles.isEmpty()) {
            throw new UsageException("give at least one URL to load (e.g. loomscope load http://localhost:8080/), or"
                    + " --request-file FILE");
        }
        LoadSpec s = load.spec(u -> port == null ? u : u.replace("{port}", Integer.toString(port)), threadKind, appPid);
        Writer rows = null;
        if (results != null) {
            try {
                rows = Files.newBufferedWriter(results, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new BadDataException(
                        results.toAbsolutePath() + ": cannot write the results (" + e.getMessage() + ")", e);
            }
        }
        HistogramLog histograms = histogramLog == null ? null : HistogramLog.to(histogramLog);
        try {
            LoadRun run = new LoadRun(s, out, rows, histograms);
            // a signal stops the load and waits for the measured windows' summary (the requests on the way get their
            // timeout)
            Thread onStop = new Thread(
                    () -> {
                        run.stop();
                        run.awaitEnd(s.timeout().toMillis() + 3_000);
                    },
                    "loomscope-load-stop");
            Runtime.getRuntime().addShutdownHook(onStop);
            List<LoadRun.Summary> summaries = run.run();
            try {
                Runtime.getRuntime().removeShutdownHook(onStop);
            } catch (IllegalStateException exiting) {
                // already stopping
            }
            if (!summaries.isEmpty()
                    && summaries.stream().allMatch(x -> x.client().answered() == 0)) {
                stderr().println("loomscope load: no request was answered with 2xx or 3xx ("
                        + summaries.get(0).causes() + "; see the windows above)");
                return Errors.CHECK_FAILED;
            }
            return summaries.isEmpty() ? Errors.CHECK_FAILED : Errors.OK;
        } catch (IOException e) { // the results file is the one thing the run writes through a Writer
            if (results == null) {
                throw e;
            }
            throw new BadDataException(
                    results.toAbsolutePath() + ": cannot write the results (" + e.getMessage() + ")", e);
        } finally {
            if (rows != null) {
                rows.close();
            }
            if (histograms != null) {
                histograms.close();
            }
        }
    }
}
