package dev.loomscope.analyzer.reduce;

import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.recording.RecordingSpan;
import dev.loomscope.recording.fast.FastEvent;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * CPU samples by thread, as far as the recording can attribute them to virtual threads and their
 * carriers. JFR's samplers (engine=jfr, jfr-cpu-time) sample a virtual thread as itself (its
 * thread is marked virtual, with its Java thread id and the name it was given, usually none; no
 * carrier): those samples are grouped by name and the code the virtual thread runs, its first
 * application frame. async-profiler samples the carrier (an OS thread): a
 * carrier's samples are split into virtual threads' code, mounting and unmounting them (the
 * continuation's yield, freeze and thaw) and the scheduler's own work between them; which virtual
 * thread ran is not recorded. Other threads are platform threads (with Java frames) or the JVM's
 * own (compiler, GC: native frames only).
 */
public final class ThreadCpu {
    public static final String VIRTUAL = "virtual threads";
    public static final String CARRIER = "carrier";
    public static final String PLATFORM = "platform";
    public static final String JVM = "JVM";

    /** JDK classes: a virtual thread's first application frame is the first frame from its entry that is none of these. */
    private static final List<String> JDK_PACKAGES = List.of("java/", "javax/", "jdk/", "sun/", "com/sun/");

    private final FlameOptions options;
    /** Per thread state (the CPU state is chosen at the end, as the CPU graph chooses it): the groups by key. */
    private final Map<String, Map<String, Group>> byState = new TreeMap<>();
    private final Map<String, Long> samplesByState = new TreeMap<>();
    /** Each distinct stack classified once: keyed by the reader's frames list, one object per stack of a chunk. */
    private final Map<List<FastEvent.RawFrame>, Stack> stacks = new java.util.IdentityHashMap<>();

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
            return virtualThreads ? VIRTUAL : virtualCode + mounting > 0 || schedulerFrames ? CARRIER : javaFrames ? PLATFORM : JVM;
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

    /** What a stack says: virtual thread's code (and whether in mounting it), Java frames, and the code a virtual thread runs. */
    private record Stack(boolean virtual, boolean mounting, boolean javaFrames, boolean schedulerFrames, String code) {}

    private static final Stack NO_STACK = new Stack(false, false, false, false, "(no stack trace)");

    /** @param options the window (--from, --to) */
    public ThreadCpu(FlameOptions options) {
        this.options = options;
    }

    /** One execution sample of a recording whose chunks span {@code span}; other events are ignored. */
    public void add(FastEvent e, RecordingSpan span) {
        if (!FlameSamples.EXECUTION.contains(e.type()) || !FlameSamples.inWindow(options, e, span)) {
            return;
        }
        String state = FlameSamples.executionState(e);
        long n = FlameSamples.weight(e);
        samplesByState.merge(state, n, Long::sum);
        String field = FlameSamples.threadField(e);
        List<FastEvent.RawFrame> frames = e.rawFrames();
        Stack stack = frames == null ? NO_STACK : stacks.get(frames);
        if (stack == null) {
            if (stacks.size() >= 100_000) {
                stacks.clear(); // the stacks of chunks handed on long ago
            }
            Stack classified = classify(frames, e.nativeFramesAreC());
            stacks.put(frames, classified);
            stack = classified;
        }
        String code = stack.code();
        Map<String, Group> groups = byState.computeIfAbsent(state, s -> new HashMap<>());
        Group g;
        if (Boolean.TRUE.equals(e.threadIsVirtual(field))) {
            String name = e.threadName(field);
            String shown = name == null || name.isEmpty() ? "running " + code : name + " running " + code;
            g = groups.computeIfAbsent("v " + shown, k -> new Group(shown, true));
            g.threadIds.add(e.javaThreadId(field));
        } else {
            long tid = e.threadId(field);
            String name = e.threadDisplayName(field);
            String shown = name == null ? "[tid=" + tid + "]" : name;
            g = groups.computeIfAbsent("t " + tid + " " + shown, k -> new Group(shown, false));
            g.threadIds.add(tid);
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

    /** The CPU samples of {@code sources}, read with loomscope's reader. */
    public static ThreadCpu of(List<dev.loomscope.analyzer.read.RecordingSource> sources, FlameOptions options,
            java.util.function.Consumer<String> warnings) {
        ThreadCpu all = new ThreadCpu(options);
        for (var source : sources) {
            RecordingReader.events(source, FlameSamples.EXECUTION, warnings, all::add, counts -> { });
        }
        return all;
    }

    /** These samples and {@code other}'s. */
    public void addAll(ThreadCpu other) {
        other.samplesByState.forEach((s, n) -> samplesByState.merge(s, n, Long::sum));
        other.byState.forEach((s, groups) -> {
            Map<String, Group> mine = byState.computeIfAbsent(s, x -> new HashMap<>());
            groups.forEach((k, g) -> mine.computeIfAbsent(k, x -> new Group(g.name, g.virtualThreads)).addAll(g));
        });
    }

    private static Stack classify(List<FastEvent.RawFrame> frames, boolean nativeIsC) {
        boolean virtual = FlameSamples.isVirtual(frames);
        boolean java = false;
        boolean vthreadFrames = false;
        for (FastEvent.RawFrame f : frames) {
            java |= FlameSamples.isJava(f, nativeIsC);
            vthreadFrames |= f.internalClassName().equals("java/lang/VirtualThread");
        }
        // a carrier between virtual threads (JFR samples a mounted virtual thread as itself, its carrier only outside one): a
        // scheduler's worker thread running the virtual thread machinery, not a thread that merely starts virtual threads
        String root = frames.isEmpty() ? "" : frames.get(frames.size() - 1).internalClassName();
        boolean scheduler = vthreadFrames && (root.equals("java/util/concurrent/ForkJoinWorkerThread") || root.equals("jdk/internal/misc/CarrierThread"));
        return new Stack(virtual, virtual && mounting(frames, nativeIsC), java, scheduler, code(frames));
    }

    /**
     * Whether the sample caught the continuation machinery: from the leaf down to the first other
     * Java frame, a frame of Continuation or VirtualThread, or the VM's freeze, thaw or return barrier.
     */
    private static boolean mounting(List<FastEvent.RawFrame> frames, boolean nativeIsC) {
        for (FastEvent.RawFrame f : frames) {
            String c = f.internalClassName();
            if (c.equals("jdk/internal/vm/Continuation") || c.equals("java/lang/VirtualThread")) {
                return true;
            }
            if (FlameSamples.isJava(f, nativeIsC)) {
                return false;
            }
            String m = f.methodName();
            if (m.contains("Continuation") || m.contains("Thaw") || m.contains("Freeze") || m.contains("thaw") || m.contains("freeze")
                    || m.contains("cont_")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The code a virtual thread runs: from its entry (VirtualThread.run, the continuation's entry)
     * towards the leaf, the first frame of a class outside the JDK, lambda proxies skipped; else the
     * frame its entry calls; frames as the flame graph names them.
     */
    static String code(List<FastEvent.RawFrame> frames) {
        int entry = frames.size();
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (FlameSamples.threadEntry(frames.get(i)) || FlameSamples.continuationEntry(frames.get(i))) {
                entry = i;
                break;
            }
        }
        for (int i = entry - 1; i >= 0; i--) {
            FastEvent.RawFrame f = frames.get(i);
            String c = f.internalClassName();
            if (!c.isEmpty() && !c.contains("$$Lambda") && JDK_PACKAGES.stream().noneMatch(c::startsWith)) {
                return FlameRenderer.methodName(c, f.methodName(), false, true);
            }
        }
        if (entry > 0 && entry < frames.size()) {
            FastEvent.RawFrame f = frames.get(entry - 1);
            return FlameRenderer.methodName(f.internalClassName(), f.methodName(), false, true) + " (JDK code only)";
        }
        return "(no application frame)";
    }

    /** The CPU samples' thread state (async-profiler's, else JFR's CPU-time sampler's, else its execution sampler's). */
    private String cpuState() {
        return FlameSamples.cpuState(samplesByState);
    }

    /** All CPU samples read. */
    public long total() {
        return samplesByState.getOrDefault(cpuState(), 0L);
    }

    /**
     * A thread, or the virtual threads of one name and code: its kind, how many threads, its CPU
     * samples, and of them those in virtual threads' code, in mounting and unmounting them, and the
     * rest (a carrier's: the scheduler).
     */
    public record Row(String name, String kind, int threads, long samples, long virtualCode, long mounting, long other) {}

    /** Every thread (group) with CPU samples, the most first. */
    public List<Row> rows() {
        return byState.getOrDefault(cpuState(), Map.of()).values().stream()
                .map(g -> new Row(g.name, g.kind(), g.threadIds.size(), g.samples, g.virtualThreads ? g.samples - g.mounting : g.virtualCode, g.mounting,
                        g.virtualThreads ? 0 : g.other))
                .sorted(Comparator.comparingLong((Row r) -> -r.samples()).thenComparing(Row::name)).toList();
    }
}
