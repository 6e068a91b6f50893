package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.Grouping;
import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.compare.TidyExport;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Format;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.report.Forest;
import dev.loomscope.analyzer.study.LoadWindows;
import dev.loomscope.options.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loomscope compare}: platform vs virtual (or any groups), metric by metric. */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = {
            "Compares platform and virtual threads (or any groups) metric by metric, with verdicts.",
            "Groups come from what the recordings store (--by threadKind, label or jvm), or --group NAME=GLOB. Per"
                    + " metric: boxplot and regression statistics per group, and each group against the baseline (ratio"
                    + " of medians with a bootstrap CI, Mann-Whitney U, Cliff's delta) as a verdict line. --format svg"
                    + " (or -o FILE.svg) draws the verdicts as one forest plot, the report's first chart."
        })
public final class CompareCommand extends CliCommand {
    @Mixin
    InputArgs in;

    @Mixin
    OutputOptions out;

    @Mixin
    CompareOptions compare;

    /** The options compare and report share. */
    public static final class CompareOptions {
        @Option(
                names = "--group",
                paramLabel = "NAME=GLOB",
                description = "an explicit group (repeatable), instead of --by")
        List<String> groups = new ArrayList<>();

        @Option(
                names = "--by",
                paramLabel = "KEY",
                split = ",",
                description =
                        "group by what each recording stores: threadKind (else its label), label, jvm, workload, or"
                                + " several joined with ',' (default: workload,threadKind where the recordings name"
                                + " workloads, each workload compared apart; else threadKind)")
        List<Grouping.By> by = new ArrayList<>();

        @Option(
                names = "--metric",
                paramLabel = "NAME",
                split = ",",
                description = "metrics to compare (default: all the inputs support)")
        List<String> metrics = new ArrayList<>();

        /** The metrics --metric names, parsed by {@link #check} (none: all the inputs support). */
        private List<Metric> chosen = List.of();

        @Option(
                names = "--baseline",
                paramLabel = "GROUP",
                description = "the group the others are compared with (default: platform, else the first)")
        String baseline;

        @Option(
                names = "--x",
                paramLabel = "X",
                defaultValue = "run",
                description = "regress on: run (run index) or units (units of work)")
        String x;

        @Mixin
        VerdictOptions verdict;

        @Option(
                names = "--export",
                paramLabel = "DIR",
                description = "write the tidy data and statistics as CSV into DIR")
        Path export;

        /** The options that cannot go together or take no such value: said before any recording is read. */
        void check() {
            if (!groups.isEmpty() && !by.isEmpty()) {
                throw new UsageException("--group and --by "
                        + String.join(",", by.stream().map(Enum::name).toList())
                        + ": give one of them (--group names the groups itself)");
            }
            if (!x.equals("run") && !x.equals("units")) {
                throw new UsageException("--x " + x + ": use run or units");
            }
            chosen = Metric.parse(metrics);
        }

        /**
         * The comparisons to make: by the {@code --group} rules, else by {@code --by} (each workload apart by default).
         */
        List<Grouping.Stratum> strata(List<RecordingFacts> facts) {
            return Grouping.strata(facts, groups, by);
        }

        /** One comparison's results; with several, each exports into a directory of its own under --export. */
        List<MetricResult> run(Grouping.Stratum s, boolean several) {
            List<MetricResult> results =
                    Comparer.compare(s.groups(), chosen, baseline, x.equals("units"), verdict.rule());
            if (export != null) {
                TidyExport.write(
                        several && s.name() != null
                                ? export.resolve(s.name().replaceAll("[^A-Za-z0-9._-]+", "_"))
                                : export,
                        s.groups(),
                        results);
            }
            return results;
        }
    }

    @Override
    public Integer call() {
        compare.check();
        // a service's recordings of study --app: over the load client's windows beside them, a URL and rate at a time
        List<RecordingFacts> facts = LoadWindows.joined(in.facts());
        List<Grouping.Stratum> strata = compare.strata(facts);
        List<List<MetricResult>> results =
                strata.stream().map(s -> compare.run(s, strata.size() > 1)).toList();
        if (out.svg()) {
            // the forest plot of the verdicts, as the report's first chart
            out.write(
                    Forest.standalone(Forest.of(
                            strata.stream().map(Grouping.Stratum::name).toList(), results)),
                    stdout());
            return Errors.OK;
        }
        List<Table> tables = new ArrayList<>();
        for (int i = 0; i < strata.size(); i++) {
            String name = strata.get(i).name();
            List<MetricResult> r = results.get(i);
            List<Table> part = new ArrayList<>(
                    List.of(CompareView.verdictTable(r, strata.get(i).groups()), CompareView.boxplots(r)));
            if (out.format != Format.TEXT) {
                part.add(CompareView.regressions(r));
                part.add(CompareView.comparisons(r));
                part.add(CompareView.spreads(r));
            }
            // each workload's own, its name before its verdicts as the study prints them
            part.forEach(t -> tables.add(
                    name == null ? t : t.prefixed(name + ": ", t.name().equals("verdicts"))));
        }
        ViewCommand.withReaderWarnings(tables, facts);
        out.emit(tables, stdout());
        return Errors.OK;
    }
}
