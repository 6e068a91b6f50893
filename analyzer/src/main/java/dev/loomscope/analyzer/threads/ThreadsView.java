package dev.loomscope.analyzer.threads;

import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.threads.ThreadAnalysis.Group;
import dev.loomscope.analyzer.threads.ThreadAnalysis.Held;
import dev.loomscope.analyzer.threads.ThreadAnalysis.Link;
import dev.loomscope.analyzer.threads.ThreadAnalysis.LockWait;
import dev.loomscope.analyzer.threads.ThreadDump.DumpThread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/** The tables of {@code loomscope threads}: what each dump holds, and what is stuck in it. */
public final class ThreadsView {
    /** Stack groups and lock waits beyond these are counted in a note. */
    static final int GROUPS = 20;

    static final int LOCKS = 20;
    private static final List<String> STATES = List.of("RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING");

    private ThreadsView() {}

    /**
     * Reads the dumps and analyses the latest of each process, beside the one taken before it (what did not move
     * between them); processes in the order of their latest dump.
     */
    public static List<ThreadAnalysis> analyse(List<Path> files) {
        List<ThreadDump> dumps =
                new ArrayList<>(files.stream().map(ThreadDump::read).toList());
        dumps.sort(Comparator.comparing((ThreadDump d) -> d.time() == null ? Instant.EPOCH : d.time()));
        Map<String, ThreadDump> previous = new LinkedHashMap<>();
        Map<String, ThreadDump> last = new LinkedHashMap<>();
        for (ThreadDump d : dumps) {
            if (last.containsKey(d.processId())) {
                previous.put(d.processId(), last.get(d.processId()));
            }
            last.put(d.processId(), d);
        }
        return last.values().stream()
                .map(d -> ThreadAnalysis.of(d, previous.get(d.processId())))
                .toList();
    }

