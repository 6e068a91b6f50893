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

    /**
     * A page's directory as {@code option} named it, refused before any work when it cannot be one:
     * an existing file, or a name ending in .html (the page is {@code DIR/index.html} beside files
     * it links to, so {@code -o r.html} would make a directory of that name).
     */
    static java.nio.file.Path pageDirectory(String option, java.nio.file.Path dir) {
        java.nio.file.Path abs = dir.toAbsolutePath();
        if (java.nio.file.Files.exists(abs) && !java.nio.file.Files.isDirectory(abs)) {
            throw new dev.loomscope.analyzer.errors.UsageException(option + " " + dir + ": a file; give a directory, where index.html is written");
        }
        String name = abs.getFileName() == null ? "" : abs.getFileName().toString();
        if (!java.nio.file.Files.exists(abs) && name.toLowerCase(java.util.Locale.ROOT).endsWith(".html")) {
            throw new dev.loomscope.analyzer.errors.UsageException(option + " " + dir + ": names a directory, where index.html is written beside"
                    + " what it links to; give one without .html (" + option + " " + dir.toString().substring(0, dir.toString().length() - 5) + ")");
        }
        return abs;
    }
}
