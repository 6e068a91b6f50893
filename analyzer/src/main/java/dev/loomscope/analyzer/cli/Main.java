package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.views.Views;
import dev.loomscope.options.Launch;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code loomscope} command: root of every subcommand. */
@Command(
        name = Main.NAME,
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "How does this Java program behave on platform threads versus virtual threads, and why?",
        footer = {
            "",
            "Exit codes: 0 ok, 1 a requested check failed, 2 usage or bad input, 3 an internal error (a bug: please"
                    + " report it)."
        })
public final class Main {
    static final String NAME = "loomscope";

    static {
        // picocli's parser registers a converter for each java.sql and java.time type, each found by Class.forName and
        // a
        // reflective method lookup, a thirtieth of a short command's main thread; no option here takes one of those
        // types
        System.setProperty("picocli.converters.excludes", "java\\.sql\\..*,java\\.time\\..*");
    }

    /** The subcommands, in help order. */
    static final List<Class<?>> COMMANDS = List.of(
            SummaryCommand.class,
            PinningCommand.class,
            AdviseCommand.class,
            GcCommand.class,
            HeapCommand.class,
            CtxswCommand.class,
            ThreadsCommand.class,
            FlameCommand.class,
            RulesCommand.class,
            CompareCommand.class,
            ReportCommand.class,
            ExportCommand.class,
            JmhCommand.class,
            AttachCommand.class,
            WatchCommand.class,
            StudyCommand.class,
            LoadCommand.class,
            McpCommand.class,
            CompletionCommand.class,
            CommandLine.HelpCommand.class);

    /**
     * What {@code command} shows, in a paragraph: a view's description in the registry, else the first paragraph of the
     * command's own description (its {@code --help}).
     */
    static String whatItShows(Class<?> command) {
        return description(command)[0];
    }

    /**
     * {@code command}'s description in its {@code --help}: a view's command says what the registry says it shows, the
     * others their own.
     */
    private static String[] description(Class<?> command) {
        Command a = command.getAnnotation(Command.class);
        return Views.ALL.stream()
                .filter(v -> v.name().equals(a.name()))
                .map(v -> new String[] {v.description()})
                .findFirst()
                .orElse(a.description());
    }

    /** The command line with every subcommand's model built (for help and completion). */
    static CommandLine full() {
        return withCommands(new CommandLine(new Main()), COMMANDS);
    }

    /**
     * The command line of one command named first: below a root that is its name and version only. The root's model
     * from this class's annotations (picocli looks for commands among its methods and builds the standard help options
     * from a mixin, all by reflection) is built for options that never parse once a command is named.
     */
    private static CommandLine forCommand(Class<?> command) {
        return withCommands(
                new CommandLine(
                        CommandLine.Model.CommandSpec.create().name(NAME).versionProvider(new VersionProvider())),
                List.of(command));
    }

    private static CommandLine withCommands(CommandLine cli, List<Class<?>> commands) {
        for (Class<?> c : commands) {
            String name = c.getAnnotation(Command.class).name();
            cli.addSubcommand(name, c);
            cli.getSubcommands().get(name).getCommandSpec().usageMessage().description(description(c));
        }
        // loomscope study -V, load --version: each command's version is loomscope's
        cli.getSubcommands()
                .values()
                .forEach(sub -> sub.getCommandSpec()
                        .versionProvider(cli.getCommandSpec().versionProvider()));
        cli.setCaseInsensitiveEnumValuesAllowed(true); // --by threadkind as --by threadKind
        return cli;
    }

    /**
     * The command line {@code args} need. picocli builds a model by reflection over a command's options, a third of a
     * second for all of them: only the command that runs is built; the root's help, a typo or no command needs only
     * each command's name and what it shows; {@code help COMMAND} and an {@code @file} (which may name any command)
     * need them all.
     */
    static CommandLine forArgs(String[] args) {
        String first = args.length > 0 ? args[0] : "";
        Class<?> named = named(first);
        if (named != null) {
            return forCommand(named);
        }
        return first.equals("help") || first.startsWith("@") ? full() : listing();
    }

