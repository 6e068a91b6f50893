package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.jmh.JmhReader;
import dev.loomscope.analyzer.jmh.JmhResult;
import dev.loomscope.analyzer.jmh.JmhView;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.report.JmhHtml;
import dev.loomscope.options.BadDataException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loomscope jmh}: the perfnorm context-switch report of JMH results. */
@Command(
        name = "jmh",
        mixinStandardHelpOptions = true,
        description = {
            "Reports JMH results (-rf json) with context switches per operation and virtual/platform ratios.",
            "Context switches come from -prof \"perfnorm:events=context-switches\" or -prof ctxsw; results that differ",
            "only by thread kind (a useVirtualThreads or threads parameter, or virtual/platform in the method name) are"
                    + " paired",
            "and compared fork by fork (each fork a JVM, JMH's pooled error beside), as is every result with --baseline"
                    + " OLD.json."
        })
public final class JmhCommand extends CliCommand {
    @Parameters(arity = "1..*", paramLabel = "RESULTS.json", description = "JMH result files written with -rf json")
    List<Path> files;

    @Mixin
    OutputOptions out;

    @Option(
            names = "--baseline",
            paramLabel = "OLD.json",
            description = "compare the results with this earlier JMH run, fork by fork")
    Path baseline;

    @Mixin
    VerdictOptions verdict;

    @Option(names = "--html", paramLabel = "DIR", description = "also write DIR/index.html with charts (offline)")
    Path html;

    @Override
    public Integer call() {
        Path dir = html == null ? null : pageDirectory("--html", html);
        List<JmhResult> results = new ArrayList<>();
        for (Path f : files) {
            results.addAll(JmhReader.read(f));
        }
        if (results.isEmpty()) {
            throw new BadDataException(files.get(0) + ": no benchmark results in the file (did the JMH run fail?)");
        }
        List<Table> tables = new ArrayList<>(JmhView.of(results, verdict.rule()));
        if (baseline != null) {
            tables.add(JmhView.versus(JmhReader.read(baseline), results, verdict.rule()));
        }
        out.emit(tables, stdout());
        if (dir != null) {
            stderr().println("loomscope jmh: wrote " + JmhHtml.write(dir, results));
        }
        return Errors.OK;
    }
}
