package dev.loomscope.analyzer.watch;

import dev.loomscope.analyzer.reduce.CarrierCpu;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.analyzer.threads.DumpFrames;
import dev.loomscope.analyzer.threads.ThreadAnalysis;
import dev.loomscope.analyzer.threads.ThreadAnalysis.Link;
import dev.loomscope.analyzer.threads.ThreadAnalysis.LockWait;
import dev.loomscope.analyzer.threads.ThreadDump.DumpThread;
import dev.loomscope.analyzer.threads.ThreadsView;
import dev.loomscope.analyzer.watch.Alarm.Episode;
import dev.loomscope.analyzer.watch.Alarm.Kind;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.PinFrames;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The conditions {@code watch} raises, each once per episode: it is raised when first seen and may be raised again only
 * after {@link #CLEARED} refreshes without it. The limits are the command's options.
 *
 * @param pinRate pins a second above which pinning is raised
 * @param pinnedShare share of the carriers' time pinned above which pinning is raised
 * @param spinShare share of the virtual threads' CPU samples in a spin frame from which yield-spin is raised
 * @param parked virtual threads parked at one place from which pool-ceiling is raised
 * @param queueSeconds refreshes in a row the queue grows, all carriers mounted, before queue-growth is raised (at
 *     {@link #MIN_QUEUED} queued or more)
 * @param dumps whether thread dumps come ({@link #carriers}): where the scheduler does not say who waits for the
 *     carriers (JDK 21-23), the yield-spin alarm waits for them
 */
record Alarms(
        double pinRate,
        double pinnedShare,
        double spinShare,
        int parked,
        int queueSeconds,
        boolean dumps,
        State state) {
    /** Fewer spinning CPU samples than this over the window say nothing of a spin. */
    static final int MIN_SPIN_SAMPLES = 3;
    /** A queue shorter than this is a scheduler at work, not one falling behind, however it grows. */
    static final long MIN_QUEUED = 100;
    /** Refreshes without a condition that end its episode: it may be raised again after. */
    static final int CLEARED = 3;
    /** Refreshes the yield-spin alarm looks back over. */
    static final int SPIN_WINDOW = 5;
    /**
     * A virtual thread on the CPU this long, with no gap in its samples, has held its carrier all that time: the
     * cpu-monopoly alarm's run.
     */
    static final Duration MONOPOLY_RUN = Duration.ofSeconds(1);
    /** A gap in a virtual thread's CPU samples longer than this ends its run (it unmounted, or waited). */
    static final Duration RUN_GAP = Duration.ofMillis(250);
    /**
     * Carriers using less than this share of a CPU each, while they stay mounted, are blocked rather than computing.
     */
    static final double BLOCKED_CPU = 0.5;
    /**
     * Fewer CPU samples than this a thread over the refreshes the native-blocking alarm looks back on: not computing
     * (JFR samples a thread running Java about every 10-20 ms, hundreds in those seconds).
     */
    static final int FEW_SAMPLES = 5;
    /**
     * Refreshes more the queue-growth alarm waits while as many virtual threads as carriers are on the CPU: a monopoly
     * forming, whose runs a busy machine's sampler may reach late, is the cause its own alarm will name.
     */
    static final int MONOPOLY_HOLD = 3;
    /**
     * The alarms raised per lock from two thread dumps ({@link #locks}): each episode ends when a dump no longer shows
     * it.
     */
    static final Set<Kind> FROM_DUMPS = EnumSet.of(Kind.DEADLOCK, Kind.LOCK_STUCK, Kind.FREE_MONITOR);

    Alarms(double pinRate, double pinnedShare, double spinShare, int parked, int queueSeconds, boolean dumps) {
        this(pinRate, pinnedShare, spinShare, parked, queueSeconds, dumps, new State());
    }

    /** Alarms with no thread dumps to come. */
    Alarms(double pinRate, double pinnedShare, double spinShare, int parked, int queueSeconds) {
        this(pinRate, pinnedShare, spinShare, parked, queueSeconds, false);
    }

    /**
     * One refresh as the alarms over several read it: its events, and the virtual threads that wanted a carrier
     * (mounted and queued, the scheduler's MXBean of JDK 24+), NaN where it did not say.
     */
    record Refresh(Interval events, double wanting) {}

    /** What persists between ticks: the kinds raised and not yet cleared, the queue's growth. */
    static final class State {
        final Set<Episode> active = new HashSet<>();
        /** Refreshes in a row an active kind was not seen. */
        final Map<Kind, Integer> absent = new EnumMap<>(Kind.class);
        /**
         * The last {@link #SPIN_WINDOW} refreshes: CPU samples are few a second (JFR samples a few threads a period).
         */
        final ArrayDeque<Refresh> recent = new ArrayDeque<>();
        /** Thread dumps in a row in which every carrier ran a virtual thread ({@link Alarms#carriers}). */
        int heldDumps;

        long lastQueued = -1;
        int growing;
        Instant growingSince;
        /**
         * The virtual threads' runs on the CPU going on (as many as are on the CPU now, once {@link Alarms#monopoly}
         * has read the refresh), by thread id, and the newest sample's time.
         */
        final Map<Long, Run> runs = new HashMap<>();

        Instant newest;
        /** Whether the last thread dump showed every carrier held by a running virtual thread, and its time. */
        Instant carriersHeldAt;
    }

    /** One virtual thread's CPU samples with no gap over {@link #RUN_GAP}: since when, until when, at which frames. */
    static final class Run {
        final Instant start;
        Instant last;
        final Map<String, Long> frames = new HashMap<>();

        Run(Instant start) {
            this.start = start;
            this.last = start;
        }

        Duration length() {
            return Duration.between(start, last);
        }
    }

    /** The alarms this tick begins (an interval's events in {@code in}). */
    List<Alarm> check(Tick t, Interval in) {
        List<Alarm> raised = new ArrayList<>();
        Set<Kind> seen = EnumSet.noneOf(Kind.class);
        // the kinds this refresh can say nothing of, either way: their episode neither goes on nor ends on it
        Set<Kind> undecided = EnumSet.noneOf(Kind.class);
        pins(t, in, raised, seen);
        spin(t, in, raised, seen, undecided);
        monopoly(t, in, raised, seen);
        queue(t, in, raised, seen);
        for (Kind kind : List.of(Kind.PINS, Kind.SPIN, Kind.QUEUE, Kind.MONOPOLY)) {
            if (seen.contains(kind)) {
                state.absent.remove(kind);
            } else if (!undecided.contains(kind)
                    && state.active.contains(new Episode(kind))
                    && state.absent.merge(kind, 1, Integer::sum) >= CLEARED) {
                // an episode ends after CLEARED refreshes without it: one that comes and goes is one episode
                state.active.remove(new Episode(kind));
                state.absent.remove(kind);
            }
        }
        return raised;
    }

    /** The pinning alarm: pins a second or the carriers' pinned share past its limit. */
    private void pins(Tick t, Interval in, List<Alarm> raised, Set<Kind> seen) {
        double rate = t.pins() / t.seconds();
        double share = t.pinnedShare();
        if (t.pins() > 0 && (rate > pinRate || (!Double.isNaN(share) && share > pinnedShare))) {
            seen.add(Kind.PINS);
            Tick.Pin top = t.topPins().get(0);
            var group = in.pins.groups().get(top.frame());
            raise(
                    raised,
                    new Alarm(
                            Kind.PINS,
                            t.at(),
                            String.format(
                                    Locale.ROOT,
                                    "%,.1f pins/s, %s of %d carriers' time pinned (limits %s/s, %s)",
                                    rate,
                                    Tick.percent(share),
                                    t.parallelism(),
                                    trim(pinRate),
                                    Tick.percent(pinnedShare)),
                            top.frame()
                                    + (top.reasons().isEmpty() ? "" : " (" + String.join(", ", top.reasons()) + ")"),
                            group == null
                                    ? List.of()
                                    : group.stack.stream()
                                            .limit(12)
                                            .map(Frame::text)
                                            .toList(),
                            PinFrames.Cause.of(group == null ? null : group.stack, top.reasons())));
        }
    }

    /**
     * The yield-spin alarm, over the last {@link #SPIN_WINDOW} intervals: {@link #spinShare} of the virtual threads'
     * CPU samples spinning while the spin costs other virtual threads their carriers ({@link #crowded}); undecided when
     * they hold too few samples.
     */
    private void spin(Tick t, Interval in, List<Alarm> raised, Set<Kind> seen, Set<Kind> undecided) {
        Tick.Scheduler s = t.scheduler();
        state.recent.addLast(new Refresh(in, s == null ? Double.NaN : (double) s.mounted() + s.queued()));
        if (state.recent.size() > SPIN_WINDOW) {
            state.recent.removeFirst();
        }
        long spinning = recent().mapToLong(i -> i.cpu.spinSamples()).sum();
        long virtual = recent().mapToLong(i -> i.cpu.virtualSamples()).sum();
        long all = recent().mapToLong(i -> i.cpu.samples()).sum();
        long scheduler = recent().mapToLong(i -> i.cpu.schedulerSamples()).sum();
        if (virtual < MIN_SPIN_SAMPLES) {
            // too few virtual threads' samples to tell (a busy machine's sampler reaches few threads)
            undecided.add(Kind.SPIN);
        } else if (spinning >= MIN_SPIN_SAMPLES && (double) spinning / virtual >= spinShare) {
            Crowding crowding = crowding(t.parallelism());
            if (!crowding.crowded()) {
                return; // the carriers had room: the spin cost its own carrier's CPU, no other thread its turn
            }
            seen.add(Kind.SPIN);
            Map<String, Long> callers = new HashMap<>();
            Map<String, List<Frame>> stacks = new HashMap<>();
            recent().forEach(i -> {
                i.cpu.spinCallers().forEach((k, n) -> callers.merge(k, n, Long::sum));
                i.cpu.spinStacks().forEach(stacks::putIfAbsent);
            });
            String caller = callers.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElseThrow()
                    .getKey();
            raise(
                    raised,
                    new Alarm(
                            Kind.SPIN,
                            t.at(),
                            String.format(
                                    Locale.ROOT,
                                    "%s of the virtual threads' CPU samples (%d of %d over the last %d refreshes) are"
                                            + " in Thread.yield or Thread.onSpinWait, and %s of all samples are"
                                            + " carriers in the scheduler: carriers busy spinning, not working (limit"
                                            + " %s)%s",
                                    Tick.percent((double) spinning / virtual),
                                    spinning,
                                    virtual,
                                    state.recent.size(),
                                    Tick.percent(all > 0 ? (double) scheduler / all : Double.NaN),
                                    Tick.percent(spinShare),
                                    crowding.words()),
                            caller,
                            stacks.get(caller).stream().map(Frame::text).toList()));
        }
    }

    /** What tells whether a spin costs other virtual threads their carriers. */
    enum CrowdingBasis {
        /** The scheduler's counts of virtual threads mounted and queued (JDK 24+). */
        SCHEDULER,
        /** Thread dumps: every carrier running a virtual thread. */
        DUMPS,
        /** Nothing: the samples' share alone decides. */
        NONE
    }

    /**
     * Whether a spin costs other virtual threads their carriers, by what ({@code basis}), and the figure that told: the
     * mean of virtual threads wanting a carrier over {@code readings} refreshes, or the dumps in a row
     * ({@code readings}) in which every carrier ran one.
     */
    record Crowding(boolean crowded, CrowdingBasis basis, double wanting, int readings, int carriers) {
        /** The evidence as the yield-spin alarm adds it to its words. */
        String words() {
            return switch (basis) {
                case SCHEDULER ->
                    String.format(
                            Locale.ROOT,
                            "; %.1f virtual threads wanted the %d carriers (mounted and queued, on average)",
                            wanting,
                            carriers);
                case DUMPS ->
                    String.format(
                            Locale.ROOT, "; every carrier ran a virtual thread in %d thread dumps in a row", readings);
                case NONE -> "";
            };
        }
    }

    /**
     * Whether the spin costs other virtual threads their turn: where the scheduler says (JDK 24+), at least one virtual
     * thread more than there are carriers wanted one (mounted and queued), on average over the last
     * {@link #SPIN_WINDOW} refreshes (not before that many: the counts are a moment's each, and a spinner's yields make
     * them jump); else, where thread dumps come, every carrier ran a virtual thread in the last two dumps (not before
     * two dumps); else nothing tells, and the samples' share alone decides.
     */
    private Crowding crowding(int parallelism) {
        DoubleSummaryStatistics said = state.recent.stream()
                .mapToDouble(Refresh::wanting)
                .filter(w -> !Double.isNaN(w))
                .summaryStatistics();
        if (said.getCount() > 0) {
            boolean crowded = said.getCount() >= SPIN_WINDOW && said.getAverage() >= parallelism + 1;
            return new Crowding(
                    crowded, CrowdingBasis.SCHEDULER, said.getAverage(), (int) said.getCount(), parallelism);
        }
        if (dumps) {
            return new Crowding(state.heldDumps >= 2, CrowdingBasis.DUMPS, Double.NaN, state.heldDumps, parallelism);
        }
        return new Crowding(true, CrowdingBasis.NONE, Double.NaN, 0, parallelism);
    }

    /** The events of the last {@link #SPIN_WINDOW} refreshes, oldest first. */
    private Stream<Interval> recent() {
        return state.recent.stream().map(Refresh::events);
    }

    /**
     * The alarms that say why carriers are held: a queue growing behind one of them is that alarm's, not one of its
     * own.
     */
    static final Set<Kind> CAUSES = EnumSet.of(Kind.PINS, Kind.SPIN, Kind.MONOPOLY, Kind.NATIVE);

    /**
     * The queue-growth alarm: the scheduler's queue longer refresh after refresh while every carrier is mounted, and no
     * alarm that says why ({@link #CAUSES}) is on; {@link #MONOPOLY_HOLD} refreshes later while every carrier runs a
     * virtual thread on the CPU.
     */
    private void queue(Tick t, Interval in, List<Alarm> raised, Set<Kind> seen) {
        Tick.Scheduler s = t.scheduler();
        if (s != null) {
            boolean grows = state.lastQueued >= 0 && s.queued() > state.lastQueued && s.mounted() >= s.parallelism();
            if (grows) {
                if (state.growing++ == 0) {
                    state.growingSince = t.at();
                }
            } else {
                state.growing = 0; // not in a row
            }
            state.lastQueued = s.queued();
            boolean explained =
                    CAUSES.stream().anyMatch(k -> seen.contains(k) || state.active.contains(new Episode(k)));
            int wait = queueSeconds + (state.runs.size() >= t.parallelism() ? MONOPOLY_HOLD : 0);
            if (state.growing >= wait && s.queued() >= MIN_QUEUED && !explained) {
                seen.add(Kind.QUEUE);
                raise(
                        raised,
                        new Alarm(
                                Kind.QUEUE,
                                state.growingSince,
                                String.format(
                                        Locale.ROOT,
                                        "the scheduler's queue grew %d refreshes in a row to %,d while all %d carriers"
                                                + " were mounted",
                                        state.growing,
                                        s.queued(),
                                        s.parallelism()),
                                busiest(t, in),
                                List.of()));
            } else if (state.active.contains(new Episode(Kind.QUEUE)) && state.growing > 0) {
                seen.add(Kind.QUEUE); // still growing: the episode goes on
            }
        }
    }

    /**
     * The cpu-monopoly alarm: as many virtual threads as there are carriers each on the CPU for {@link #MONOPOLY_RUN}
     * or more (their samples with no gap over {@link #RUN_GAP}) at once: a virtual thread is not time-sliced, so each
     * held its carrier all that time.
     */
    private void monopoly(Tick t, Interval in, List<Alarm> raised, Set<Kind> seen) {
        for (CarrierCpu.Sampled s : in.sampled) {
            if (s.spinning()) {
                // in Thread.yield or onSpinWait: it gives its carrier up (the yield-spin alarm's)
                state.runs.remove(s.thread());
                continue;
            }
            Run r = state.runs.get(s.thread());
            if (r == null || Duration.between(r.last, s.at()).compareTo(RUN_GAP) > 0) {
                r = new Run(s.at());
                state.runs.put(s.thread(), r);
            }
            if (s.at().isAfter(r.last)) {
                r.last = s.at();
            }
            r.frames.merge(s.frame(), 1L, Long::sum);
            if (state.newest == null || s.at().isAfter(state.newest)) {
                state.newest = s.at();
            }
        }
        if (state.newest == null) {
            return;
        }
        state.runs.values().removeIf(r -> Duration.between(r.last, state.newest).compareTo(RUN_GAP) > 0); // ended
        List<Run> long_ = state.runs.values().stream()
                .filter(r -> r.length().compareTo(MONOPOLY_RUN) >= 0)
                .toList();
        if (!long_.isEmpty() && long_.size() >= t.parallelism()) {
            seen.add(Kind.MONOPOLY);
            Map<String, Long> frames = new HashMap<>();
            long_.forEach(r -> r.frames.forEach((f, n) -> frames.merge(f, n, Long::sum)));
            String frame = frames.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElseThrow()
                    .getKey();
            Instant since =
                    long_.stream().map(r -> r.start).min(Instant::compareTo).orElseThrow();
            raise(
                    raised,
                    new Alarm(
                            Kind.MONOPOLY,
                            since,
                            String.format(
                                    Locale.ROOT,
                                    "%d virtual threads have each been on the CPU for %s or more (the longest %.1f s,"
                                            + " no gap over %d ms in their samples), as many as the %d carriers: every"
                                            + " carrier held by a computation while other virtual threads wait",
                                    long_.size(),
                                    Watch.text(MONOPOLY_RUN),
                                    long_.stream()
                                                    .map(Run::length)
                                                    .max(Duration::compareTo)
                                                    .orElseThrow()
                                                    .toMillis()
                                            / 1000.0,
                                    RUN_GAP.toMillis(),
                                    t.parallelism()),
                            frame,
                            List.of()));
        }
    }

    /**
     * The native-blocking alarm, from a thread dump (the one before it is in {@link State#carriersHeldAt}): every
     * carrier holds a virtual thread that runs on it (not parked on it, not in the JDK's own native I/O, for which the
     * scheduler adds carriers) in this dump and the one before, while those threads had fewer than {@link #FEW_SAMPLES}
     * CPU samples each and the carriers used under {@link #BLOCKED_CPU} of a CPU each over the last refreshes: blocked,
     * not computing, with no pin event to say so (a virtual thread in native code never parks). Where the stream has no
     * carriers' CPU (the agent's recording), only threads whose stacks end in a native frame count.
     *
     * @param processors the JVM's, by which JFR's thread CPU shares of the machine are a share of one CPU
     */
    List<Alarm> carriers(Instant at, ThreadAnalysis a, int processors) {
        ThreadAnalysis.Starvation s = a.starvation();
        List<DumpThread> running = s.mounted().stream()
                .filter(v -> !DumpFrames.parkedOnCarrier(v.stack())
                        && !DumpFrames.jdkNative(v.stack())
                        && (v.state() == null || v.state().equals("RUNNABLE")))
                .toList();
        boolean held = s.carriers() > 0 && running.size() >= s.carriers();
        state.heldDumps = held ? state.heldDumps + 1 : 0;
        Instant before = state.carriersHeldAt;
        state.carriersHeldAt = held ? (a.dump().time() != null ? a.dump().time() : at) : null;
        if (!held) {
            state.active.remove(new Episode(Kind.NATIVE));
            return List.of();
        }
        // a thread in Thread.yield or onSpinWait is not in native code, however little CPU its carrier gets
        List<DumpThread> still = running.stream()
                .filter(v -> !DumpFrames.spinning(v.stack(), CarrierCpu.SPIN_DEPTH))
                .toList();
        if (before == null || still.size() < s.carriers()) {
            return List.of();
        }
        Samples readings = new Samples();
        recent().forEach(i -> readings.addAll(i.summary.carrierCpu));
        double cpu = SummaryReducer.ofOneCpu(readings, processors);
        Set<Long> ids = new HashSet<>();
        still.forEach(v -> ids.add(v.tid()));
        long theirSamples = recent().flatMap(i -> i.sampled.stream())
                .filter(x -> ids.contains(x.thread()))
                .count();
        // a thread in native code is not in JFR's CPU samples (it samples threads running Java), and its carrier spends
        // little CPU; where
        // the stream carries neither (the agent's recording), only threads whose stacks end in a native frame count
        boolean blocked = !Double.isNaN(cpu)
                ? theirSamples < (long) FEW_SAMPLES * ids.size() && cpu < BLOCKED_CPU
                : still.stream().allMatch(v -> DumpFrames.nativeFrame(v.stack()) != null);
        if (!blocked) {
            return List.of();
        }
        Map<String, List<DumpThread>> byPlace = new HashMap<>();
        still.forEach(v -> byPlace.computeIfAbsent(DumpFrames.describe(v.stack()), k -> new ArrayList<>())
                .add(v));
        var top = byPlace.entrySet().stream()
                .max(Comparator.comparingInt(e -> e.getValue().size()))
                .orElseThrow();
        List<Alarm> raised = new ArrayList<>();
        raise(
                raised,
                new Alarm(
                        Kind.NATIVE,
                        before,
                        String.format(
                                Locale.ROOT,
                                "all %d carriers ran virtual threads that stayed mounted in two thread dumps %s apart,"
                                        + " %s: blocked, not computing, with no pin event to say so (a virtual thread"
                                        + " in native code that blocks, a JNI or FFM call, holds its carrier all the"
                                        + " while)%s",
                                s.carriers(),
                                Watch.text(Duration.between(before, state.carriersHeldAt)),
                                !Double.isNaN(cpu)
                                        ? String.format(
                                                Locale.ROOT,
                                                "with %d CPU samples among them and their carriers using %s of a CPU"
                                                        + " each",
                                                theirSamples,
                                                Tick.percent(cpu))
                                        : "each in a native frame",
                                s.waiting().isEmpty()
                                        ? ""
                                        : "; " + s.waiting().size() + " virtual threads wait to run"),
                        top.getKey(),
                        top.getValue().get(0).stack().stream().limit(12).toList()));
        return raised;
    }

    /** Whether the last thread dump showed every carrier held by a virtual thread running on it ({@link #carriers}). */
    boolean carriersHeld() {
        return state.carriersHeldAt != null;
    }

    /**
     * What holds the carriers, as far as this interval tells: the pins' frame, else the spin's caller, else the
     * application frame the virtual threads' CPU samples were in most.
     */
    private static String busiest(Tick t, Interval in) {
        if (!t.topPins().isEmpty()) {
            return "pinned at " + t.topPins().get(0).frame();
        }
        return in.cpu.spinCallers().entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .map(e -> "spinning at " + e.getKey())
                .or(() -> in.cpu.running().entrySet().stream()
                        .max(Map.Entry.comparingByValue())
                        .map(e -> "running at " + e.getKey()))
                .orElse(null);
    }

    /**
     * Pool-ceiling alarms from a thread dump's parked virtual threads by where they wait ({@code parkedAt}: place ->
     * count and a stack), for places with at least {@link #parked}.
     */
    List<Alarm> parked(Instant at, Map<String, Integer> parkedAt, Map<String, List<String>> stacks) {
        List<Alarm> raised = new ArrayList<>();
        Set<Episode> seen = new HashSet<>();
        parkedAt.entrySet().stream()
                .filter(e -> e.getValue() >= parked)
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> {
                    Episode episode = new Episode(Kind.POOL, e.getKey());
                    seen.add(episode);
                    if (state.active.add(episode)) {
                        raised.add(new Alarm(
                                Kind.POOL,
                                at,
                                String.format(
                                        Locale.ROOT,
                                        "%,d virtual threads parked at one place (limit %,d): a pool or lock smaller"
                                                + " than the threads that want it",
                                        e.getValue(),
                                        parked),
                                e.getKey(),
                                stacks.get(e.getKey())));
                    }
                });
        state.active.removeIf(k -> k.kind() == Kind.POOL && !seen.contains(k));
        return raised;
    }

    /**
     * Lock alarms from a thread dump's analysis against the dump before it: each deadlock (where the dump knows who
     * owns the locks), and each lock none of whose waiters got it between the two. Each is raised once while it lasts
     * (by its locks).
     */
    List<Alarm> locks(Instant at, ThreadAnalysis a) {
        List<Alarm> raised = new ArrayList<>();
        Set<Episode> seen = new HashSet<>();
        for (List<Link> cycle : a.deadlocks()) {
            Episode episode = new Episode(
                    Kind.DEADLOCK,
                    cycle.stream().map(Link::lock).sorted().toList().toString());
            seen.add(episode);
            if (state.active.add(episode)) {
                Link first = cycle.get(0);
                raised.add(new Alarm(
                        Kind.DEADLOCK,
                        at,
                        cycle.size() + " threads each wait for a lock the next one holds: "
                                + cycle.stream()
                                        .map(l -> l.thread().label() + " ("
                                                + l.thread().kind() + ") waits for " + l.lock() + ", held by "
                                                + l.owner().label())
                                        .collect(Collectors.joining("; ")),
                        DumpFrames.describe(first.thread().stack()),
                        first.thread().stack().stream().limit(12).toList()));
            }
        }
        for (LockWait w : a.stuckLocks()) {
            if (w.waiters().stream().noneMatch(t -> Boolean.TRUE.equals(t.virtual()))) {
                // platform threads alone: behind a virtual thread that waits for a carrier, most often (the carriers'
                // alarms say why)
                continue;
            }
            // a monitor no thread owned in either dump is the JVM's fault, not a holder's
            Kind kind = a.ownerless(w) ? Kind.FREE_MONITOR : Kind.LOCK_STUCK;
            Episode episode = new Episode(kind, w.lock());
            seen.add(episode);
            if (state.active.add(episode)) {
                Instant since = a.previous().time() != null
                        ? a.previous().time()
                        : at; // its waiters waited already in the earlier dump
                raised.add(new Alarm(
                        kind,
                        since,
                        ThreadsView.stuckLine(a, w),
                        DumpFrames.describe(w.waiters().get(0).stack()),
                        w.waiters().get(0).stack().stream().limit(12).toList()));
            }
        }
        state.active.removeIf(k -> FROM_DUMPS.contains(k.kind()) && !seen.contains(k));
        return raised;
    }

    private void raise(List<Alarm> raised, Alarm a) {
        if (state.active.add(new Episode(a.kind()))) {
            raised.add(a);
        }
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** The parked virtual threads of a dump by where they wait; {@code stacks} gets one stack each. */
    static Map<String, Integer> byPlace(List<DumpThread> threads, Map<String, List<String>> stacks) {
        Map<String, Integer> out = new HashMap<>();
        for (var t : threads) {
            if (!Boolean.TRUE.equals(t.virtual()) || !parkedStack(t.stack())) {
                continue;
            }
            String where = DumpFrames.describe(t.stack());
            out.merge(where, 1, Integer::sum);
            stacks.putIfAbsent(where, t.stack().stream().limit(12).toList());
        }
        return out;
    }

    private static boolean parkedStack(List<String> stack) {
        return stack.stream()
                .limit(8)
                .anyMatch(f -> f.contains(".park(") || f.contains(".parkNanos(") || f.contains("VirtualThread.park"));
    }
}
