package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.compare.Grouping;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.report.HtmlReport;
import dev.loomscope.analyzer.study.LoadWindows;
import dev.loomscope.analyzer.threads.ThreadsView;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loomscope report}: the self-contained HTML report of a comparison. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Writes a self-contained HTML report of a comparison (DIR/index.html, offline).",
            "Verdicts, per metric a boxplot and a regression scatter with the statistics, pinning, GC, heap and",
            "context switches, flame graphs per group with the differential graph, and the JSON thread dumps beside"
                    + " the",
            "recordings (the agent's *.threads.json, attach's threads-*.json) as 'loomscope threads' reads them."
        })
public final class ReportCommand extends CliCommand {
    @Mixin
    InputArgs in;

    @Mixin
    CompareCommand.CompareOptions compare;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "DIR",
            defaultValue = "loomscope-report",
            description = "directory of the report (default: ${DEFAULT-VALUE})")
    Path output;

    @picocli.CommandLine.Mixin
    DebugOption debug;

    @Override
    public Integer call() {
        compare.check();
        Path dir = pageDirectory("-o", output);
        // one pass per file: figures and flame graphs; a service's recordings of study --app over the load client's
        // windows beside them
        List<RecordingFacts> facts = LoadWindows.joined(in.facts(true));
        List<Grouping.Stratum> strata = compare.strata(facts);
        List<HtmlReport.Part> parts = strata.stream()
                .map(s -> new HtmlReport.Part(s.name(), s.groups(), compare.run(s, strata.size() > 1)))
                .toList();
        List<Path> dumps = ThreadsView.beside(in.inputs.stream().map(Path::of).toList());
        Path index = HtmlReport.write(dir, parts, HtmlReport.Extras.NONE.withThreadDumps(dumps));
        stdout().println(index);
        return Errors.OK;
    }
}
