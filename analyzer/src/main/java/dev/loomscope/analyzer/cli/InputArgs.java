package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.fleet.FleetImport;
import dev.loomscope.analyzer.fleet.ParquetTables;
import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.FactsCache;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.Compressed;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Parameters;

/** The recordings a command reads: files, globs, directories, JFR repositories. */
public final class InputArgs {
    @Parameters(
            arity = "1..*",
            paramLabel = "RECORDING",
            description =
                    "a .jfr file, a glob (runs/*.jfr), a directory of recordings, a JFR repository directory, or an"
                            + " export's directory (compare, report)")
    List<String> inputs;

    @picocli.CommandLine.Option(
            names = "--max-expansion",
            paramLabel = "N",
            defaultValue = "50",
            description =
                    "a compressed recording may expand to at most N times its size (default: ${DEFAULT-VALUE}); more is"
                            + " refused as a compression bomb")
    void maxExpansion(int n) {
        if (n < 1) {
            throw new UsageException("--max-expansion " + n + ": must be 1 or more");
        }
        Compressed.maxExpansion(n);
    }

    @picocli.CommandLine.Option(
            names = "--no-cache",
            description = "read each recording again even when the cache holds what a pass over it learned (summary,"
                    + " pinning, gc, heap, ctxsw, advise and compare keep it for a recording of 32 MB or more and"
                    + " answer the next question from it; LOOMSCOPE_CACHE=off turns the cache off)")
    boolean noCache;

    public List<RecordingSource> sources() {
        return Inputs.resolve(inputs);
    }

    /** Reads and reduces every input, files in parallel; an export's directory is read from its tables. */
    public List<RecordingFacts> facts() {
        return facts(false);
    }

    /**
     * As {@link #facts()}, with each recording's CPU samples for a report's flame graphs aggregated in the same pass
     * when {@code flames}.
     */
    public List<RecordingFacts> facts(boolean flames) {
        Map<Boolean, List<String>> isExport =
                inputs.stream().collect(Collectors.partitioningBy(i -> ParquetTables.isExport(Path.of(i))));
        List<RecordingFacts> out = new ArrayList<>();
        if (!isExport.get(false).isEmpty()) {
            List<RecordingSource> sources = Inputs.resolve(isExport.get(false));
            out.addAll(flames ? Analysis.withFlames(sources) : Analysis.of(sources, FactsCache.forUser(noCache)));
        }
        isExport.get(true).forEach(i -> out.addAll(FleetImport.read(Path.of(i), flames)));
        return out;
    }
}
