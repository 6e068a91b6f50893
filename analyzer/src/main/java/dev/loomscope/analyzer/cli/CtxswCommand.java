package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.views.ContextSwitchView;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code loomscope ctxsw}. */
@Command(name = "ctxsw", mixinStandardHelpOptions = true, description = "Process context switches (loomscope agent) beside machine-wide ones (jdk.ThreadContextSwitchRate), per second and over time.")
public final class CtxswCommand extends ViewCommand {
    @Override
    List<Table> view(List<RecordingFacts> facts) {
        return ContextSwitchView.of(facts);
    }
}
