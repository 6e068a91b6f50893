package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.reduce.ReductionFailedException;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.Nearest;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.InertText;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/** Turns failures into one line on stderr and an exit code; the trace only with --debug. */
public final class Errors {
    public static final int OK = 0;
    public static final int CHECK_FAILED = 1;
    public static final int USAGE = 2;
    public static final int INTERNAL = 3;

    private Errors() {}

    static String commandName(CommandLine cmd) {
        return cmd.getCommandSpec().qualifiedName();
    }

    static boolean debug(CommandLine cmd) {
        for (CommandLine c = cmd; c != null; c = c.getParent()) {
            var opt = c.getCommandSpec().findOption("--debug");
            if (opt != null && Boolean.TRUE.equals(opt.getValue())) {
                return true;
            }
        }
        return false;
    }

    /**
     * What the user gave, echoed in an error, made inert: no control character reaches the terminal, and the error
     * stays one line.
     */
    private static String printable(String message) {
        return InertText.line(message == null ? "" : message);
    }

    /** Uncaught exceptions from a command: user errors are one line, bugs say so. */
    static final class ExecutionHandler implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parsed) {
            PrintWriter err = cmd.getErr();
            if (debug(cmd)) {
                ex.printStackTrace(err);
            }
            if (ex instanceof UsageException usage) { // an option: the help says what it takes
                err.println(commandName(cmd) + ": " + printable(usage.getMessage()) + " (see '" + commandName(cmd)
                        + " --help')");
                return USAGE;
            }
            if (ex instanceof BadDataException bad) { // a file: the message names it and what to do
                err.println(commandName(cmd) + ": " + printable(bad.getMessage()));
                return USAGE;
            }
            return internal(err, commandName(cmd), ex, debug(cmd));
        }
    }

    /** A bug of loomscope's: one line that says so, exit 3. */
    static int internal(PrintWriter err, String command, Throwable t, boolean debug) {
        String what;
        if (t instanceof ReductionFailedException r) {
            what = r.getMessage(); // "internal error in <reducer> on FILE: ..."
        } else if (t instanceof OutOfMemoryError) {
            err.println(command + ": out of memory in a " + Runtime.getRuntime().maxMemory() / (1 << 20)
                    + " MB heap (give the analyzer more, e.g. LOOMSCOPE_JAVA_OPTS=-Xmx4g)");
            return INTERNAL;
        } else {
            what = "internal error: "
                    + (t.getMessage() == null
                            ? t.getClass().getName()
                            : t.getClass().getSimpleName() + ": " + t.getMessage());
        }
        err.println(command + ": " + printable(what.replace('\n', ' ')) + " (please report"
                + (debug ? ")" : "; --debug shows the trace)"));
        return INTERNAL;
    }

    /** Bad options or parameters: one line plus a pointer to --help. */
    static final class ParameterHandler implements IParameterExceptionHandler {
        @Override
        public int handleParseException(ParameterException ex, String[] args) {
            CommandLine cmd = ex.getCommandLine();
            PrintWriter err = cmd.getErr();
            // a typo: the nearest names picocli knows, on the same line
            String suggestion = ex instanceof picocli.CommandLine.UnmatchedArgumentException u
                    ? Nearest.phrase(u.getSuggestions())
                    : "";
            err.println(commandName(cmd) + ": " + printable(ex.getMessage()) + suggestion + " (see '" + commandName(cmd)
                    + " --help')");
            return USAGE;
        }
    }
}
