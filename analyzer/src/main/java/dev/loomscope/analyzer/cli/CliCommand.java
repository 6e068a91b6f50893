package dev.loomscope.analyzer.cli;

import dev.loomscope.options.Durations;
import dev.loomscope.options.UsageException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Spec;

/**
 * A command of the CLI: its model, which picocli gives it, and the streams it writes to (picocli's, which the tests and
 * the MCP server replace with their own).
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
     * {@code option}'s duration, at least {@code least}; else a usage error that names the option and what it takes.
     */
    static Duration duration(String option, String value, Duration least) {
        if (!Durations.valid(value)) {
            throw new UsageException(option + " " + value + ": not a duration (e.g. 500ms, 2s, 1m)");
        }
        Duration d = Durations.parse(value);
        if (d.compareTo(least) < 0) {
            throw new UsageException(option + " " + value + ": must be at least " + least.toMillis() + " ms");
        }
        return d;
    }

    /**
     * A page's directory as {@code option} named it, refused before any work when it cannot be one: an existing file,
     * or a name ending in .html (the page is {@code DIR/index.html} beside files it links to, so {@code -o r.html}
     * would make a directory of that name).
     */
    static Path pageDirectory(String option, Path dir) {
        Path abs = dir.toAbsolutePath();
        if (Files.exists(abs) && !Files.isDirectory(abs)) {
            throw new UsageException(option + " " + dir + ": a file; give a directory, where index.html is written");
        }
        String name = abs.getFileName() == null ? "" : abs.getFileName().toString();
        if (!Files.exists(abs) && name.toLowerCase(Locale.ROOT).endsWith(".html")) {
            throw new UsageException(option + " " + dir + ": names a directory, where index.html is written beside"
                    + " what it links to; give one without .html (" + option + " "
                    + dir.toString().substring(0, dir.toString().length() - 5) + ")");
        }
        return abs;
    }
}
