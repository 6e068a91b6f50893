package dev.loomscope.workloads;

import dev.loomscope.options.Option;
import dev.loomscope.options.WorkloadOptions;
import dev.loomscope.workloads.continuation.ContinuationWorkload;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.BadArgumentException;
import dev.loomscope.workloads.core.Relaunch;
import dev.loomscope.workloads.core.RoundTrip;
import dev.loomscope.workloads.core.Runner;
import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.core.ThreadStart;
import dev.loomscope.workloads.core.Workload;
import dev.loomscope.workloads.echo.EchoServer;
import dev.loomscope.workloads.echo.EchoWorkload;
import dev.loomscope.workloads.gameoflife.GameOfLifeWorkload;
import dev.loomscope.workloads.pinning.PinningWorkload;
import dev.loomscope.workloads.rendezvous.RendezvousWorkload;
import dev.loomscope.workloads.sleep.SleepWorkload;
import dev.loomscope.workloads.stuck.StuckService;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar loomscope-workloads.jar <name> --threads platform|virtual [parameters] [--runs R] [--warmup W]
 * [--paced] [--results FILE.csv]}.
 */
public final class Main {

    /** How to make a workload from its options. */
    @FunctionalInterface
    interface Factory {
        Workload create(Args args) throws Exception;
    }

    record Entry(String description, Factory factory) {}

    static final Map<String, Entry> WORKLOADS = new LinkedHashMap<>();

    /** echo-server is not a workload with runs (no factory here), but takes options as one. */
    static final String ECHO_SERVER = "the echo server alone, for external clients";

    static final String THREAD_START =
            "what starting and joining a platform and a virtual thread costs on this JVM (the study's calibration)";
    static final String ROUND_TRIP =
            "what a cache line's round trip between two threads on two cores costs on this machine now";
    static final String STUCK =
            "a service that stops: virtual threads deadlocked, or every carrier held (for loomscope threads)";

