package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.views.Views;
import dev.loomscope.recording.Said;
import java.util.List;
import picocli.CommandLine.Mixin;

/** A command that reduces its recordings and shows one view of them ({@link Views}) as tables. */
abstract class ViewCommand extends CliCommand {
    @Mixin
    InputArgs in;

    @Mixin
    OutputOptions out;

    /** This command's view, by its name. */
    List<Table> view(List<RecordingFacts> facts) {
        return Views.named(spec.name()).of(facts, stackDepth());
    }

    /** How many frames of a stack the view shows. */
    int stackDepth() {
        return Views.REPORT_STACK_DEPTH;
    }

    /** The reduced recordings this view needs (all of the JDK parser's by default). */
    List<RecordingFacts> read() {
        return in.facts();
    }

    @Override
    public Integer call() {
        out.emit(tables(read()), stdout());
        return Errors.OK;
    }

    /** The view's tables, with what the reader said of the recordings. */
    List<Table> tables(List<RecordingFacts> facts) {
        List<Table> tables = view(facts);
        withReaderWarnings(tables, facts);
        return tables;
    }

    /**
     * What the reader said (a truncated last chunk read in part, another parser used) goes with the figures it
     * qualifies: a note on the first table (terminal, CSV, Markdown, JSON), unless a table already carries it.
     */
    static void withReaderWarnings(List<Table> tables, List<RecordingFacts> facts) {
        withWarnings(tables, RecordingFacts.warnings(facts));
    }

    /** Each warning a note on the first table, once. */
    static void withWarnings(List<Table> tables, List<String> warnings) {
        if (tables.isEmpty()) {
            return;
        }
        for (String w : warnings) {
            String note = "warning: " + Said.oneLine(w);
            if (tables.stream().noneMatch(t -> t.notes().contains(note))) {
                tables.get(0).note(note);
            }
        }
    }
}
