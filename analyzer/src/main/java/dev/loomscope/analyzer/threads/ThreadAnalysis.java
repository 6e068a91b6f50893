package dev.loomscope.analyzer.threads;

import dev.loomscope.analyzer.threads.ThreadDump.DumpThread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What one JSON thread dump (and, when given, an earlier dump of the same process) says about threads that are stuck:
 * identical stacks grouped, the lock each group of waiters waits on and its owner, wait-for cycles (deadlocks), locks
 * none of whose waiters got them between two dumps, carrier starvation, and what did not move between two dumps. Only
 * what the dump holds is concluded; what its JDK does not record is said in {@link #cannotTell}.
 */
public record ThreadAnalysis(
        ThreadDump dump,
        ThreadDump previous,
        List<Group> groups,
        List<LockWait> locks,
        List<List<Link>> deadlocks,
        List<LockWait> stuckLocks,
        Starvation starvation,
        List<DumpThread> unmoved,
        List<String> cannotTell) {

    /** Threads with one stack and state: how many, of which kind, where, a few names. */
    public record Group(int count, String kind, String state, List<String> stack, List<String> examples) {}

    /** Threads waiting for one lock, and who holds it (null when the dump does not say). */
    public record LockWait(String lock, String how, DumpThread owner, List<DumpThread> waiters) {}

    /** One edge of a wait-for cycle: {@code thread} waits for {@code lock}, which {@code owner} holds. */
    public record Link(DumpThread thread, String lock, DumpThread owner) {}

    /** A carrier held by a virtual thread that cannot go on, and why (what pins it, what it waits for). */
    public record Held(String carrier, DumpThread thread, String why) {}

    /**
     * The virtual thread scheduler's carriers: how many, how many run a virtual thread, those held by one that cannot
     * go on, the virtual threads waiting to run; {@code found} when every carrier is held while virtual threads wait,
     * {@code possible} when it is not found but every carrier is busy and some are held or virtual threads wait (on JDK
     * 21-24, every carrier busy): the dump cannot tell whether all the carriers are held. {@code mounted}: the virtual
     * threads the carriers run (JDK 25+: as the dump says; JDK 21-24: those whose stacks show them mounted).
     */
    public record Starvation(
            int carriers,
            int busy,
            List<Held> held,
            List<DumpThread> waiting,
            List<DumpThread> mounted,
            boolean found,
            boolean possible) {}

    private static final Pattern WORKER = Pattern.compile(".*-worker-\\d+");

    /** Analyses {@code dump}; {@code previous} is an earlier dump of the same process, or null. */
    public static ThreadAnalysis of(ThreadDump dump, ThreadDump previous) {
        List<String> cannotTell = new ArrayList<>();
        if (!dump.hasState()) {
            cannotTell.add("JDK " + dump.feature()
                    + " thread dumps record no thread states, locks or carriers (JDK 25 and later do):"
                    + (dump.hasParkOwner()
                            ? " deadlocks over monitors cannot be told from this dump (over java.util.concurrent locks"
                                    + " they can, from the owners loomscope's agent added)"
                            : " deadlocks cannot be told from this dump ('loomscope attach PID threads' adds the owners"
                                    + " of java.util.concurrent locks from its agent)")
                    + ", and which virtual thread holds which carrier only from its stack");
        }
        Set<Long> unmovedIds = previous == null ? Set.of() : unmovedIds(previous, dump);
        List<DumpThread> unmoved = dump.threads().stream()
                .filter(t -> unmovedIds.contains(t.tid())
                        && !DumpFrames.idle(t.stack())
                        && (Boolean.TRUE.equals(t.virtual()) || DumpFrames.applicationFrame(t.stack()) >= 0))
                .toList();
        Map<Long, DumpThread> byId = new HashMap<>();
        dump.threads().forEach(t -> byId.put(t.tid(), t));
        Map<String, DumpThread> monitorOwner = new HashMap<>();
        dump.threads().forEach(t -> t.monitors().forEach(m -> monitorOwner.put(m.lock(), t)));
        List<LockWait> locks = locks(dump, byId, monitorOwner);
        List<List<Link>> deadlocks =
                dump.hasState() || dump.hasParkOwner() ? cycles(dump, byId, monitorOwner) : List.of();
        long parkedWithoutOwner = dump.threads().stream()
                .filter(t -> isLock(t.parkBlocker()) && t.parkOwner() == null)
                .count();
        if (dump.hasState() && !dump.hasParkOwner() && parkedWithoutOwner > 0) {
            cannotTell.add(parkedWithoutOwner + " thread(s) parked on java.util.concurrent locks: JDK " + dump.feature()
                    + " dumps do not record who owns such a lock (JDK 26 does), so cycles through them cannot be told"
                    + " ('loomscope attach PID threads' adds the owners from its agent)");
        }
        Starvation starvation = starvation(dump, byId, unmovedIds, previous);
        if (starvation.possible() && !dump.hasState() && starvation.waiting().isEmpty()) {
            cannotTell.add("every carrier (" + starvation.busy() + ") runs a virtual thread, "
                    + starvation.held().size() + " of them one that cannot"
                    + " go on; whether virtual threads wait for a carrier a JDK " + dump.feature()
                    + " dump cannot show (JDK 25's does): carrier starvation cannot be told from it; take a second dump"
                    + " a few seconds later and give both (what did not move between them is stuck)");
        } else if (starvation.possible()) {
            cannotTell.add("every carrier (" + starvation.busy() + ") runs a virtual thread, "
                    + starvation.held().size()
                    + " of them one that cannot go on; this dump cannot tell whether the others are stuck: take a"
                    + " second dump a few seconds later and give both (what did not move between them is stuck)");
        }
        List<LockWait> stuckLocks =
                previous == null ? List.of() : stuck(locks, locks(previous, Map.of(), Map.of()), unmovedIds, deadlocks);
        return new ThreadAnalysis(
                dump,
                previous,
                groups(dump),
                locks,
                deadlocks,
                stuckLocks,
                starvation,
                unmoved,
                List.copyOf(cannotTell));
    }

    /**
     * Whether {@code w} is a monitor its waiters are blocked entering that no thread owned in this dump or the one
     * before, where the dumps record monitors' owners (JDK 25+): a free monitor no waiter gets.
     */
    public boolean ownerless(LockWait w) {
        return w.owner() == null
                && previous != null
                && dump.hasState()
                && previous.hasState()
                && w.waiters().stream().allMatch(t -> w.lock().equals(t.blockedOn()))
                && previous.threads().stream()
                        .flatMap(t -> t.monitors().stream())
                        .noneMatch(m -> m.lock().equals(w.lock()));
    }

    /** Whether anything was found that stops threads for good: a deadlock or carrier starvation. */
    public boolean stuck() {
        return !deadlocks.isEmpty() || starvation.found();
    }

    /** The time between the earlier dump and this one, or null. */
    public Duration between() {
        return previous == null || previous.time() == null || dump.time() == null
                ? null
                : Duration.between(previous.time(), dump.time());
    }

    private static List<Group> groups(ThreadDump dump) {
        Map<List<Object>, List<DumpThread>> byStack = new LinkedHashMap<>();
        for (DumpThread t : dump.threads()) {
            byStack.computeIfAbsent(
                            List.of(t.kind(), Objects.toString(t.state(), ""), t.stack()), k -> new ArrayList<>())
                    .add(t);
        }
        List<Group> groups = new ArrayList<>();
        byStack.forEach((k, ts) -> groups.add(new Group(
                ts.size(),
                ts.get(0).kind(),
                ts.get(0).state(),
                ts.get(0).stack(),
                ts.stream().limit(3).map(DumpThread::label).toList())));
        groups.sort(Comparator.comparingInt(Group::count).reversed());
        return List.copyOf(groups);
    }

    /**
     * The locks one thread holds at a time that every thread waiting for in the earlier dump ({@code before}) still
     * waits for, where it was: none of them got it between the two dumps. Those of a deadlock found are left out (said
     * as one).
     */
    private static List<LockWait> stuck(
            List<LockWait> now, List<LockWait> before, Set<Long> unmoved, List<List<Link>> deadlocks) {
        Set<String> inCycles = new HashSet<>();
        deadlocks.forEach(c -> c.forEach(l -> inCycles.add(l.lock())));
        Map<String, Set<Long>> waitedBefore = new HashMap<>();
        before.forEach(w -> waitedBefore.put(w.lock(), tids(w.waiters())));
        return now.stream()
                .filter(w -> exclusive(w.lock())
                        && !inCycles.contains(w.lock())
                        && waitedBefore.containsKey(w.lock())
                        && tids(w.waiters()).containsAll(waitedBefore.get(w.lock()))
                        && unmoved.containsAll(waitedBefore.get(w.lock())))
                .toList();
    }

    private static Set<Long> tids(List<DumpThread> threads) {
        Set<Long> ids = new HashSet<>();
        threads.forEach(t -> ids.add(t.tid()));
        return ids;
    }

    /**
     * A lock one thread holds at a time: a monitor, a ReentrantLock, a ReentrantReadWriteLock (its synchronizer,
     * {@code ...ReentrantLock$NonfairSync@1b75}), or one a JDK 21-24 dump shows only on a stack ({@link #STACK_LOCK});
     * not a condition a pool's idle threads wait on.
     */
    public static boolean exclusive(String lock) {
        return !lock.startsWith("java.util.concurrent.")
                || lock.startsWith("java.util.concurrent.locks.ReentrantLock$")
                || lock.startsWith("java.util.concurrent.locks.ReentrantReadWriteLock$")
                || lock.startsWith(STACK_LOCK);
    }

    /** How a lock a JDK 21-24 dump records no blocker for is named: by where its waiters wait. */
    static final String STACK_LOCK = "java.util.concurrent.locks.ReentrantLock (the dump names no object) taken at ";

    /**
     * The JDK frames of waiting for an exclusive j.u.c lock, which a JDK 21-24 stack shows where its dump records no
     * blocker.
     */
    private static final Set<String> LOCKING = Set.of(
            "java.util.concurrent.locks.ReentrantLock.lock",
            "java.util.concurrent.locks.ReentrantLock.lockInterruptibly",
            "java.util.concurrent.locks.ReentrantReadWriteLock$WriteLock.lock",
            "java.util.concurrent.locks.ReentrantReadWriteLock$ReadLock.lock");

    /** The lock a thread without a recorded blocker waits for, as its stack shows it, or null. */
    private static String stackLock(DumpThread t) {
        for (String frame : t.stack().subList(0, Math.min(12, t.stack().size()))) {
            if (LOCKING.contains(DumpFrames.methodOf(frame))) {
                return STACK_LOCK + DumpFrames.describe(t.stack());
            }
        }
        return null;
    }

    /** A park blocker that is a lock (a j.u.c synchronizer), not a pool's or a queue's idle wait. */
    private static boolean isLock(String parkBlocker) {
        return parkBlocker != null
                && (parkBlocker.startsWith("java.util.concurrent.locks.") || parkBlocker.contains("Sync@"));
    }

    private static List<LockWait> locks(
            ThreadDump dump, Map<Long, DumpThread> byId, Map<String, DumpThread> monitorOwner) {
        Map<List<String>, List<DumpThread>> waiters = new LinkedHashMap<>();
        for (DumpThread t : dump.threads()) {
            if (t.blockedOn() != null) {
                waiters.computeIfAbsent(List.of(t.blockedOn(), "blocked entering the monitor"), k -> new ArrayList<>())
                        .add(t);
            } else if (isLock(t.parkBlocker())) {
                waiters.computeIfAbsent(List.of(t.parkBlocker(), "parked on the lock"), k -> new ArrayList<>())
                        .add(t);
            } else if (!dump.hasState() && t.parkBlocker() == null) {
                String onStack = stackLock(t);
                if (onStack != null) {
                    waiters.computeIfAbsent(List.of(onStack, "parked on the lock"), k -> new ArrayList<>())
                            .add(t);
                }
            }
        }
        List<LockWait> out = new ArrayList<>();
        waiters.forEach((k, ts) -> {
            DumpThread owner = monitorOwner.get(k.get(0));
            if (owner == null && ts.get(0).parkOwner() != null) {
                owner = byId.get(ts.get(0).parkOwner());
            }
            out.add(new LockWait(k.get(0), k.get(1), owner, List.copyOf(ts)));
        });
        out.sort(Comparator.comparingInt((LockWait w) -> w.waiters().size()).reversed());
        return List.copyOf(out);
    }

    /**
     * The lock a thread waits for and its owner, or null: a monitor it is blocked on, or a j.u.c lock whose owner the
     * dump records.
     */
    private static Link waitsFor(DumpThread t, Map<Long, DumpThread> byId, Map<String, DumpThread> monitorOwner) {
        if (t.blockedOn() != null && monitorOwner.containsKey(t.blockedOn())) {
            return new Link(t, t.blockedOn(), monitorOwner.get(t.blockedOn()));
        }
        if (t.parkBlocker() != null && t.parkOwner() != null && byId.containsKey(t.parkOwner())) {
            return new Link(t, t.parkBlocker(), byId.get(t.parkOwner()));
        }
        return null;
    }

    private static List<List<Link>> cycles(
            ThreadDump dump, Map<Long, DumpThread> byId, Map<String, DumpThread> monitorOwner) {
        List<List<Link>> cycles = new ArrayList<>();
        Set<Long> done = new HashSet<>();
        for (DumpThread start : dump.threads()) {
            List<Link> path = new ArrayList<>();
            Map<Long, Integer> onPath = new HashMap<>();
            DumpThread t = start;
            while (t != null && !done.contains(t.tid()) && !onPath.containsKey(t.tid())) {
                onPath.put(t.tid(), path.size());
                Link l = waitsFor(t, byId, monitorOwner);
                if (l == null) {
                    break;
                }
                path.add(l);
                t = l.owner();
            }
            if (t != null && onPath.containsKey(t.tid()) && onPath.get(t.tid()) < path.size()) {
                cycles.add(List.copyOf(path.subList(onPath.get(t.tid()), path.size())));
            }
            done.addAll(onPath.keySet());
        }
        return List.copyOf(cycles);
    }

    /**
     * @param previous an earlier dump, or null: a carrier that ran another virtual thread then (JDK 25+ dumps name it)
     *     is moving, whatever the one it runs now looks like
     */
    private static Starvation starvation(
            ThreadDump dump, Map<Long, DumpThread> byId, Set<Long> unmoved, ThreadDump previous) {
        Map<Long, Long> mountedBefore = new HashMap<>(); // carrier id -> virtual thread id, in the earlier dump
        if (previous != null) {
            previous.threads().stream()
                    .filter(t -> t.carrier() != null)
                    .forEach(t -> mountedBefore.put(t.carrier(), t.tid()));
        }
        // the scheduler's carriers: the pool workers of the containers whose threads run virtual threads
        Set<String> pools = new HashSet<>();
        Map<Long, DumpThread> mountedOn = new LinkedHashMap<>(); // carrier id -> virtual thread (JDK 25+)
        for (DumpThread t : dump.threads()) {
            if (t.carrier() != null && byId.containsKey(t.carrier())) {
                mountedOn.put(t.carrier(), t);
                pools.add(byId.get(t.carrier()).container());
            }
            if (Boolean.FALSE.equals(t.virtual()) && DumpFrames.runsVirtualThread(t.stack())) {
                pools.add(t.container());
            }
        }
        List<DumpThread> carriers = dump.threads().stream()
                .filter(t -> pools.contains(t.container())
                        && WORKER.matcher(t.name()).matches())
                .toList();
        List<DumpThread> busy = carriers.stream()
                .filter(c -> mountedOn.containsKey(c.tid()) || DumpFrames.runsVirtualThread(c.stack()))
                .toList();
        List<DumpThread> waiting = dump.threads().stream()
                .filter(t -> dump.hasState()
                        ? Boolean.TRUE.equals(t.virtual()) && "RUNNABLE".equals(t.state()) && t.carrier() == null
                        : !Boolean.FALSE.equals(t.virtual()) && t.stack().isEmpty() && !DumpFrames.jvmThread(t.name()))
                .toList(); // JDK 21-24: only those not run yet
        List<Held> held = new ArrayList<>();
        if (dump.hasState()) {
            for (DumpThread c : busy) {
                DumpThread v = mountedOn.get(c.tid());
                boolean moved = v != null && previous != null && !Objects.equals(mountedBefore.get(c.tid()), v.tid());
                String why = v == null || moved ? null : heldBy(v, unmoved.contains(v.tid()), true);
                if (why != null) {
                    held.add(new Held(c.label(), v, why));
                }
            }
        } else {
            held.addAll(heldOnStacks(dump, unmoved));
        }
        boolean allBusy = !carriers.isEmpty() && busy.size() == carriers.size();
        // starvation needs virtual threads seen waiting for a carrier: JDK 25+ shows those waiting to run; a JDK 21-24
        // dump only those
        // not started yet, so without such there it cannot tell
        boolean found = allBusy && held.size() >= busy.size() && !waiting.isEmpty();
        boolean possible = allBusy && !found && (!dump.hasState() || !held.isEmpty() || !waiting.isEmpty());
        List<DumpThread> mounted = dump.hasState()
                ? List.copyOf(mountedOn.values())
                : dump.threads().stream()
                        .filter(v -> Boolean.TRUE.equals(v.virtual())
                                && !v.stack().isEmpty()
                                && !DumpFrames.unmounted(v.stack()))
                        .toList();
        return new Starvation(carriers.size(), busy.size(), List.copyOf(held), waiting, mounted, found, possible);
    }

    /**
     * In a JDK 21-24 dump, which does not say which carrier runs which virtual thread: those its stacks show on a
     * carrier and held.
     */
    private static List<Held> heldOnStacks(ThreadDump dump, Set<Long> unmoved) {
        List<Held> held = new ArrayList<>();
        for (DumpThread v : dump.threads()) {
            if (Boolean.TRUE.equals(v.virtual()) && !v.stack().isEmpty() && !DumpFrames.unmounted(v.stack())) {
                String why = heldBy(v, unmoved.contains(v.tid()), false);
                if (why != null) {
                    held.add(new Held("a carrier (the dump does not say which)", v, why));
                }
            }
        }
        return held;
    }

    /** Why a mounted virtual thread cannot go on and keeps its carrier, or null when it may be running. */
    private static String heldBy(DumpThread v, boolean unmoved, boolean hasState) {
        String clinit = DumpFrames.classInitializer(v.stack());
        String pin = clinit != null
                ? "pinned in the class initializer " + DumpFrames.brief(clinit)
                : DumpFrames.nativeFrame(v.stack()) != null
                        ? "pinned by the native frame " + DumpFrames.brief(DumpFrames.nativeFrame(v.stack()))
                        : !v.monitors().isEmpty()
                                ? "holding the monitor " + v.monitors().get(0).lock()
                                : hasState
                                        ? "pinned"
                                        : "pinned (a JDK 21-24 dump does not say by what: on JDK 21-23 a synchronized"
                                                + " frame on its stack, most often)";
        if (DumpFrames.inVm(v.stack())) {
            return "waiting inside the VM with no Java frame (for a class another thread initialises, most often)";
        }
        if (DumpFrames.parkedOnCarrier(v.stack())) {
            return pin + ", parked on its carrier in " + DumpFrames.describe(v.stack());
        }
        if (v.blockedOn() != null) {
            return pin + ", blocked entering the monitor " + v.blockedOn() + " in " + DumpFrames.describe(v.stack());
        }
        if (hasState && v.state() != null && !v.state().equals("RUNNABLE")) {
            return pin + ", " + v.state() + " in " + DumpFrames.describe(v.stack());
        }
        if (unmoved) {
            return "did not move between the two dumps, at " + DumpFrames.describe(v.stack());
        }
        return null;
    }

    /** The threads of {@code later} with the same state and non-empty stack in {@code earlier}. */
    private static Set<Long> unmovedIds(ThreadDump earlier, ThreadDump later) {
        Map<Long, DumpThread> before = new HashMap<>();
        earlier.threads().forEach(t -> before.put(t.tid(), t));
        Set<Long> same = new HashSet<>();
        for (DumpThread t : later.threads()) {
            DumpThread b = before.get(t.tid());
            if (b != null
                    && !t.stack().isEmpty()
                    && b.stack().equals(t.stack())
                    && Objects.equals(b.state(), t.state())) {
                same.add(t.tid());
            }
        }
        return same;
    }
}