    static {
        WORKLOADS.put(
                "echo", new Entry("HTTP echo server, thread per connection, under ab-style load", EchoWorkload::of));
        WORKLOADS.put("sleep", new Entry("10,000 tasks sleeping 200 ms", SleepWorkload::of));
        WORKLOADS.put("rendezvous", new Entry("two threads meet N times", RendezvousWorkload::of));
        WORKLOADS.put("gameoflife", new Entry("Game of Life as CSP", GameOfLifeWorkload::of));
        WORKLOADS.put("pinning", new Entry("what pins on this JDK, beside each fix", PinningWorkload::of));
        WORKLOADS.put("continuation", new Entry("continuation freeze/thaw micro-benchmarks", ContinuationWorkload::of));
    }

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            usage();
            return args.length == 0 ? 2 : 0;
        }
        String name = args[0];
        try {
            if (name.equals("list")) {
                WORKLOADS.forEach((n, e) -> System.out.printf("%-13s %s (%s)%n", n, e.description(), flags(n)));
                System.out.printf("%-13s %s (%s)%n", "echo-server", ECHO_SERVER, flags("echo-server"));
                System.out.printf("%-13s %s (%s)%n", "stuck", STUCK, flags("stuck"));
                System.out.printf("%-13s %s%n", "thread-start", THREAD_START);
                System.out.printf("%-13s %s%n", "round-trip", ROUND_TRIP);
                return 0;
            }
            if (WorkloadOptions.BY_WORKLOAD.containsKey(name)
                    && (Arrays.asList(args).contains("--help")
                            || Arrays.asList(args).contains("-h"))) {
                return help(name);
            }
            Args a = new Args(Arrays.asList(args).subList(1, args.length));
            if (name.equals("echo-server")) {
                return echoServer(a);
            }
            if (name.equals("thread-start")) {
                a.rejectUnknown("thread-start");
                System.out.println(ThreadStart.measure());
                return 0;
            }
            if (name.equals("round-trip")) {
                a.rejectUnknown("round-trip");
                System.out.println(RoundTrip.measure());
                return 0;
            }
            if (name.equals("stuck")) {
                return StuckService.run(a);
            }
            Entry entry = WORKLOADS.get(name);
            if (entry == null) {
                throw new BadArgumentException("unknown workload '" + name + "' (run 'list' to see them: "
                        + String.join(", ", WORKLOADS.keySet()) + ")");
            }
            int runs = a.integer(WorkloadOptions.RUNS);
            int warmup = a.integer(WorkloadOptions.WARMUP);
            boolean paced = a.flag(WorkloadOptions.PACED);
            String results = a.string(WorkloadOptions.RESULTS);
            boolean roundTrip = a.flag(WorkloadOptions.ROUND_TRIP);
            Path parent =
                    results == null ? null : Path.of(results).toAbsolutePath().getParent();
            if (results != null && (parent == null || !Files.isDirectory(parent))) {
                throw new BadArgumentException(
                        "--results " + results + ": there is no directory " + parent + " to write it in");
            }
            try (Workload w = entry.factory().create(a)) {
                a.rejectUnknown(name);
                if (!Relaunch.has(w.jvmProperties())) {
                    return Relaunch.inChild(w.jvmProperties(), Main.class.getName(), Arrays.asList(args));
                }
                Runner.run(
                        name,
                        w,
                        warmup,
                        runs,
                        System.out,
                        paced ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)) : null,
                        results == null ? null : Path.of(results),
                        roundTrip);
            }
            return 0;
        } catch (BadArgumentException e) {
            System.err.println("loomscope-workloads: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            System.err.println("loomscope-workloads: " + name + " failed: "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        }
    }

    private static int echoServer(Args a) throws Exception {
        var kind = ThreadKind.of(a);
        int port = a.integer(WorkloadOptions.EchoServer.PORT);
        a.rejectUnknown("echo-server");
        try (EchoServer server = new EchoServer(kind, port, 1024)) {
            System.out.println("echo server on http://127.0.0.1:" + server.port() + "/ (" + kind.label()
                    + " thread per connection); Ctrl-C stops it");
            Thread.currentThread().join();
        }
        return 0;
    }

    /** Prints the workload's options as declared: default, values, meaning. */
    private static int help(String name) {
        System.out.println("usage: java -jar loomscope-workloads.jar " + name + " [--option value ...]");
        Entry entry = WORKLOADS.get(name);
        System.out.println(
                name + ": " + (entry != null ? entry.description() : name.equals("stuck") ? STUCK : ECHO_SERVER));
        for (Option o : WorkloadOptions.of(name)) {
            System.out.printf(
                    "  %-17s default %s; %s%n      %s%n", o.flag(), o.defaultValue(), o.values(), o.description());
        }
        return 0;
    }

    /** An option as the usage line shows it, with its default or its choices: {@code [--runs 5]}. */
    private static String usageOf(Option o) {
        return "[" + o.flag()
                + switch (o.type()) {
                    case FLAG -> "";
                    case CHOICE -> " " + String.join("|", o.choices());
                    case PATH -> " FILE";
                    default -> " " + o.defaultValue();
                }
                + "]";
    }

    private static String flags(String workload) {
        return String.join(
                " ",
                WorkloadOptions.BY_WORKLOAD.get(workload).stream()
                        .map(Option::flag)
                        .toList());
    }

    private static void usage() {
        System.out.println("usage: java -jar loomscope-workloads.jar <workload> [parameters] "
                + String.join(
                        " ", WorkloadOptions.COMMON.stream().map(Main::usageOf).toList()));
        System.out.println("       java -jar loomscope-workloads.jar list");
        List.of("", "workloads:").forEach(System.out::println);
        System.out.printf("  %-13s %s (%s)%n", "echo-server", ECHO_SERVER, flags("echo-server"));
        System.out.printf("  %-13s %s (%s)%n", "stuck", STUCK, flags("stuck"));
        System.out.printf("  %-13s %s%n", "thread-start", THREAD_START);
        System.out.printf("  %-13s %s%n", "round-trip", ROUND_TRIP);
        WORKLOADS.forEach((n, e) -> System.out.printf("  %-13s %s (%s)%n", n, e.description(), flags(n)));
    }
}
