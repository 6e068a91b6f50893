package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.watch.Watch;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import java.io.Console;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loomscope watch}: a running JVM's carriers, virtual threads and pins, refreshed as they happen. */
@Command(
        name = "watch",
        mixinStandardHelpOptions = true,
        description = {
            "Shows a running JVM's virtual threads as they run, refreshed every --interval: the scheduler's carriers"
                    + " (JDK 24+), virtual threads started and ended (--thread-events), pins a second by the frame that"
                    + " pinned and their share of carrier time, submit failures, GC, heap, CPU, context switches and,"
                    + " where the loomscope agent times work=, requests a second and their service time. Raises an"
                    + " alarm, once, with the frame that causes it, when pins pass --pin-rate or --pinned-share, when"
                    + " carriers spin in Thread.yield or onSpinWait, when the queue grows while every carrier is busy,"
                    + " and when --parked virtual threads wait at one place (a pool or lock; from a JSON thread dump"
                    + " every --dump-every).",
            "Attaches without a restart (a JFR stream over JMX: nothing is loaded into the JVM but its own management"
                    + " agent) and leaves it as it was: its recording closed when watch ends (Ctrl-C, --duration) and,"
                    + " if watch is killed, bounded to 30 s and closed by the next watch. With --agent, the loomscope"
                    + " agent's recording in the JVM is read from its disk instead, and nothing is recorded for watch."
                    + " Plain lines when the output is not a terminal; JSON lines with --format json."
        },
        footer = {
            "",
            "Exit codes: 0 done (or the JVM ended), 1 an alarm was raised and --fail-on-alarm was given, 2 bad input or"
                    + " the JVM cannot be watched."
        })
public final class WatchCommand extends CliCommand {
    @Parameters(
            index = "0",
            paramLabel = "PID|HOST:PORT",
            description = "the process id of a local JVM, or HOST:PORT of a JVM's remote JMX agent")
    String target;

