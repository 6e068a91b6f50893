package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.views.SummaryView;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code loomscope summary}. */
@Command(name = "summary", mixinStandardHelpOptions = true,
        description = "Span, JVM and GC, label and thread kind, event counts, and the key figures of each recording.")
public final class SummaryCommand extends ViewCommand {
    @Override
    List<RecordingFacts> read() {
        return in.facts();
    }

    @Override
    List<Table> view(List<RecordingFacts> facts) {
        return SummaryView.of(facts);
    }
}
