package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.views.AdviseView;
import dev.loomscope.options.UsageException;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loomscope advise}: from a recording of platform threads, what virtual threads would do: where they would pin,
 * the carriers' ceiling.
 */
@Command(name = "advise", mixinStandardHelpOptions = true)
public final class AdviseCommand extends ViewCommand {
    @Option(
            names = "--rate",
            paramLabel = "N",
            description = "the requests a second the application served while recorded (default: those the agent"
                    + " counted, the servers' requests or its work= methods' calls; either way the looks are taken over"
                    + " the steady span of the requests counted, else over the whole recording)")
    double rate;

    @Option(
            names = "--carriers",
            paramLabel = "N",
            description = "the carriers virtual threads would have (default: the processors the recorded JVM saw, the"
                    + " scheduler's default parallelism)")
    int carriers;

    @Option(
            names = "--stack-depth",
            paramLabel = "N",
            defaultValue = "6",
            description = "frames of each site's stack (default: ${DEFAULT-VALUE})")
    int stackDepth;

    @Override
    int stackDepth() {
        return stackDepth;
    }

    @Override
    List<Table> view(List<RecordingFacts> facts) {
        if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) {
            throw new UsageException("--rate " + rate + ": give the requests a second the application served, above 0");
        }
        if (carriers < 0) {
            throw new UsageException(
                    "--carriers " + carriers + ": give the carriers virtual threads would have, 1 or more");
        }
        if (stackDepth < 1) {
            throw new UsageException("--stack-depth must be at least 1");
        }
        return AdviseView.of(facts, carriers, rate, stackDepth);
    }
}
