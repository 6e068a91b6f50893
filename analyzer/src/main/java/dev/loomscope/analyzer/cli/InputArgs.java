package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.read.RecordingSource;
import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import java.util.List;
import picocli.CommandLine.Parameters;

/** The recordings a command reads: files, globs, directories, JFR repositories. */
public final class InputArgs {
    @Parameters(arity = "1..*", paramLabel = "RECORDING",
            description = "a .jfr file, a glob (runs/*.jfr), a directory of recordings, or a JFR repository directory")
    List<String> inputs;

    public List<RecordingSource> sources() {
        return Inputs.resolve(inputs);
    }

    /** Reads and reduces every input, files in parallel. */
    public List<RecordingFacts> facts() {
        return Analysis.of(sources());
    }
}