    /**
     * The JSON thread dumps beside recordings: in each directory given, or holding a file given, the agent's
     * ({@code *.threads.json}) and {@code loomscope attach PID threads}'s ({@code threads-*.json}).
     */
    public static List<Path> beside(List<Path> inputs) {
        Set<Path> dirs = new LinkedHashSet<>();
        for (Path p : inputs) {
            Path abs = p.toAbsolutePath().normalize();
            Path dir = Files.isDirectory(abs) ? abs : abs.getParent();
            if (dir != null && Files.isDirectory(dir)) {
                dirs.add(dir);
            }
        }
        List<Path> out = new ArrayList<>();
        for (Path dir : dirs) {
            try (var files = Files.list(dir)) {
                files.filter(f -> {
                            String n = f.getFileName().toString();
                            return (n.endsWith(".threads.json") || n.startsWith("threads-") && n.endsWith(".json"))
                                    && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS);
                        })
                        .sorted()
                        .forEach(out::add);
            } catch (IOException e) {
                // a directory that cannot be listed has no dumps to show
            }
        }
        return out;
    }

    public static List<Table> tables(List<ThreadAnalysis> analyses) {
        return List.of(
                overview(analyses),
                containers(analyses),
                stacks(analyses),
                locks(analyses),
                deadlocks(analyses),
                starvation(analyses),
                unmoved(analyses));
    }

    /** The findings as lines: each deadlock and starvation, named; empty when nothing is stuck. */
    public static List<String> findings(ThreadAnalysis a) {
        List<String> out = new ArrayList<>();
        for (List<Link> cycle : a.deadlocks()) {
            out.add("deadlock: "
                    + cycle.stream()
                            .map(l -> l.thread().label() + " (" + l.thread().kind() + ", at "
                                    + DumpFrames.describe(l.thread().stack()) + ") waits for " + l.lock() + " held by "
                                    + l.owner().label())
                            .collect(Collectors.joining("; ")));
        }
        ThreadAnalysis.Starvation s = a.starvation();
        if (s.found()) {
            out.add("carrier starvation: every carrier (" + s.busy() + " of " + s.carriers()
                    + ") is held by a virtual thread that cannot go on ("
                    + s.held().stream()
                            .map(h -> h.thread().label() + " " + h.why())
                            .collect(Collectors.joining("; ")) + "), "
                    + (a.dump().hasState()
                            ? "while " + s.waiting().size() + " virtual thread(s) wait to run"
                            : "so no virtual thread can run (a JDK "
                                    + a.dump().feature() + " dump does not mark virtual threads: " + frameless(a.dump())
                                    + " threads have no frames, virtual threads not started yet or the JVM's own)")
                    + ownersWaiting(a));
        } else if (!s.held().isEmpty() && !s.waiting().isEmpty()) {
            out.add("carriers held: " + s.held().size() + " of " + s.carriers()
                    + " carriers held by a virtual thread that cannot go on or did not move ("
                    + s.held().stream()
                            .map(h -> h.thread().label() + " " + h.why())
                            .collect(Collectors.joining("; ")) + ") while "
                    + s.waiting().size()
                    + " virtual thread(s) wait to run: not every carrier, so not starvation, but the rest run the"
                    + " waiting on fewer carriers" + ownersWaiting(a));
        }
        return out;
    }

    /**
     * The owners of the locks the held threads wait for, when they are among the threads waiting to run or unmounted.
     */
    private static String ownersWaiting(ThreadAnalysis a) {
        List<String> owners = new ArrayList<>();
        for (LockWait w : a.locks()) {
            boolean heldWaits = w.waiters().stream()
                    .anyMatch(t -> a.starvation().held().stream()
                            .anyMatch(h -> h.thread().tid() == t.tid()));
            if (heldWaits
                    && w.owner() != null
                    && Boolean.TRUE.equals(w.owner().virtual())
                    && w.owner().carrier() == null) {
                owners.add(w.lock() + " is held by " + w.owner().label() + ", which has no carrier to run on");
            }
        }
        return owners.isEmpty() ? "" : "; " + String.join("; ", owners);
    }

    private static String name(ThreadAnalysis a) {
        return Path.of(a.dump().file()).getFileName().toString();
    }

    private static Table overview(List<ThreadAnalysis> analyses) {
        Table t = new Table(
                "threads",
                "Thread dumps",
                List.of(
                        Table.text("dump"),
                        Table.text("process"),
                        Table.text("taken"),
                        Table.text("JDK"),
                        Table.number("threads", "", 0),
                        Table.number("virtual", "", 0),
                        Table.number("platform", "", 0),
                        Table.number("kind unknown", "", 0),
                        Table.number("carriers", "", 0),
                        Table.number("carriers busy", "", 0),
                        Table.text("found")));
        for (ThreadAnalysis a : analyses) {
            ThreadDump d = a.dump();
            List<String> f = findings(a);
            t.row(
                    name(a),
                    d.processId(),
                    d.time() == null ? null : d.time().toString(),
                    d.runtimeVersion(),
                    (long) d.threads().size(),
                    count(d, Boolean.TRUE),
                    count(d, Boolean.FALSE),
                    count(d, null),
                    (long) a.starvation().carriers(),
                    (long) a.starvation().busy(),
                    found(a, f));
            f.forEach(line -> t.note(name(a) + ": " + line));
            a.cannotTell().forEach(line -> t.note(name(a) + ": " + line));
        }
        return t;
    }

    /** The overview's word for what {@code findings} hold: never "nothing stuck" above a finding. */
    private static String found(ThreadAnalysis a, List<String> findings) {
        if (findings.isEmpty()) {
            return "nothing stuck";
        }
        ThreadAnalysis.Starvation s = a.starvation();
        return a.deadlocks().size() + " deadlock(s)"
                + (s.found()
                        ? ", carrier starvation"
                        : s.held().isEmpty() ? "" : ", " + s.held().size() + " of " + s.carriers() + " carriers held");
    }

    private static long frameless(ThreadDump d) {
        return d.threads().stream().filter(x -> x.stack().isEmpty()).count();
    }

    private static long count(ThreadDump d, Boolean virtual) {
        return d.threads().stream()
                .filter(x -> Objects.equals(x.virtual(), virtual))
                .count();
    }

    private static Table containers(List<ThreadAnalysis> analyses) {
        List<Table.Column> columns = new ArrayList<>(List.of(
                Table.text("dump"),
                Table.text("container"),
                Table.number("virtual", "", 0),
                Table.number("platform", "", 0)));
        STATES.forEach(s -> columns.add(Table.number(s, "", 0)));
        Table t = new Table("thread-containers", "Threads by container and state", columns);
        for (ThreadAnalysis a : analyses) {
            Map<String, List<DumpThread>> by = a.dump().threads().stream()
                    .collect(Collectors.groupingBy(DumpThread::container, LinkedHashMap::new, Collectors.toList()));
            by.forEach((container, ts) -> {
                List<Object> row = new ArrayList<>(List.of(
                        name(a),
                        container,
                        ts.stream()
                                .filter(x -> Boolean.TRUE.equals(x.virtual()))
                                .count(),
                        ts.stream()
                                .filter(x -> Boolean.FALSE.equals(x.virtual()))
                                .count()));
                STATES.forEach(s -> row.add(
                        a.dump().hasState()
                                ? (Object) ts.stream()
                                        .filter(x -> s.equals(x.state()))
                                        .count()
                                : null));
                t.row(row.toArray());
            });
            if (!a.dump().hasState()) {
                t.note(name(a) + ": JDK " + a.dump().feature() + " dumps record no states (n/a)");
            }
        }
        return t;
    }

    private static Table stacks(List<ThreadAnalysis> analyses) {
        Table t = new Table(
                "thread-stacks",
                "Threads with identical stacks",
                List.of(
                        Table.text("dump"),
                        Table.number("threads", "", 0),
                        Table.text("kind"),
                        Table.text("state"),
                        Table.text("where (the JDK call via the application's frame)"),
                        Table.text("for example")));
        for (ThreadAnalysis a : analyses) {
            List<Group> groups = a.groups();
            for (Group g : groups.subList(0, Math.min(GROUPS, groups.size()))) {
                t.row(
                        name(a),
                        (long) g.count(),
                        g.kind(),
                        g.state(),
                        DumpFrames.describe(g.stack()),
                        String.join(", ", g.examples()));
            }
            if (groups.size() > GROUPS) {
                t.note(name(a) + ": " + (groups.size() - GROUPS) + " more groups of "
                        + groups.subList(GROUPS, groups.size()).stream()
                                .mapToInt(Group::count)
                                .sum() + " threads (--format json has them all)");
            }
        }
        return t;
    }

    private static Table locks(List<ThreadAnalysis> analyses) {
        Table t = new Table(
                "thread-locks",
                "Locks threads wait for, and who holds them",
                List.of(
                        Table.text("dump"),
                        Table.text("lock"),
                        Table.text("how"),
                        Table.number("waiters", "", 0),
                        Table.text("waiters, for example"),
                        Table.text("held by"),
                        Table.text("holder's state"),
                        Table.text("holder is at")));
        for (ThreadAnalysis a : analyses) {
            for (LockWait w : a.locks().subList(0, Math.min(LOCKS, a.locks().size()))) {
                DumpThread o = w.owner();
                t.row(
                        name(a),
                        w.lock(),
                        w.how(),
                        (long) w.waiters().size(),
                        w.waiters().stream().limit(3).map(DumpThread::label).collect(Collectors.joining(", ")),
                        o == null ? "not recorded" : o.label() + " (" + o.kind() + ")",
                        o == null || !a.dump().hasState()
                                ? null
                                : o.state()
                                        + (Boolean.TRUE.equals(o.virtual()) && o.carrier() == null
                                                ? ", no carrier"
                                                : ""),
                        o == null ? null : DumpFrames.describe(o.stack()));
            }
            if (!a.dump().hasState()) {
                t.note(name(a) + ": JDK " + a.dump().feature() + " dumps record no locks, states or carriers"
                        + (a.dump().hasParkOwner()
                                ? " (the java.util.concurrent locks above and their owners are the loomscope agent's)"
                                : ""));
            }
        }
        return t;
    }

    private static Table deadlocks(List<ThreadAnalysis> analyses) {
        Table t = new Table(
                "thread-deadlocks",
                "Deadlocks (wait-for cycles)",
                List.of(
                        Table.text("dump"),
                        Table.number("cycle", "", 0),
                        Table.text("thread"),
                        Table.text("kind"),
                        Table.text("state"),
                        Table.text("waits for"),
                        Table.text("held by"),
                        Table.text("at")));
        for (ThreadAnalysis a : analyses) {
            int n = 0;
            for (List<Link> cycle : a.deadlocks()) {
                n++;
                for (Link l : cycle) {
                    t.row(
                            name(a),
                            (long) n,
                            l.thread().label(),
                            l.thread().kind(),
                            l.thread().state(),
                            l.lock(),
                            l.owner().label(),
                            DumpFrames.describe(l.thread().stack()));
                }
            }
            if (a.deadlocks().isEmpty()) {
                t.note(name(a) + ": "
                        + (a.dump().hasState()
                                ? "no wait-for cycle over monitors" + (a.dump().hasParkOwner() ? " or locks" : "")
                                : a.dump().hasParkOwner()
                                        ? "no wait-for cycle over java.util.concurrent locks (monitors not told: the"
                                                + " dump records none)"
                                        : "not told: the dump records no locks"));
            }
            for (LockWait w : a.stuckLocks()) {
                t.note(name(a) + ": " + stuckLine(a, w));
            }
        }
        return t;
    }

    /** A lock none of whose waiters got it between the two dumps, as one line. */
    public static String stuckLine(ThreadAnalysis a, LockWait w) {
        DumpThread o = w.owner();
        String between = a.between() == null
                ? "between the two dumps"
                : String.format(
                        Locale.ROOT,
                        "in the %.1f s between two dumps",
                        a.between().toMillis() / 1000.0);
        return w.lock() + ": none of its " + w.waiters().size() + " waiter(s) ("
                + w.waiters().stream().limit(3).map(DumpThread::label).collect(Collectors.joining(", ")) + ") got it "
                + between + ", waiting at "
                + DumpFrames.describe(w.waiters().get(0).stack())
                + "; "
                + (o != null
                        ? "held by " + o.label() + " at " + DumpFrames.describe(o.stack())
                        : a.ownerless(w)
                                ? "no thread owns it in either dump, though the dumps record monitors' owners: its"
                                        + " waiters are blocked on a free monitor, stuck in the JVM rather than behind"
                                        + " a holder (a virtual thread so is JDK-8373120): report it to the JDK's"
                                        + " maintainers with both dumps"
                                : "its owner is not recorded (JDK 21-25 dumps do not say who owns a"
                                        + " java.util.concurrent lock: 'loomscope attach PID threads' asks the agent)");
    }

    private static Table starvation(List<ThreadAnalysis> analyses) {
        Table t = new Table(
                "thread-carriers",
                "Carriers held by virtual threads that cannot go on",
                List.of(
                        Table.text("dump"),
                        Table.text("carrier"),
                        Table.text("virtual thread"),
                        Table.text("why it cannot go on")));
        for (ThreadAnalysis a : analyses) {
            ThreadAnalysis.Starvation s = a.starvation();
            for (Held h : s.held()) {
                t.row(name(a), h.carrier(), h.thread().label(), h.why());
            }
            t.note(name(a) + ": " + s.busy() + " of " + s.carriers() + " carriers run a virtual thread; "
                    + s.waiting().size()
                    + " virtual thread(s) wait to run"
                    + (s.waiting().isEmpty()
                            ? ""
                            : " ("
                                    + s.waiting().stream()
                                            .limit(5)
                                            .map(DumpThread::label)
                                            .collect(Collectors.joining(", "))
                                    + (s.waiting().size() > 5 ? ", ..." : "") + ")")
                    + (s.found() ? ": carrier starvation" : ""));
            List<DumpThread> inNative = s.mounted().stream()
                    .filter(v -> DumpFrames.nativeFrame(v.stack()) != null
                            && !DumpFrames.jdkNative(v.stack())
                            && !DumpFrames.parkedOnCarrier(v.stack()))
                    .toList();
            if (s.carriers() > 0 && inNative.size() >= s.carriers()) {
                t.note(name(a) + ": every carrier runs a virtual thread in native code ("
                        + inNative.stream()
                                .limit(3)
                                .map(v -> v.label() + " at " + DumpFrames.describe(v.stack()))
                                .collect(Collectors.joining("; "))
                        + "): a native call that blocks holds its carrier and writes no pin event; whether they stay so"
                        + " one dump cannot tell ('loomscope watch' raises native-blocking when they do)");
            }
        }
        return t;
    }

    private static Table unmoved(List<ThreadAnalysis> analyses) {
        Table t = new Table(
                "thread-unmoved",
                "Threads that did not move between two dumps",
                List.of(
                        Table.text("dump"),
                        Table.text("since"),
                        Table.number("threads", "", 0),
                        Table.text("kind"),
                        Table.text("state"),
                        Table.text("where"),
                        Table.text("for example")));
        for (ThreadAnalysis a : analyses) {
            if (a.previous() == null) {
                continue;
            }
            Map<List<Object>, List<DumpThread>> by = a.unmoved().stream()
                    .collect(Collectors.groupingBy(
                            x -> List.of(x.kind(), Objects.toString(x.state(), ""), x.stack()),
                            LinkedHashMap::new,
                            Collectors.toList()));
            String since = Path.of(a.previous().file()).getFileName()
                    + (a.between() == null
                            ? ""
                            : String.format(
                                    Locale.ROOT, " (%.1f s before)", a.between().toMillis() / 1000.0));
            by.values().stream()
                    .sorted((x, y) -> y.size() - x.size())
                    .forEach(ts -> t.row(
                            name(a),
                            since,
                            (long) ts.size(),
                            ts.get(0).kind(),
                            ts.get(0).state(),
                            DumpFrames.describe(ts.get(0).stack()),
                            ts.stream().limit(3).map(DumpThread::label).collect(Collectors.joining(", "))));
            t.note(name(a) + ": " + a.unmoved().size()
                    + " virtual or application threads have the same state and stack as in " + since
                    + ": stuck, or idle (a pool waiting for work)");
        }
        if (analyses.stream().allMatch(a -> a.previous() == null)) {
            t.note("give two dumps of one process, a few seconds apart, to see what did not move (stuck, not slow)");
        }
        return t;
    }
}
