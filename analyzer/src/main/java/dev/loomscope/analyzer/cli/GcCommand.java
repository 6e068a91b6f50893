package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.views.GcView;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code loomscope gc}. */
@Command(name = "gc", mixinStandardHelpOptions = true, description = "Garbage collection pauses per collector and cause: count, p50, p90, p99, max, total and the share of time in pauses.")
public final class GcCommand extends ViewCommand {
    @Override
    List<Table> view(List<RecordingFacts> facts) {
        return GcView.of(facts);
    }
}
