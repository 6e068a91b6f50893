package dev.loomscope.analyzer.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code loomscope} command: root of every subcommand. */
@Command(
        name = "loomscope",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "How does this Java program behave on platform threads versus virtual threads, and why?",
        subcommands = {
            SummaryCommand.class,
            PinningCommand.class,
            GcCommand.class,
            HeapCommand.class,
            CtxswCommand.class,
            FlameCommand.class,
            RulesCommand.class,
            CompareCommand.class,
            ReportCommand.class,
            JmhCommand.class,
            AttachCommand.class,
            StudyCommand.class,
            CommandLine.HelpCommand.class
        },
        footer = {"", "Exit codes: 0 ok, 1 a requested check failed, 2 usage or bad input, 3 an internal error (a bug: please report it)."})
public final class Main {

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the CLI with the given streams; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler(new Errors.ExecutionHandler());
        cli.setParameterExceptionHandler(new Errors.ParameterHandler());
        cli.setExitCodeExceptionMapper(t -> Errors.USAGE);
        try {
            return cli.execute(args);
        } catch (Error e) {
            // what picocli does not catch (an Error from a library, out of memory): still one line, exit 3
            boolean debug = java.util.Arrays.asList(args).contains("--debug");
            if (debug) {
                e.printStackTrace(err);
            }
            return Errors.internal(err, "loomscope", e, debug);
        }
    }
}
