package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.threads.ThreadAnalysis;
import dev.loomscope.analyzer.threads.ThreadsView;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code loomscope threads}: deadlocks and carrier starvation in the JDK's JSON thread dumps. */
@Command(
        name = "threads",
        mixinStandardHelpOptions = true,
        description = {
            "Finds what is stuck in JSON thread dumps: deadlocks, and carrier starvation among virtual threads.",
            "Reads the JDK's JSON thread dumps (jcmd PID Thread.dump_to_file -format=json FILE; JDK 21+, states and"
                    + " locks from 25): identical stacks grouped, the locks threads wait for and their holders,"
                    + " deadlocks (wait-for cycles over monitors, and over java.util.concurrent locks where the dump"
                    + " records owners), carrier starvation (every carrier held by a virtual thread that cannot go on"
                    + " while virtual threads wait to run) and, given two dumps of one process, what did not move"
                    + " between them. 'loomscope attach PID threads' takes the dumps for you."
        },
        footer = {
            "",
            "Exit codes: 0 no deadlock and no starvation, 1 a deadlock or carrier starvation found, 2 a file that is"
                    + " not a JSON thread dump."
        })
public final class ThreadsCommand extends CliCommand {
    @Parameters(
            arity = "1..*",
            paramLabel = "DUMP.json",
            description = "JSON thread dumps; two of one process are compared")
    List<Path> files;

    @Mixin
    OutputOptions out;

    @Override
    public Integer call() {
        return report(files, out, stdout());
    }

    /** Analyses the dumps, prints the tables; exit 1 when one is stuck. */
    static int report(List<Path> files, OutputOptions out, PrintWriter to) {
        List<ThreadAnalysis> analyses = ThreadsView.analyse(files);
        out.emit(ThreadsView.tables(analyses), to);
        return analyses.stream().anyMatch(ThreadAnalysis::stuck) ? Errors.CHECK_FAILED : Errors.OK;
    }
}
