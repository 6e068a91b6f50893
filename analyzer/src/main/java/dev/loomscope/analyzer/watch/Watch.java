package dev.loomscope.analyzer.watch;

import dev.loomscope.analyzer.threads.ThreadAnalysis;
import dev.loomscope.analyzer.threads.ThreadDump;
import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code loomscope watch}: connects, streams, and every interval prints what the JVM did (a line, a JSON object, or a
 * redrawn panel on a terminal) and the alarms that began, until the duration ends, Ctrl-C, or the JVM ends.
 */
public final class Watch {
    /** The alarms' limits (see {@link Alarms}). */
    public record Limits(double pinRate, double pinnedShare, double spinShare, int parked) {}

    /** What the command asked for. */
    public record Options(
            Duration interval,
            Duration duration,
            boolean json,
            Path record,
            Path dumpOnAlarm,
            Limits limits,
            Duration dumpEvery,
            Duration pinnedThreshold,
            Duration sampleInterval,
            boolean threadEvents,
            boolean agent,
            boolean terminal) {}

    /** Analyses thread dumps as {@code threads} does, printing to {@code to}. */
    public interface DumpReport {
        int report(List<Path> dumps, PrintWriter to);
    }

    /** Refreshes the queue must grow in a row, all carriers mounted, for the queue-growth alarm. */
    static final int QUEUE_REFRESHES = 3;
    /** How often the watcher looks whether the stream has passed the next interval's end. */
    static final Duration POLL = Duration.ofMillis(50);
    /** A poll this much later than due: the watcher was stopped or starved of CPU. */
    static final Duration STOPPED = Duration.ofSeconds(1);

    private final Options o;
    private final PrintWriter out;
    private final PrintWriter err;
    private final DumpReport dumps;
    private boolean saidCarriers;
    private final Deque<String> recent = new ArrayDeque<>();
    /** When the next thread dump for the pool-ceiling and lock alarms is due, on {@link System#nanoTime}'s clock. */
    private long nextDump;
    /** The last periodic thread dump, which the next is compared with (what did not move between them), or null. */
    private ThreadDump lastDump;
    /**
     * How soon after a dump that shows threads waiting for a lock one thread holds, or every carrier running a virtual
     * thread, the next dump is taken, sooner than --dump-every: a lock none of its waiters got in this long, or
     * carriers that stayed held, are alarmed.
     */
    static final Duration LOCK_STUCK = Duration.ofSeconds(5);

    public Watch(Options o, PrintWriter out, PrintWriter err, DumpReport dumps) {
        this.o = o;
        this.out = out;
        this.err = err;
        this.dumps = dumps;
    }

    /** How long the end of a watch that keeps its recording waits for the stream to hand on the rest of it. */
    private static final Duration DRAIN = Duration.ofSeconds(10);
    /** Each alarm raised so far, as the closing line names it ({@link Alarm#brief}). */
    private final List<String> raisedSoFar = new CopyOnWriteArrayList<>();

    /** Whether the closing line was said. */
    private final AtomicBoolean done = new AtomicBoolean();

    /** The JVM ended while watched: nothing more to show. */
    private boolean ended;