    /**
     * The command {@code name} names (not {@code help}), or null. Each command's class is its name with a capital and
     * "Command" ({@code ctxsw}: {@code CtxswCommand}; MainTest holds every one to it), so no annotation is read to find
     * it: reading the twenty commands' took a tenth of the start of {@code summary} on a small recording.
     */
    static Class<?> named(String name) {
        if (name.isEmpty() || !Character.isLowerCase(name.charAt(0)) || name.equals("help")) {
            return null;
        }
        String simple = Character.toUpperCase(name.charAt(0)) + name.substring(1) + "Command";
        for (Class<?> c : COMMANDS) {
            if (c.getSimpleName().equals(simple)) {
                return c;
            }
        }
        return null;
    }

    /** The root with each command as its name and what it shows only: what the root's help and its errors print. */
    static CommandLine listing() {
        CommandLine cli = new CommandLine(new Main());
        for (Class<?> c : COMMANDS) {
            Command a = c.getAnnotation(Command.class);
            CommandLine.Model.CommandSpec spec =
                    CommandLine.Model.CommandSpec.create().name(a.name()).aliases(a.aliases());
            spec.usageMessage().header(a.header()).description(description(c)).hidden(a.hidden());
            cli.addSubcommand(a.name(), spec);
        }
        return cli;
    }

    /** Set by {@link #main}: the CLI writes to the process's own standard output (a terminal may be redrawn). */
    static volatile boolean interactive;

    public static void main(String[] args) {
        interactive = true;
        int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (Boolean.getBoolean("loomscope.archiving")) {
            loadEveryClass();
        }
        System.exit(code);
    }

    /**
     * Loads (without initialising) every loomscope class in the jar this one came from: set by the launcher on the run
     * whose loaded classes become the class-data archive of every later start, so that the archive a {@code flame} made
     * serves {@code summary} as well (what that saves: the launcher's comment on the archive). Once, on that run.
     */
    private static void loadEveryClass() {
        try (JarFile jar = new JarFile(Launch.codeSource(Main.class))) {
            ClassLoader loader = Main.class.getClassLoader();
            jar.stream()
                    .map(ZipEntry::getName)
                    .filter(n -> n.startsWith("dev/loomscope/") && n.endsWith(".class"))
                    .forEach(n -> {
                        try {
                            Class.forName(
                                    n.substring(0, n.length() - ".class".length())
                                            .replace('/', '.'),
                                    false,
                                    loader);
                        } catch (ClassNotFoundException | LinkageError notHere) {
                            // a class of an optional part whose library is not in the jar: the archive is made without
                            // it
                        }
                    });
        } catch (IOException | URISyntaxException | RuntimeException notAJar) {
            // run from classes, not the jar: no archive is made of it
        }
    }

    /** Runs the CLI with the given streams; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, true);
    }

    /**
     * As {@link #run(String[], PrintWriter, PrintWriter)}; {@code @file} arguments expanded only when
     * {@code expandAtFiles}.
     */
    static int run(String[] args, PrintWriter out, PrintWriter err, boolean expandAtFiles) {
        Integer answered = RootAnswers.answer(args, out, err);
        if (answered != null) {
            return answered;
        }
        CommandLine cli = forArgs(args);
        // load and study take --body @FILE as curl does: their @ is a request body's file, not an argument file
        boolean bodies = args.length > 0 && (args[0].equals("load") || args[0].equals("study"));
        cli.setExpandAtFiles(expandAtFiles && !bodies);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler(new Errors.ExecutionHandler());
        cli.setParameterExceptionHandler(new Errors.ParameterHandler());
        cli.setExitCodeExceptionMapper(t -> Errors.USAGE);
        try {
            return cli.execute(args);
        } catch (Error e) {
            // what picocli does not catch (an Error from a library, out of memory): still one line, exit 3
            boolean debug = Arrays.asList(args).contains("--debug");
            if (debug) {
                e.printStackTrace(err);
            }
            String command =
                    args.length > 0 && cli.getSubcommands().containsKey(args[0]) ? "loomscope " + args[0] : "loomscope";
            return Errors.internal(err, command, e, debug);
        }
    }
}
