package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** A command that reduces its recordings and shows one view of them as tables. */
abstract class ViewCommand implements Callable<Integer> {
    @Mixin
    InputArgs in;

    @Mixin
    OutputOptions out;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    abstract List<Table> view(List<RecordingFacts> facts);

    /** The reduced recordings this view needs (all of the JDK parser's by default). */
    List<RecordingFacts> read() {
        return in.facts();
    }

    @Override
    public Integer call() {
        out.emit(view(read()), spec.commandLine().getOut());
        return Errors.OK;
    }
}
