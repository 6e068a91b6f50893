package dev.loomscope.analyzer.reduce;

import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.flamegraphs.render.SampleFrames;
import dev.loomscope.recording.JdkFrames;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.RawFrame;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * CPU samples by thread, as far as the recording can attribute them to virtual threads and their carriers. JFR's
 * samplers (engine=jfr, jfr-cpu-time) sample a virtual thread as itself (its thread is marked virtual, with its Java
 * thread id and the name it was given, usually none; no carrier): those samples are grouped by name and the code the
 * virtual thread runs, its first application frame. async-profiler samples the carrier (an OS thread): a carrier's
 * samples are split into virtual threads' code, mounting and unmounting them (the continuation's yield, freeze and
 * thaw) and the scheduler's own work between them; which virtual thread ran is not recorded. Other threads are platform
 * threads (with Java frames) or the JVM's own (compiler, GC: native frames only).
 *
 * <p>A recording with both (JFR's samples of the virtual threads and async-profiler's of their carriers) is joined
 * ({@link #joined}): a carrier's sample in virtual threads' code is the virtual thread's that JFR sampled within
 * {@link #JOIN_WINDOW_NANOS} running the same two innermost Java frames, when exactly one did; the rest is said as
 * ambiguous (several did) or unmatched.
 */
public final class ThreadCpu {
    public static final String VIRTUAL = "virtual threads";
    public static final String CARRIER = "carrier";
    public static final String PLATFORM = "platform";
    public static final String JVM = "JVM";

    /**
     * How far apart in time a carrier's sample and a virtual thread's may be to be joined: JFR's default execution
     * sampling period.
     */
    public static final long JOIN_WINDOW_NANOS = 20_000_000L;

    /**
     * Samples kept for the join, each side (24 bytes a sample: at most 24 MB a side, which a recording of one engine
     * alone also spends on its side); beyond it, the join says it is of those kept.
     */
    static final int JOIN_LIMIT = 1_000_000;

    /** async-profiler's CPU samples carry this state (JFR's own, RUNNABLE or CPU-time). */
    private static final String PROFILER_STATE = "STATE_DEFAULT";

    private final FlameOptions options;
    /** JFR's samples of virtual threads, for the join: time, frames key, group, thread id. */
    private final JoinSamples virtualThreadSamples = new JoinSamples();
    /**
     * async-profiler's samples of carriers in virtual threads' code, for the join: time, frames key, carrier, weight.
     */
    private final JoinSamples carrierSamples = new JoinSamples();

    private final Map<String, Integer> names = new HashMap<>();
    private final List<String> nameList = new ArrayList<>();
    /** The joins of the recordings merged into this one ({@link #addAll}), by virtual threads and carrier. */
    private final Map<List<String>, Long> joinedElsewhere = new TreeMap<>(Comparator.comparing(Object::toString));

    private final long[] joinCountsElsewhere = new long[4];
    /** Whether a recording merged into this one kept fewer samples than it had for its join. */
    private boolean incompleteElsewhere;
    /** Per thread state (the CPU state is chosen at the end, as the CPU graph chooses it): the groups by key. */
    private final Map<String, Map<String, Group>> byState = new TreeMap<>();

    private final Map<String, Long> samplesByState = new TreeMap<>();
    /** JFR's CPU samples as the carriers spend them: virtual threads' spins, the scheduler's churn. */
    private final CarrierCpu carrierCpu = new CarrierCpu();
    /** Each distinct stack classified once: keyed by the reader's frames list, one object per stack of a chunk. */
    private final Map<List<RawFrame>, Stack> stacks = new IdentityHashMap<>();

    /** A thread, or the virtual threads that run the same code. */
    private static final class Group {
        final String name;
        final boolean virtualThreads;
        final Set<Long> threadIds = new HashSet<>();
        long samples;
        long virtualCode;
        long mounting;
        long other;
        boolean javaFrames;
        boolean schedulerFrames;

        Group(String name, boolean virtualThreads) {
            this.name = name;
            this.virtualThreads = virtualThreads;
        }

        String kind() {
            return virtualThreads
                    ? VIRTUAL
                    : virtualCode + mounting > 0 || schedulerFrames ? CARRIER : javaFrames ? PLATFORM : JVM;
        }

        void addAll(Group g) {
            threadIds.addAll(g.threadIds);
            samples += g.samples;
            virtualCode += g.virtualCode;
            mounting += g.mounting;
            other += g.other;
            javaFrames |= g.javaFrames;
            schedulerFrames |= g.schedulerFrames;
        }
    }

    /**
     * What a stack says: virtual thread's code (and whether in mounting it), Java frames, the code a virtual thread
     * runs, and its two innermost Java frames (the join's key).
     */
    private record Stack(
            boolean virtual,
            boolean mounting,
            boolean javaFrames,
            boolean schedulerFrames,
            String code,
            String innermostJava) {}

    private static final Stack NO_STACK = new Stack(false, false, false, false, "(no stack trace)", "");

    /** Samples in columns, grown as they come: epoch nanoseconds, a frames key, a name, and a thread id or weight. */
    private static final class JoinSamples {
        long[] time = new long[1024];
        int[] key = new int[1024];
        int[] name = new int[1024];
        long[] value = new long[1024];
        int size;
        boolean overflowed;

        void add(long t, int k, int n, long v) {
            if (size == JOIN_LIMIT) {
                overflowed = true;
                return;
            }
            if (size == time.length) {
                time = Arrays.copyOf(time, size * 2);
                key = Arrays.copyOf(key, size * 2);
                name = Arrays.copyOf(name, size * 2);
                value = Arrays.copyOf(value, size * 2);
            }
            time[size] = t;
            key[size] = k;
            name[size] = n;
            value[size] = v;
            size++;
        }
    }

    private int id(String name) {
        return names.computeIfAbsent(name, n -> {
            nameList.add(n);
            return nameList.size() - 1;
        });
    }

    /** @param options the window (--from, --to) */
    public ThreadCpu(FlameOptions options) {
        this.options = options;
    }

    /** One execution sample of a recording whose chunks span {@code span}; other events are ignored. */
    public void add(JfrEvent e, RecordingSpan span) {
        if (!FlameSamples.EXECUTION.contains(e.type()) || !SampleFrames.inWindow(options, e, span)) {
            return;
        }
        carrierCpu.add(e);
        String state = SampleFrames.executionState(e);
        long n = SampleFrames.weight(e);
        samplesByState.merge(state, n, Long::sum);
        String field = SampleFrames.threadField(e);
        Stack stack = stackOf(e);
        String code = stack.code();
        Map<String, Group> groups = byState.computeIfAbsent(state, s -> new HashMap<>());
        Group g;
        if (Boolean.TRUE.equals(e.threadIsVirtual(field))) {
            String name = e.threadName(field);
            String shown = name == null || name.isEmpty() ? "running " + code : name + " running " + code;
            g = groups.computeIfAbsent("v " + shown, k -> new Group(shown, true));
            long id = e.javaThreadId(field);
            g.threadIds.add(id);
            if (!state.equals(PROFILER_STATE) && !stack.innermostJava().isEmpty()) {
                virtualThreadSamples.add(epochNanos(e), id(stack.innermostJava()), id(shown), id);
            }
        } else {
            long tid = e.threadId(field);
            String name = e.threadDisplayName(field);
            String shown = name == null ? "[tid=" + tid + "]" : name;
            g = groups.computeIfAbsent("t " + tid + " " + shown, k -> new Group(shown, false));
            g.threadIds.add(tid);
            if (state.equals(PROFILER_STATE) && stack.virtual() && !stack.mounting()) {
                carrierSamples.add(
                        epochNanos(e), stack.innermostJava().isEmpty() ? -1 : id(stack.innermostJava()), id(shown), n);
            }
        }
        g.samples += n;
        g.javaFrames |= stack.javaFrames();
        g.schedulerFrames |= stack.schedulerFrames();
        if (stack.virtual() && stack.mounting()) {
            g.mounting += n;
        } else if (stack.virtual()) {
            g.virtualCode += n;
        } else {
            g.other += n;
        }
    }

    /** The sample's stack, classified once for each distinct stack. */
    private Stack stackOf(JfrEvent e) {
        List<RawFrame> frames = e.rawFrames();
        Stack stack = frames == null ? NO_STACK : stacks.get(frames);
        if (stack == null) {
            if (stacks.size() >= 100_000) {
                stacks.clear(); // the stacks of chunks handed on long ago
            }
            stack = classify(frames, e.nativeFramesAreC());
            stacks.put(frames, stack);
        }
        return stack;
    }

    private static long epochNanos(JfrEvent e) {
        Instant t = e.startTime();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * The CPU samples of {@code sources}, read with loomscope's reader; each recording's engines joined apart
     * ({@link #joined}).
     */
    public static ThreadCpu of(List<RecordingSource> sources, FlameOptions options, Consumer<String> warnings) {
        if (sources.size() == 1) {
            ThreadCpu one = new ThreadCpu(options);
            RecordingReader.events(sources.get(0), FlameSamples.EXECUTION, warnings, one::add, counts -> {});
            return one;
        }
        ThreadCpu all = new ThreadCpu(options);
        for (var source : sources) {
            all.addAll(of(List.of(source), options, warnings));
        }
        return all;
    }

    /** These samples and {@code other}'s (another recording's: its engines joined apart, {@link #joined}). */
    public void addAll(ThreadCpu other) {
        Joined j = other.joined();
        if (j != null) {
            j.rows()
                    .forEach(r ->
                            joinedElsewhere.merge(List.of(r.virtualThreads(), r.carrier()), r.samples(), Long::sum));
            joinCountsElsewhere[0] += j.carrierSamples();
            joinCountsElsewhere[1] += j.joined();
            joinCountsElsewhere[2] += j.ambiguous();
            joinCountsElsewhere[3] += j.unmatched();
            incompleteElsewhere |= !j.complete();
        }
        carrierCpu.merge(other.carrierCpu);
        other.samplesByState.forEach((s, n) -> samplesByState.merge(s, n, Long::sum));
        other.byState.forEach((s, groups) -> {
            Map<String, Group> mine = byState.computeIfAbsent(s, x -> new HashMap<>());
            groups.forEach((k, g) -> mine.computeIfAbsent(k, x -> new Group(g.name, g.virtualThreads))
                    .addAll(g));
        });
    }

    private static Stack classify(List<RawFrame> frames, boolean nativeIsC) {
        boolean virtual = SampleFrames.isVirtual(frames);
        boolean java = false;
        boolean vthreadFrames = false;
        for (RawFrame f : frames) {
            java |= SampleFrames.isJava(f, nativeIsC);
            vthreadFrames |= f.internalClassName().equals("java/lang/VirtualThread");
        }
        // a carrier between virtual threads (JFR samples a mounted virtual thread as itself, its carrier only outside
        // one): a
        // scheduler's worker thread running the virtual thread machinery, not a thread that merely starts virtual
        // threads
        String root = frames.isEmpty() ? "" : frames.get(frames.size() - 1).internalClassName();
        boolean scheduler = vthreadFrames && JdkFrames.isSchedulerWorker(root);
        return new Stack(
                virtual,
                virtual && mounting(frames, nativeIsC),
                java,
                scheduler,
                code(frames),
                innermostJava(frames, nativeIsC));
    }

    /**
     * The two innermost Java frames, as the flame graph names them: what a carrier's sample and a virtual thread's must
     * share to be joined.
     */
    private static String innermostJava(List<RawFrame> frames, boolean nativeIsC) {
        StringBuilder key = new StringBuilder();
        int found = 0;
        for (RawFrame f : frames) {
            if (SampleFrames.isJava(f, nativeIsC)) {
                key.append(FlameRenderer.methodName(f.internalClassName(), f.methodName(), false, true))
                        .append(';');
                if (++found == 2) {
                    break;
                }
            }
        }
        return key.toString();
    }

    /**
     * Whether the sample caught the continuation machinery: from the leaf down to the first other Java frame, a frame
     * of Continuation or VirtualThread, or the VM's freeze, thaw or return barrier.
     */
    private static boolean mounting(List<RawFrame> frames, boolean nativeIsC) {
        for (RawFrame f : frames) {
            String c = f.internalClassName();
            if (c.equals("jdk/internal/vm/Continuation") || c.equals("java/lang/VirtualThread")) {
                return true;
            }
            if (SampleFrames.isJava(f, nativeIsC)) {
                return false;
            }
            String m = f.methodName();
            if (m.contains("Continuation")
                    || m.contains("Thaw")
                    || m.contains("Freeze")
                    || m.contains("thaw")
                    || m.contains("freeze")
                    || m.contains("cont_")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The code a virtual thread runs: from its entry (VirtualThread.run, the continuation's entry) towards the leaf,
     * the first frame of a class outside the JDK, lambda proxies skipped; else the frame its entry calls; frames as the
     * flame graph names them.
     */
    static String code(List<RawFrame> frames) {
        int entry = frames.size();
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (SampleFrames.threadEntry(frames.get(i)) || SampleFrames.continuationEntry(frames.get(i))) {
                entry = i;
                break;
            }
        }
        for (int i = entry - 1; i >= 0; i--) {
            RawFrame f = frames.get(i);
            String c = f.internalClassName();
            if (!c.isEmpty() && !c.contains("$$Lambda") && !JdkFrames.isJdk(c)) {
                return FlameRenderer.methodName(c, f.methodName(), false, true);
            }
        }
        if (entry > 0 && entry < frames.size()) {
            RawFrame f = frames.get(entry - 1);
            return FlameRenderer.methodName(f.internalClassName(), f.methodName(), false, true) + " (JDK code only)";
        }
        return "(no application frame)";
    }

    /**
     * The CPU samples' thread state (async-profiler's, else JFR's CPU-time sampler's, else its execution sampler's).
     */
    private String cpuState() {
        return FlameSamples.cpuState(samplesByState);
    }

    /** JFR's CPU samples as the carriers spend them (the samples in the window). */
    public CarrierCpu carrierCpu() {
        return carrierCpu;
    }

    /** All CPU samples read. */
    public long total() {
        return samplesByState.getOrDefault(cpuState(), 0L);
    }

    /**
     * A thread, or the virtual threads of one name and code: its kind, how many threads, its CPU samples, and of them
     * those in virtual threads' code, in mounting and unmounting them, and the rest (a carrier's: the scheduler).
     */
    public record Row(
            String name, String kind, int threads, long samples, long virtualCode, long mounting, long other) {}

    /** Every thread (group) with CPU samples, the most first. */
    public List<Row> rows() {
        return byState.getOrDefault(cpuState(), Map.of()).values().stream()
                .map(g -> new Row(
                        g.name,
                        g.kind(),
                        g.threadIds.size(),
                        g.samples,
                        g.virtualThreads ? g.samples - g.mounting : g.virtualCode,
                        g.mounting,
                        g.virtualThreads ? 0 : g.other))
                .sorted(Comparator.comparingLong((Row r) -> -r.samples()).thenComparing(Row::name))
                .toList();
    }

    /**
     * Carrier samples attributed to the virtual threads (grouped as {@link #rows} groups them) that ran on that
     * carrier.
     */
    public record JoinedRow(String virtualThreads, String carrier, long samples) {}

    /**
     * The join of async-profiler's carrier samples in virtual threads' code with JFR's samples of the virtual threads:
     * of {@code carrierSamples}, those {@code joined} to one virtual thread (rows, the most first), {@code ambiguous}
     * (several ran the same frames then) and {@code unmatched} (none did: JFR samples less often, and a virtual thread
     * that ran between its samples is not seen); {@code complete} false when a side had more samples than the join
     * keeps.
     */
    public record Joined(
            List<JoinedRow> rows, long carrierSamples, long joined, long ambiguous, long unmatched, boolean complete) {}

    /** The join of this recording's two engines, and of those merged into it; null when no recording had both. */
    public Joined joined() {
        Map<List<String>, Long> byPair = new TreeMap<>(Comparator.comparing(Object::toString));
        byPair.putAll(joinedElsewhere);
        long[] counts = joinCountsElsewhere.clone();
        boolean both = virtualThreadSamples.size > 0 && carrierSamples.size > 0;
        if (both) {
            join(byPair, counts);
        }
        if (!both && counts[0] == 0) {
            return null;
        }
        List<JoinedRow> rows = byPair.entrySet().stream()
                .map(x -> new JoinedRow(x.getKey().get(0), x.getKey().get(1), x.getValue()))
                .sorted(Comparator.comparingLong((JoinedRow r) -> -r.samples())
                        .thenComparing(JoinedRow::virtualThreads)
                        .thenComparing(JoinedRow::carrier))
                .toList();
        return new Joined(
                rows,
                counts[0],
                counts[1],
                counts[2],
                counts[3],
                !incompleteElsewhere && !virtualThreadSamples.overflowed && !carrierSamples.overflowed);
    }

    private void join(Map<List<String>, Long> byPair, long[] counts) {
        JoinSamples v = virtualThreadSamples;
        Integer[] order = new Integer[v.size];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong(i -> v.time[i]));
        long[] times = new long[order.length];
        for (int i = 0; i < order.length; i++) {
            times[i] = v.time[order[i]];
        }
        JoinSamples c = carrierSamples;
        for (int i = 0; i < c.size; i++) {
            long weight = c.value[i];
            counts[0] += weight;
            int from = Arrays.binarySearch(times, c.time[i] - JOIN_WINDOW_NANOS);
            from = from < 0 ? -from - 1 : from;
            while (from > 0 && times[from - 1] >= c.time[i] - JOIN_WINDOW_NANOS) {
                from--;
            }
            long thread = -1;
            int group = -1;
            boolean several = false;
            for (int k = from; k < times.length && times[k] <= c.time[i] + JOIN_WINDOW_NANOS; k++) {
                int s = order[k];
                if (v.key[s] != c.key[i] || c.key[i] < 0) {
                    continue;
                }
                if (thread >= 0 && v.value[s] != thread) {
                    several = true;
                    break;
                }
                thread = v.value[s];
                group = v.name[s];
            }
            if (several) {
                counts[2] += weight;
            } else if (thread < 0) {
                counts[3] += weight;
            } else {
                counts[1] += weight;
                byPair.merge(List.of(nameList.get(group), nameList.get(c.name[i])), weight, Long::sum);
            }
        }
    }
}
