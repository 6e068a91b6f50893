package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.views.HeapView;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code loomscope heap}. */
@Command(name = "heap", mixinStandardHelpOptions = true, description = "Heap used before and after GC and committed, as p50/max and over time; allocation rate.")
public final class HeapCommand extends ViewCommand {
    @Override
    List<Table> view(List<RecordingFacts> facts) {
        return HeapView.of(facts);
    }
}
