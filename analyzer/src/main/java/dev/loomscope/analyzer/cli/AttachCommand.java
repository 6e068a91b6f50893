package dev.loomscope.analyzer.cli;

import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.watch.AgentCall;
import dev.loomscope.analyzer.watch.LockOwnerLooks;
import dev.loomscope.analyzer.watch.ProcessView;
import dev.loomscope.analyzer.watch.RunningJvm;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.Said;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loomscope attach}: controls the agent in a running JVM through the Attach API. */
@Command(
        name = "attach",
        mixinStandardHelpOptions = true,
        description = {
            "Starts, stops, snapshots or asks after a loomscope recording in a running JVM (Attach API).",
            "start [OPTIONS] loads the agent with agent options (key=value,...: see java -jar loomscope-agent.jar);"
                    + " stop writes the .jfr and flame graph; dump writes what was recorded so far and records on;"
                    + " status tells. The JVM must run JDK 21+, as the same user, or be reached as root (another user's"
                    + " JVM, or one in a container). 'loomscope attach list' shows the JVMs that can be attached.",
            "threads takes two JSON thread dumps --interval apart and analyses them as 'loomscope threads' does; on JDK"
                    + " 21-25 it asks the agent before and after each dump who owns the java.util.concurrent locks"
                    + " threads are parked on, and writes the owners into the dump as JDK 26 does: over JMX where the"
                    + " agent runs in the JVM, else by loading it (the JVM may print its warning of an agent loaded at"
                    + " run time; --no-lock-owners: not asked)."
        },
        footer = {
            "",
            "Exit codes: 0 done, 1 the agent refused (e.g. not recording) or threads found a deadlock or carrier"
                    + " starvation,",
            "2 bad input or the JVM cannot be attached."
        })
public final class AttachCommand extends CliCommand {
    static final List<String> ACTIONS = List.of("start", "stop", "dump", "status", "threads");

    @Parameters(index = "0", paramLabel = "PID", description = "the process id of the JVM, or 'list'")
    String pid;

    @Parameters(
            index = "1",
            arity = "0..1",
            paramLabel = "ACTION",
            description = "start, stop, dump, status or threads")
    String action;

    @Parameters(
            index = "2..*",
            paramLabel = "OPTIONS",
            description = "agent options for start, e.g. label=web,profile=cpu+wall,duration=60s")
    List<String> options = List.of();

    @Option(
            names = "--agent",
            paramLabel = "JAR",
            description = "the agent jar (default: lib/loomscope-agent.jar of this loomscope, or"
                    + " agent/target/loomscope-agent.jar of a checkout)")
    Path agent;

    @Option(
            names = "--interval",
            paramLabel = "DURATION",
            defaultValue = "2s",
            description = "threads: the time between its two dumps; 0 for one dump (default: ${DEFAULT-VALUE})")
    String interval;

    @Option(
            names = "--dumps",
            paramLabel = "DIR",
            defaultValue = ".",
            description = "threads: where the dumps are written (default: the current directory)")
    Path dumps;

    @Option(
            names = "--no-lock-owners",
            description = "threads: do not ask the agent who owns the java.util.concurrent locks threads are parked on"
                    + " (what JDK 21-25 dumps do not record, and deadlocks over such locks need)")
    boolean noLockOwners;