    /** Watches {@code target} until the duration ends, Ctrl-C, or the JVM ends; whether an alarm was raised. */
    public boolean run(String target) throws IOException, InterruptedException {
        try (RunningJvm t = RunningJvm.open(target)) {
            t.refuseBefore21("watch needs");
            int feature = t.feature();
            if ((o.dumpOnAlarm() != null || !o.dumpEvery().isZero()) && !t.local()) {
                err.println("loomscope watch: " + t.name()
                        + " is remote: its thread dumps would be written on its machine, so no pool-ceiling alarm and"
                        + " no --dump-on-alarm (watch it by its process id on its machine for those)");
            }
            Watcher w = new Watcher(
                    t,
                    new Watcher.Settings(
                            o.interval(),
                            o.pinnedThreshold(),
                            o.sampleInterval(),
                            o.threadEvents(),
                            o.record(),
                            o.agent()));
            // Ctrl-C: the JVM's recording closed, --record written, the alarms named
            Thread hook = new Thread(
                    () -> {
                        w.close();
                        sayDone();
                    },
                    "loomscope-watch-close");
            Runtime.getRuntime().addShutdownHook(hook);
            err.println("loomscope watch: " + t.name() + (feature > 0 ? " (JDK " + feature + ")" : "") + ", every "
                    + text(o.interval())
                    + (o.duration().isZero() ? "; Ctrl-C to stop" : " for " + text(o.duration()))
                    + " (each line shown once the JVM's stream has passed the end of its interval, about a second"
                    + " after: JFR hands events on at each flush; at most "
                    + text(Watcher.LATEST) + " after)");
            err.println("loomscope watch: streaming " + w.streamed());
            if (t.local() && !o.dumpEvery().isZero()) {
                err.println("loomscope watch: a JSON thread dump every " + text(o.dumpEvery()) + " (" + text(LOCK_STUCK)
                        + " after one showing threads waiting for a lock or every carrier held) for the pool-ceiling,"
                        + " deadlock, lock-stuck and native-blocking alarms; who owns java.util.concurrent locks: "
                        + w.lockOwners());
            }
            if (!w.work()) {
                // said once: the lines then carry no request figures, and why
                err.println("loomscope watch: no requests a second or service time on the lines: the JDK records no"
                        + " request's start and end; run the service under the loomscope agent, which counts a known"
                        + " server's requests with no option (Tomcat, Jetty, Undertow, the JDK's HttpServer, WebFlux,"
                        + " Vert.x; work=HANDLER names others), for them");
            } else {
                err.println("loomscope watch: requests a second and service time from the loomscope agent's work="
                        + " windows in it");
            }
            boolean alarmed;
            try {
                alarmed = loop(t, w);
                showRest(t, w);
                sayDone();
            } finally {
                w.close();
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs (or ran) already
                }
            }
            if (o.record() != null) {
                if (!Files.isRegularFile(o.record()) || Files.size(o.record()) == 0) {
                    // the JVM's recording went with it: the stream copies chunks to read them, not to keep them
                    Files.deleteIfExists(o.record());
                    throw new BadDataException(o.record().toAbsolutePath() + ": not written: " + t.name()
                            + " ended before watch did, and its recording with it (end watch while the JVM runs, by"
                            + " --duration or Ctrl-C, to keep what it watched)");
                }
                err.println("loomscope watch: recorded to " + o.record().toAbsolutePath());
            }
            return alarmed;
        }
    }

    /**
     * The closing line, once whoever ends the watch (its loop, or Ctrl-C's hook): the alarms raised, since when and
     * where.
     */
    private void sayDone() {
        if (done.compareAndSet(false, true)) {
            err.println("loomscope watch: done: "
                    + (raisedSoFar.isEmpty()
                            ? "no alarm"
                            : raisedSoFar.size() + " alarm" + (raisedSoFar.size() == 1 ? "" : "s") + " raised: "
                                    + String.join(", ", raisedSoFar)));
            err.flush();
        }
    }

    /**
     * When the recording is kept: stops it, and shows what the stream has not shown yet, so the lines add up to every
     * event in the file.
     */
    private void showRest(RunningJvm t, Watcher w) {
        if (o.record() == null || ended || !w.drain(DRAIN)) {
            return;
        }
        try {
            show(w.rest(new Interval[1]), List.of());
        } catch (IOException gone) {
            err.println("loomscope watch: " + t.name() + " ended");
        }
    }

    private boolean loop(RunningJvm t, Watcher w) throws IOException, InterruptedException {
        boolean dumping = t.local() && !o.dumpEvery().isZero();
        Alarms alarms = new Alarms(
                o.limits().pinRate(),
                o.limits().pinnedShare(),
                o.limits().spinShare(),
                o.limits().parked(),
                QUEUE_REFRESHES,
                dumping);
        long start = w.originNanos();
        long every = o.interval().toNanos();
        long intervals = o.duration().isZero()
                ? Long.MAX_VALUE
                : Math.ceilDiv(o.duration().toNanos(), every);
        nextDump = start + o.dumpEvery().toNanos();
        Path scratch = dumping
                ? Files.createTempDirectory(
                        "loomscope-watch-",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
                : null;
        boolean alarmed = false;
        try {
            long polled = System.nanoTime();
            while (w.shown() < intervals) {
                long now = System.nanoTime();
                if (now - polled > STOPPED.toNanos()) {
                    w.resumed(); // stopped (Ctrl-Z), or starved of CPU since the last look: the stream was too
                }
                polled = now;
                long ready = w.ready(intervals - 1);
                if (ready < w.shown()) {
                    Thread.sleep(POLL.toMillis()); // until the stream passes the next interval's end
                    continue;
                }
                try {
                    // the intervals a watcher that fell behind missed, together
                    alarmed |= refresh(t, w, alarms, scratch, ready);
                } catch (IOException gone) {
                    // the JVM went away: a refresh, a thread dump or an alarm's dumps found its connection closed
                    err.println("loomscope watch: " + t.name() + " ended");
                    ended = true;
                    return alarmed;
                }
            }
            return alarmed;
        } finally {
            if (scratch != null) {
                Files.deleteIfExists(scratch);
            }
        }
    }

    /** One refresh: the next interval shown, its alarms and any thread dump's; whether an alarm was raised. */
    private boolean refresh(RunningJvm t, Watcher w, Alarms alarms, Path scratch, long upTo)
            throws IOException, InterruptedException {
        Interval[] in = new Interval[1];
        boolean windows = w.work();
        Tick tick = w.tick(in, upTo);
        if (!windows && w.work()) {
            err.println("loomscope watch: the loomscope agent's work= windows have come (an agent attached since):"
                    + " requests a second and service time on the lines from " + tick.at());
        }
        if (!saidCarriers) {
            saidCarriers = true; // a fact that does not change: said once, not on every line
            err.println(
                    tick.scheduler() != null
                            ? "loomscope watch: carriers from the scheduler's MXBean: mounted and queued on each line"
                            : "loomscope watch: carriers: parallelism " + tick.parallelism()
                                    + "; how many are mounted and how many virtual threads queue needs the scheduler's"
                                    + " MXBean of JDK 24+, which this JVM has not");
            err.flush();
        }
        List<Alarm> raised = new ArrayList<>(alarms.check(tick, in[0]));
        if (scratch != null && System.nanoTime() >= nextDump) {
            nextDump = System.nanoTime() + o.dumpEvery().toNanos();
            Map<String, List<String>> stacks = new HashMap<>();
            ThreadDump d = w.dump(scratch);
            raised.addAll(
                    alarms.parked(Instant.now(), Alarms.byPlace(d == null ? List.of() : d.threads(), stacks), stacks));
            if (d != null) {
                ThreadAnalysis a = ThreadAnalysis.of(d, lastDump);
                raised.addAll(alarms.locks(Instant.now(), a));
                raised.addAll(alarms.carriers(Instant.now(), a, w.processors()));
                if (a.locks().stream().anyMatch(l -> ThreadAnalysis.exclusive(l.lock())) || alarms.carriersHeld()) {
                    nextDump = Math.min(
                            nextDump,
                            System.nanoTime()
                                    + LOCK_STUCK
                                            .toNanos()); // soon again: did any waiter get it, did a carrier come free?
                }
            }
            lastDump = d;
        }
        show(tick, raised);
        raised.forEach(a -> raisedSoFar.add(a.brief()));
        for (Alarm a : raised) {
            if (o.dumpOnAlarm() != null && t.local()) {
                dumpOnAlarm(t, w, a);
            }
        }
        return !raised.isEmpty();
    }

    private void show(Tick tick, List<Alarm> raised) {
        if (o.json()) {
            out.println(Json.of(tick.json()));
            raised.forEach(a -> out.println(Json.of(a.json())));
        } else if (o.terminal()) {
            raised.forEach(a -> {
                recent.addLast(a.line());
                if (recent.size() > 5) {
                    recent.removeFirst();
                }
            });
            StringBuilder panel = new StringBuilder("\033[H\033[2J");
            for (String part : tick.line(o.interval()).split(" \\| ")) {
                panel.append(part).append('\n');
            }
            recent.forEach(l -> panel.append(l).append('\n'));
            out.print(panel);
        } else {
            out.println(tick.line(o.interval()));
            for (Alarm a : raised) {
                out.println(a.line());
                a.stack().forEach(f -> out.println("    at " + f));
            }
        }
        out.flush();
    }

    /** Two JSON thread dumps 1 s apart into the --dump-on-alarm directory, analysed as {@code threads} does. */
    private void dumpOnAlarm(RunningJvm t, Watcher w, Alarm a) throws IOException, InterruptedException {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        List<Path> written = new ArrayList<>();
        for (String which : List.of("a", "b")) {
            if (which.equals("b")) {
                Thread.sleep(1000);
            }
            Path f = o.dumpOnAlarm()
                    .toAbsolutePath()
                    .resolve("threads-" + t.pid() + "-" + a.kind().id + "-" + stamp + "-" + which + ".json");
            if (w.writeDump(f)) {
                written.add(f);
                err.println("loomscope watch: thread dump written to " + f);
            }
        }
        if (written.isEmpty()) {
            return;
        }
        if (o.json()) {
            // JSON lines stay JSON lines: the dumps named in one, their analysis (a text) on stderr
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", "threadDumps");
            m.put("alarm", a.kind().id);
            m.put("files", written.stream().map(Path::toString).toList());
            out.println(Json.of(m));
            out.flush();
            dumps.report(written, err);
        } else {
            dumps.report(written, out);
        }
    }

    /** A setting's duration as the header says it: "1 s", "10 ms", "500 us". */
    static String text(Duration d) {
        if (d.toNanos() % 1_000_000 != 0) {
            return d.toNanos() / 1000 + " us";
        }
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
