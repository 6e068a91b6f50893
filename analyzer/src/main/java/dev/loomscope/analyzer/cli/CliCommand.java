package dev.loomscope.analyzer.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Spec;

/**
 * A command of the CLI: its model, which picocli gives it, and the streams it writes to (picocli's,
 * which the tests and the MCP server replace with their own).
 */
abstract class CliCommand implements Callable<Integer> {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    PrintWriter stdout() {
        return spec.commandLine().getOut();
    }

    PrintWriter stderr() {
        return spec.commandLine().getErr();
    }
}
