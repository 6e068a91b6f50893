package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.PinningReducer;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.views.PinningView;
import dev.loomscope.options.Durations;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code loomscope pinning}: pinned virtual threads by frame, reason and carrier; a CI gate. */
@Command(name = "pinning", mixinStandardHelpOptions = true)
public final class PinningCommand extends ViewCommand {
    @Option(names = "--stack-depth", paramLabel = "N", defaultValue = "10", description = "frames of each top stack (default: ${DEFAULT-VALUE})")
    int stackDepth;

    @Option(names = "--fail-on-pinning", paramLabel = "DURATION", arity = "0..1", fallbackValue = "0",
            description = "exit 1 when a pin at or above DURATION (e.g. 20ms; any pin when omitted) is found")
    String failOn;

    @Override
    int stackDepth() {
        return stackDepth;
    }

    @Override
    public Integer call() {
        if (stackDepth < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--stack-depth must be at least 1");
        }
        Duration threshold = null;
        if (failOn != null) {
            if (!Durations.valid(failOn)) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "--fail-on-pinning " + failOn + ": not a duration (e.g. 20ms, 1s)");
            }
            threshold = Durations.parse(failOn);
        }
        List<RecordingFacts> facts = in.facts();
        out.emit(tables(facts), spec.commandLine().getOut());
        if (threshold != null) {
            PinningReducer p = PinningView.merged(facts);
            double limitMs = threshold.toNanos() / 1e6;
            long over = java.util.Arrays.stream(p.all().toArray()).filter(ms -> ms >= limitMs).count();
            if (over > 0) {
                spec.commandLine().getErr().println("loomscope pinning: " + over + " pin" + (over == 1 ? "" : "s") + " at or above "
                        + failOn + " (--fail-on-pinning)");
                return Errors.CHECK_FAILED;
            }
        }
        return Errors.OK;
    }
}
