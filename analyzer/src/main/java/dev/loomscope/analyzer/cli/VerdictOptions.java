package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.options.UsageException;
import picocli.CommandLine.Option;

/** The verdict rule's thresholds, for every command that judges: compare, report, study. */
public final class VerdictOptions {
    @Option(
            names = "--equivalence",
            paramLabel = "PCT",
            defaultValue = "5",
            description =
                    "a difference whose 95%% interval lies within ±PCT%% of no change is 'no meaningful difference'"
                            + " (default: ${DEFAULT-VALUE})")
    double equivalence = 5;

    @Option(
            names = "--alpha",
            paramLabel = "P",
            defaultValue = "0.05",
            description =
                    "the JVM-level test's significance level: better or worse needs p < P, and too few JVMs is when no"
                            + " difference could reach it; the ratio's interval stays 95%% (default: ${DEFAULT-VALUE})")
    double alpha = 0.05;

    public Verdict.Rule rule() {
        if (!(equivalence >= 0 && equivalence < 100)) {
            throw new UsageException("--equivalence " + equivalence + ": must be a percentage from 0 to below 100");
        }
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new UsageException("--alpha " + alpha + ": must be above 0 and below 0.5 (0.05 is usual)");
        }
        return new Verdict.Rule(alpha, equivalence / 100);
    }
}