    @Option(
            names = "--interval",
            paramLabel = "DURATION",
            defaultValue = "1s",
            description = "time between refreshes (default: ${DEFAULT-VALUE})")
    String interval;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "0",
            description = "stop after this long (default: until Ctrl-C or the JVM ends)")
    String duration;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = "text or json: one JSON object a line (default: ${DEFAULT-VALUE})")
    String format;

    @Option(
            names = "--record",
            paramLabel = "FILE",
            description = "keep what was watched as a recording (.jfr) every command reads")
    Path record;

    @Option(
            names = "--dump-on-alarm",
            paramLabel = "DIR",
            description =
                    "at each alarm, two JSON thread dumps 1 s apart into DIR, analysed as 'threads' does (local JVMs)")
    Path dumpOnAlarm;

    @Option(
            names = "--pin-rate",
            paramLabel = "N",
            defaultValue = "100",
            description = "pins a second that raise the pinning alarm (default: ${DEFAULT-VALUE})")
    double pinRate;

    @Option(
            names = "--pinned-share",
            paramLabel = "SHARE",
            defaultValue = "0.2",
            description =
                    "share of the carriers' time pinned that raises the pinning alarm (default: ${DEFAULT-VALUE})")
    double pinnedShare;

    @Option(
            names = "--spin-share",
            paramLabel = "SHARE",
            defaultValue = "0.5",
            description = "share of the virtual threads' CPU samples in Thread.yield or onSpinWait that raises the"
                    + " yield-spin alarm (default: ${DEFAULT-VALUE})")
    double spinShare;

    @Option(
            names = "--parked",
            paramLabel = "N",
            defaultValue = "1000",
            description =
                    "virtual threads parked at one place that raise the pool-ceiling alarm (default: ${DEFAULT-VALUE})")
    int parked;

    @Option(
            names = "--dump-every",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description =
                    "how often a JSON thread dump looks for parked virtual threads (local JVMs; 0: never; default:"
                            + " ${DEFAULT-VALUE})")
    String dumpEvery;

    @Option(
            names = "--pinned-threshold",
            paramLabel = "DURATION",
            defaultValue = "1ms",
            description = "pins at least this long are streamed (JFR's default, 20 ms, hides most; default:"
                    + " ${DEFAULT-VALUE})")
    String pinnedThreshold;

    @Option(
            names = "--sample-interval",
            paramLabel = "DURATION",
            defaultValue = "10ms",
            description = "JFR's CPU sampling period, for the spin alarm (default: ${DEFAULT-VALUE})")
    String sampleInterval;

    @Option(
            names = "--thread-events",
            description = "stream an event for every virtual thread started and ended, to show them a second (costly"
                    + " where a virtual thread is started a request: see docs/watch.md)")
    boolean threadEvents;

    @Option(
            names = "--agent",
            description =
                    "read the loomscope agent's own recording in the JVM (its repository on this machine) instead of"
                            + " starting a second recording: the JVM pays for nothing but the polls and the thread"
                            + " dumps; the agent's settings say what is recorded (CPU samples for the spin alarm with"
                            + " the agent's engine=jfr or jfr-cpu-time)")
    boolean agent;

    @Option(names = "--fail-on-alarm", description = "exit 1 when an alarm was raised")
    boolean failOnAlarm;

    @picocli.CommandLine.Mixin
    DebugOption debug;

    @Override
    public Integer call() throws Exception {
        if (!format.equals("text") && !format.equals("json")) {
            throw new UsageException("--format " + format + ": not a format watch writes (text or json)");
        }
        Duration every = duration("--interval", interval, Duration.ZERO);
        if (every.toMillis() < 100) {
            throw new UsageException("--interval " + interval
                    + ": shorter than 100 ms (the JVM's stream flushes about once a second; give 1s or more)");
        }
        for (var share :
                Map.of("--pinned-share", pinnedShare, "--spin-share", spinShare).entrySet()) {
            if (!(share.getValue() > 0 && share.getValue() <= 1)) {
                throw new UsageException(share.getKey() + " " + share.getValue()
                        + ": not a share (give a number above 0 and at most 1, e.g. 0.2)");
            }
        }
        if (!(pinRate > 0) || parked < 1) {
            throw new UsageException(
                    (pinRate > 0 ? "--parked " + parked : "--pin-rate " + pinRate) + ": not a positive number");
        }
        if (record != null
                && record.toAbsolutePath().getParent() != null
                && !Files.isDirectory(record.toAbsolutePath().getParent())) {
            throw new BadDataException(record.toAbsolutePath().getParent()
                    + ": no such directory (give --record a file in an existing directory)");
        }
        if (dumpOnAlarm != null && !Files.isDirectory(dumpOnAlarm)) {
            throw new BadDataException(
                    dumpOnAlarm.toAbsolutePath() + ": no such directory (give --dump-on-alarm an existing directory)");
        }
        if (agent) {
            var given = spec.commandLine().getParseResult();
            for (String own : List.of("--record", "--pinned-threshold", "--sample-interval", "--thread-events")) {
                if (given.hasMatchedOption(own)) {
                    throw new UsageException(own
                            + " with --agent: the agent's recording is read as it is (its options pinned-threshold=,"
                            + " interval= and engine= say what it records, and it writes its own .jfr when it ends;"
                            + " 'loomscope attach PID dump' writes it now)");
                }
            }
        }
        Watch.Options o = new Watch.Options(
                every,
                duration("--duration", duration, Duration.ZERO),
                format.equals("json"),
                record,
                dumpOnAlarm,
                new Watch.Limits(pinRate, pinnedShare, spinShare, parked),
                duration("--dump-every", dumpEvery, Duration.ZERO),
                duration("--pinned-threshold", pinnedThreshold, Duration.ZERO),
                duration("--sample-interval", sampleInterval, Duration.ZERO),
                threadEvents,
                agent,
                Main.interactive && terminal());
        boolean alarmed = new Watch(
                        o, stdout(), stderr(), (dumps, to) -> ThreadsCommand.report(dumps, new OutputOptions(), to))
                .run(target);
        return alarmed && failOnAlarm ? Errors.CHECK_FAILED : Errors.OK;
    }

    /** Whether standard output is a terminal (JDK 22+ has a console even when it is not: it says so by isTerminal). */
    private static boolean terminal() {
        Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException jdk21) {
            return true; // JDK 21 has a console only for a terminal
        }
    }
}
