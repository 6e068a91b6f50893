package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.PinningReducer;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.views.PinningView;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.Durations;
import dev.loomscope.options.UsageException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code loomscope pinning}: pinned virtual threads by frame, reason and carrier; a CI gate. */
@Command(name = "pinning", mixinStandardHelpOptions = true)
public final class PinningCommand extends ViewCommand {
    @Option(
            names = "--stack-depth",
            paramLabel = "N",
            defaultValue = "10",
            description = "frames of each top stack (default: ${DEFAULT-VALUE})")
    int stackDepth;

    @Option(
            names = "--fail-on-pinning",
            paramLabel = "DURATION",
            arity = "0..1",
            fallbackValue = ANY,
            preprocessor = DurationOrNothing.class,
            description =
                    "exit 1 when a pin at or above DURATION (e.g. 20ms; any recorded pin when omitted) is found; exit 2"
                            + " when a recording cannot tell (no jdk.VirtualThreadPinned, or a threshold above"
                            + " DURATION)")
    String failOn;

    static final String ANY = "any";

    /**
     * {@code --fail-on-pinning} takes the argument after it only when it is a duration: {@code --fail-on-pinning
     * rec.jfr} gates any pin in rec.jfr, as {@code --fail-on-pinning=20ms rec.jfr} gates pins of 20 ms, and
     * {@code --fail-on-pinning=20q} is refused.
     */
    static final class DurationOrNothing implements picocli.CommandLine.IParameterPreprocessor {
        @Override
        public boolean preprocess(
                Stack<String> args,
                picocli.CommandLine.Model.CommandSpec spec,
                picocli.CommandLine.Model.ArgSpec argSpec,
                Map<String, Object> info) {
            // a value given with = is the option's whatever it is, so that a mistyped one is said, not read as a
            // recording
            boolean attached = !" ".equals(info.get("separator")); // picocli says " " for a value apart
            argSpec.setValue(!args.isEmpty() && (attached || Durations.valid(args.peek())) ? args.pop() : ANY);
            return true;
        }
    }

    @Override
    int stackDepth() {
        return stackDepth;
    }

    @Override
    public Integer call() {
        if (stackDepth < 1) {
            throw new UsageException("--stack-depth must be at least 1");
        }
        Duration threshold = null;
        if (failOn != null && !failOn.equals(ANY)) {
            threshold = duration("--fail-on-pinning", failOn, Duration.ZERO);
        }
        List<RecordingFacts> facts = in.facts();
        out.emit(tables(facts), stdout());
        if (failOn != null) {
            // a gate that passes on a recording that could not hold the pins it gates would be a lie
            for (PinningView.Coverage c : PinningView.coverage(facts)) {
                String where = c.recording().source.name().toString();
                if (!c.recorded()) {
                    throw new BadDataException(
                            where + ": records no jdk.VirtualThreadPinned events, so it cannot show pins and"
                                    + " --fail-on-pinning has nothing to check (record with the loomscope agent, or"
                                    + " enable jdk.VirtualThreadPinned)");
                }
                if (threshold != null && c.threshold() != null && c.threshold().compareTo(threshold) > 0) {
                    throw new BadDataException(where + ": records pins of " + PinningView.duration(c.threshold())
                            + " or more only, so --fail-on-pinning " + failOn
                            + " cannot be checked (record with pinned-threshold=" + failOn + " or lower)");
                }
            }
            threshold = threshold == null ? Duration.ZERO : threshold;
            PinningReducer p = PinningView.merged(facts);
            double limitMs = threshold.toNanos() / 1e6;
            long over =
                    Arrays.stream(p.all().toArray()).filter(ms -> ms >= limitMs).count();
            if (over > 0) {
                stderr().println("loomscope pinning: " + over + " pin" + (over == 1 ? "" : "s")
                        + (failOn.equals(ANY) ? "" : " at or above " + failOn) + " (--fail-on-pinning)");
                return Errors.CHECK_FAILED;
            }
        }
        return Errors.OK;
    }
}
