package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Grouping;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.compare.TidyExport;
import dev.loomscope.analyzer.errors.UsageException;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Format;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.report.Forest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code loomscope compare}: platform vs virtual (or any groups), metric by metric. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares platform and virtual threads (or any groups) metric by metric, with verdicts.",
            "Groups come from what the recordings store (--by threadKind, label or jvm), or --group NAME=GLOB. Per metric: boxplot "
                    + "and regression statistics per group, and each group against the baseline (ratio of medians with a bootstrap CI, "
                    + "Mann-Whitney U, Cliff's delta) as a verdict line. --format svg (or -o FILE.svg) draws the verdicts as one forest plot, "
                    + "the report's first chart."})
public final class CompareCommand implements Callable<Integer> {
    @Mixin
    InputArgs in;

    @Mixin
    OutputOptions out;

    @Mixin
    CompareOptions compare;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** The options compare and report share. */
    public static final class CompareOptions {
        @Option(names = "--group", paramLabel = "NAME=GLOB", description = "an explicit group (repeatable), instead of --by")
        List<String> groups = new ArrayList<>();

        @Option(names = "--by", paramLabel = "KEY",
                description = "group by what each recording stores: threadKind (else its label; the default), label or jvm")
        Grouping.By by;

        @Option(names = "--metric", paramLabel = "NAME", split = ",", description = "metrics to compare (default: all the inputs support)")
        List<String> metrics = new ArrayList<>();

        @Option(names = "--baseline", paramLabel = "GROUP", description = "the group the others are compared with (default: platform, else the first)")
        String baseline;

        @Option(names = "--x", paramLabel = "X", defaultValue = "run", description = "regress on: run (run index) or units (units of work)")
        String x;

        @Mixin
        VerdictOptions verdict;

        @Option(names = "--export", paramLabel = "DIR", description = "write the tidy data and statistics as CSV into DIR")
        Path export;

        /** The options that cannot go together or take no such value: said before any recording is read. */
        void check() {
            if (!groups.isEmpty() && by != null) {
                throw new UsageException("--group and --by " + by + ": give one of them (--group names the groups itself)");
            }
            if (!x.equals("run") && !x.equals("units")) {
                throw new UsageException("--x " + x + ": use run or units");
            }
        }

        /** The recordings in their groups: by the {@code --group} rules, else by {@code --by}. */
        Map<String, List<RecordingFacts>> groups(List<RecordingFacts> facts) {
            return Grouping.of(facts, groups, by == null ? Grouping.By.threadKind : by);
        }

        List<MetricResult> run(Map<String, List<RecordingFacts>> grouped) {
            List<MetricResult> results = Comparer.compare(grouped, metrics, baseline, x.equals("units"), verdict.rule());
            if (export != null) {
                TidyExport.write(export, grouped, results);
            }
            return results;
        }
    }

    @Override
    public Integer call() {
        compare.check();
        List<RecordingFacts> facts = in.facts();
        Map<String, List<RecordingFacts>> grouped = compare.groups(facts);
        List<MetricResult> results = compare.run(grouped);
        if (out.svg()) {
            // the forest plot of the verdicts, as the report's first chart
            out.write(Forest.standalone(Forest.of(java.util.Collections.singletonList(null), List.of(results))), spec.commandLine().getOut());
            return Errors.OK;
        }
        List<Table> tables = new ArrayList<>();
        tables.add(CompareView.verdictTable(results, grouped));
        tables.add(CompareView.boxplots(results));
        if (out.format != Format.TEXT) {
            tables.add(CompareView.regressions(results));
            tables.add(CompareView.comparisons(results));
        }
        ViewCommand.withReaderWarnings(tables, facts);
        out.emit(tables, spec.commandLine().getOut());
        return Errors.OK;
    }
}
