package dev.loomscope.analyzer.watch;

import dev.loomscope.recording.Frame;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The conditions {@code watch} raises, each once per episode: it is raised when first seen and may
 * be raised again only after {@link #CLEARED} refreshes without it. The limits are the command's options.
 *
 * @param pinRate      pins a second above which pinning is raised
 * @param pinnedShare  share of the carriers' time pinned above which pinning is raised
 * @param spinShare    share of the virtual threads' CPU samples in a spin frame from which yield-spin is raised
 * @param parked       virtual threads parked at one place from which pool-ceiling is raised
 * @param queueSeconds refreshes in a row the queue grows, all carriers mounted, before queue-growth is raised (at
 *                     {@link #MIN_QUEUED} queued or more)
 */
record Alarms(double pinRate, double pinnedShare, double spinShare, int parked, int queueSeconds, State state) {
    /** Fewer spinning CPU samples than this over the window say nothing of a spin. */
    static final int MIN_SPIN_SAMPLES = 3;
    /** A queue shorter than this is a scheduler at work, not one falling behind, however it grows. */
    static final long MIN_QUEUED = 100;
    /** Refreshes without a condition that end its episode: it may be raised again after. */
    static final int CLEARED = 3;
    /** Refreshes the yield-spin alarm looks back over. */
    static final int SPIN_WINDOW = 5;

    Alarms(double pinRate, double pinnedShare, double spinShare, int parked, int queueSeconds) {
        this(pinRate, pinnedShare, spinShare, parked, queueSeconds, new State());
    }

    /** What persists between ticks: the kinds raised and not yet cleared, the queue's growth. */
    static final class State {
        final Set<String> active = new HashSet<>();
        /** Refreshes in a row an active kind was not seen. */
        final Map<String, Integer> absent = new HashMap<>();
        /** The last {@link #SPIN_WINDOW} intervals: CPU samples are few a second (JFR samples a few threads a period). */
        final java.util.ArrayDeque<Interval> recent = new java.util.ArrayDeque<>();
        long lastQueued = -1;
        int growing;
        Instant growingSince;
    }

    /** The alarms this tick begins (an interval's events in {@code in}). */
    List<Alarm> check(Tick t, Interval in) {
        List<Alarm> raised = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        // the kinds this refresh can say nothing of, either way: their episode neither goes on nor ends on it
        Set<String> undecided = new HashSet<>();
        pins(t, in, raised, seen);
        spin(t, in, raised, seen, undecided);
        queue(t, in, raised, seen);
        for (String kind : List.of(Alarm.PINS, Alarm.SPIN, Alarm.QUEUE)) {
            if (seen.contains(kind)) {
                state.absent.remove(kind);
            } else if (!undecided.contains(kind) && state.active.contains(kind) && state.absent.merge(kind, 1, Integer::sum) >= CLEARED) {
                state.active.remove(kind); // an episode ends after CLEARED refreshes without it: one that comes and goes is one episode
                state.absent.remove(kind);
            }
        }
        return raised;
    }

    /** The pinning alarm: pins a second or the carriers' pinned share past its limit. */
    private void pins(Tick t, Interval in, List<Alarm> raised, Set<String> seen) {
        double rate = t.pins() / t.seconds();
        double share = t.pinnedShare();
        if (t.pins() > 0 && (rate > pinRate || (!Double.isNaN(share) && share > pinnedShare))) {
            seen.add(Alarm.PINS);
            Tick.Pin top = t.topPins().get(0);
            var group = in.pins.groups().get(top.frame());
            raise(raised, new Alarm(Alarm.PINS, t.at(), String.format(Locale.ROOT, "%,.1f pins/s, %s of %d carriers' time pinned (limits %s/s, %s)",
                    rate, Tick.percent(share), t.parallelism(), trim(pinRate), Tick.percent(pinnedShare)),
                    top.frame() + (top.reasons().isEmpty() ? "" : " (" + String.join(", ", top.reasons()) + ")"),
                    group == null ? List.of() : group.stack.stream().limit(12).map(Frame::text).toList()));
        }
    }

    /** The yield-spin alarm, over the last {@link #SPIN_WINDOW} intervals; undecided when they hold too few samples. */
    private void spin(Tick t, Interval in, List<Alarm> raised, Set<String> seen, Set<String> undecided) {
        state.recent.addLast(in);
        if (state.recent.size() > SPIN_WINDOW) {
            state.recent.removeFirst();
        }
        long spinning = state.recent.stream().mapToLong(i -> i.spinSamples).sum();
        long virtual = state.recent.stream().mapToLong(i -> i.virtualSamples).sum();
        long all = state.recent.stream().mapToLong(i -> i.samples).sum();
        long scheduler = state.recent.stream().mapToLong(i -> i.schedulerSamples).sum();
        if (virtual < MIN_SPIN_SAMPLES) {
            undecided.add(Alarm.SPIN); // too few virtual threads' samples to tell (a busy machine's sampler reaches few threads)
        } else if (spinning >= MIN_SPIN_SAMPLES && (double) spinning / virtual >= spinShare) {
            seen.add(Alarm.SPIN);
            Map<String, Long> callers = new HashMap<>();
            Map<String, List<Frame>> stacks = new HashMap<>();
            state.recent.forEach(i -> {
                i.spinCallers.forEach((k, n) -> callers.merge(k, n, Long::sum));
                i.spinStacks.forEach(stacks::putIfAbsent);
            });
            String caller = callers.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            raise(raised, new Alarm(Alarm.SPIN, t.at(), String.format(Locale.ROOT,
                    "%s of the virtual threads' CPU samples (%d of %d over the last %d refreshes) are in Thread.yield or Thread.onSpinWait, and %s"
                            + " of all samples are carriers in the scheduler: carriers busy spinning, not working (limit %s)",
                    Tick.percent((double) spinning / virtual), spinning, virtual, state.recent.size(), Tick.percent(all > 0 ? (double) scheduler / all : Double.NaN),
                    Tick.percent(spinShare)), caller, stacks.get(caller).stream().map(Frame::text).toList()));
        }
    }

    /** The queue-growth alarm: the scheduler's queue longer refresh after refresh while every carrier is mounted. */
    private void queue(Tick t, Interval in, List<Alarm> raised, Set<String> seen) {
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
            if (state.growing >= queueSeconds && s.queued() >= MIN_QUEUED) {
                seen.add(Alarm.QUEUE);
                raise(raised, new Alarm(Alarm.QUEUE, state.growingSince, String.format(Locale.ROOT,
                        "the scheduler's queue grew %d refreshes in a row to %,d while all %d carriers were mounted", state.growing, s.queued(),
                        s.parallelism()), busiest(t, in), List.of()));
            } else if (state.active.contains(Alarm.QUEUE) && state.growing > 0) {
                seen.add(Alarm.QUEUE); // still growing: the episode goes on
            }
        }
    }

    /**
     * What holds the carriers, as far as this interval tells: the pins' frame, else the spin's
     * caller, else the application frame the virtual threads' CPU samples were in most.
     */
    private static String busiest(Tick t, Interval in) {
        if (!t.topPins().isEmpty()) {
            return "pinned at " + t.topPins().get(0).frame();
        }
        return in.spinCallers.entrySet().stream().max(Map.Entry.comparingByValue()).map(e -> "spinning at " + e.getKey())
                .or(() -> in.running.entrySet().stream().max(Map.Entry.comparingByValue()).map(e -> "running at " + e.getKey())).orElse(null);
    }

    /**
     * Pool-ceiling alarms from a thread dump's parked virtual threads by where they wait
     * ({@code parkedAt}: place -> count and a stack), for places with at least {@link #parked}.
     */
    List<Alarm> parked(Instant at, Map<String, Integer> parkedAt, Map<String, List<String>> stacks) {
        List<Alarm> raised = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        parkedAt.entrySet().stream().filter(e -> e.getValue() >= parked).sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> {
                    String kind = Alarm.POOL + ":" + e.getKey();
                    seen.add(kind);
                    if (state.active.add(kind)) {
                        raised.add(new Alarm(Alarm.POOL, at, String.format(Locale.ROOT,
                                "%,d virtual threads parked at one place (limit %,d): a pool or lock smaller than the threads that want it", e.getValue(),
                                parked), e.getKey(), stacks.get(e.getKey())));
                    }
                });
        state.active.removeIf(k -> k.startsWith(Alarm.POOL + ":") && !seen.contains(k));
        return raised;
    }

    private void raise(List<Alarm> raised, Alarm a) {
        if (state.active.add(a.kind())) {
            raised.add(a);
        }
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** The parked virtual threads of a dump by where they wait; {@code stacks} gets one stack each. */
    static Map<String, Integer> byPlace(List<dev.loomscope.analyzer.threads.ThreadDump.DumpThread> threads, Map<String, List<String>> stacks) {
        Map<String, Integer> out = new HashMap<>();
        for (var t : threads) {
            if (!Boolean.TRUE.equals(t.virtual()) || !parkedStack(t.stack())) {
                continue;
            }
            String where = dev.loomscope.analyzer.threads.DumpFrames.describe(t.stack());
            out.merge(where, 1, Integer::sum);
            stacks.putIfAbsent(where, t.stack().stream().limit(12).toList());
        }
        return out;
    }

    private static boolean parkedStack(List<String> stack) {
        return stack.stream().limit(8).anyMatch(f -> f.contains(".park(") || f.contains(".parkNanos(") || f.contains("VirtualThread.park"));
    }
}