    @picocli.CommandLine.Mixin
    OutputOptions out;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = stdout();
        if (pid.equals("list")) {
            // a table, so --format json and the others give what they give elsewhere
            this.out.emit(List.of(jvms()), out);
            return Errors.OK;
        }
        if (!pid.matches("\\d{1,10}")) {
            throw usage("'" + pid + "' is not a process id (a number; 'loomscope attach list' shows the JVMs)");
        }
        if (action == null) {
            throw usage("name an action after the process id: start, stop, dump, status or threads");
        }
        if (!ACTIONS.contains(action)) {
            throw usage("unknown action '" + action + "' (use start, stop, dump, status or threads)");
        }
        if (!action.equals("start") && !options.isEmpty()) {
            throw usage(
                    "agent options go with start only (got " + String.join(" ", options) + " after " + action + ")");
        }
        if (ProcessHandle.of(Long.parseLong(pid)).isEmpty()) {
            throw new BadDataException(
                    "no process " + pid + " ('loomscope attach list' shows the JVMs you can attach to)");
        }
        if (action.equals("threads")) {
            return threads();
        }
        return load(agentJar(), out);
    }

    private Path agentJar() {
        return agent != null ? agent.toAbsolutePath() : Install.AGENT.jar();
    }

    /** The JVMs this user can attach to, this one left out: a table of their process ids and main classes or jars. */
    private static Table jvms() {
        Table jvms = new Table(
                "jvms", "JVMs this user can attach to", List.of(Table.text("pid"), Table.text("main class or jar")));
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            if (!d.id().equals(Long.toString(ProcessHandle.current().pid()))) {
                String name = d.displayName().isBlank() ? "(no main class reported)" : d.displayName();
                // a command line can run to thousands of characters (a class path): its start says which JVM it is
                jvms.row(d.id(), name.length() > 100 ? name.substring(0, 99) + "\u2026" : name);
            }
        }
        return jvms.orNone(
                "no other JVM of this user runs (a JVM started with -XX:+DisableAttachMechanism, or as another user"
                        + " when this one is not root, is not listed)");
    }

    /**
     * Loads the agent {@code jar} into the process with the action and options, and says its reply: ok, or what failed.
     */
    private int load(Path jar, PrintWriter out) throws Exception {
        AgentCall reply = AgentCall.run(Long.parseLong(pid), jar, action, options);
        PrintWriter to = reply.ok() ? out : stderr();
        reply.lines().forEach(l -> to.println("loomscope attach: " + pid + ": " + l));
        ProcessView view = reply.view();
        if (reply.ok() && view.otherMounts() && reply.lines().stream().anyMatch(l -> l.contains("/"))) {
            to.println("loomscope attach: " + pid
                    + ": its paths are as the JVM sees them, in another mount namespace: from here, under "
                    + view.root());
        }
        return reply.ok() ? Errors.OK : Errors.CHECK_FAILED;
    }

    /**
     * Two JSON thread dumps of the JVM (through its management agent, started on attach: {@link RunningJvm}), analysed.
     */
    private int threads() throws Exception {
        Duration gap = duration("--interval", interval, Duration.ZERO); // 0: one dump
        Path dir = dumps.toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            throw new BadDataException(dir + ": no such directory (give --dumps an existing directory)");
        }
        List<Path> written = new ArrayList<>();
        try (RunningJvm jvm = RunningJvm.open(pid)) {
            jvm.refuseBefore21("JSON thread dumps need");
            LockOwnerLooks owners = new LockOwnerLooks(jvm, agentJar(), !noLockOwners);
            String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
            for (String which : gap.isZero() ? List.of("") : List.of("a", "b")) {
                if (which.equals("b")) {
                    Thread.sleep(gap.toMillis());
                }
                Path f = dir.resolve("threads-" + pid + "-" + stamp + (which.isEmpty() ? "" : "-" + which) + ".json");
                try {
                    int owned = owners.dump(f, file -> jvm.dumpThreads(file, ThreadDumpFormat.JSON));
                    if (owned > 0) {
                        stderr().println("loomscope attach: " + pid + ": the owners of " + owned
                                + " java.util.concurrent lock wait(s) written into the dump, as the agent saw them"
                                + " before and after it");
                    }
                } catch (RuntimeException jsonFailed) {
                    // JDK 21-25 cannot write a thread name with a control character as JSON: the plain-text dump, which
                    // threads reads too
                    Files.deleteIfExists(f);
                    f = dir.resolve("threads-" + pid + "-" + stamp + (which.isEmpty() ? "" : "-" + which) + ".txt");
                    jvm.dumpThreads(f, ThreadDumpFormat.TEXT_PLAIN);
                    stderr().println("loomscope attach: " + pid + ": the JVM could not write a JSON thread dump ("
                            + Said.by(jsonFailed) + "): a plain-text one instead");
                }
                written.add(f);
                stderr().println("loomscope attach: " + pid + ": thread dump written to " + f);
            }
            if (owners.off() != null) {
                stderr().println("loomscope attach: " + pid
                        + ": who owns the java.util.concurrent locks threads are parked on is not known"
                        + " (JDK 21-25 dumps do not record it, and the agent could not say: " + owners.off() + ")");
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof BadDataException || e instanceof UsageException) {
                throw (RuntimeException) e; // already said: cannot attach, no management agent
            }
            throw new BadDataException("process " + pid + ": cannot take a thread dump: " + Said.by(e)
                    + " (the JVM must let its management agent start; or run jcmd " + pid
                    + " Thread.dump_to_file -format=json FILE)");
        }
        return ThreadsCommand.report(written, out, stdout());
    }

    private UsageException usage(String message) {
        return new UsageException(message);
    }
}
