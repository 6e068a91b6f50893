package dev.loomscope.flamegraphs.render;

import dev.loomscope.recording.BadRecordingException;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.RawFrame;
import dev.loomscope.recording.RecordingFile;
import dev.loomscope.recording.RecordingSpan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The samples of a flame graph, read with loomscope's reader: each sample event's stack (built once per distinct stack
 * of a chunk) aggregated by its frames and thread kind, per thread state, then drawn by async-profiler's renderer as
 * its converter would draw the same file: the same events (async-profiler's and the JDK's), frame names and types,
 * roots for thread kind and thread, class frames for allocations and locks, and the same choice of thread states
 * (async-profiler's CPU samples carry STATE_DEFAULT, the JDK's STATE_RUNNABLE; wall clock is every other state).
 */
public final class FlameSamples {
    public static final String VIRTUAL_ROOT = "virtual (on carrier)";
    public static final String PLATFORM_ROOT = "platform";
    /** An aligned stack sampled in its thread's entry frame, before the thread's own code: its one frame. */
    public static final String THREAD_START = "[in the thread's entry, before its code]";

    /**
     * Datadog's Java profiler (a fork of async-profiler writing JFR of its own): CPU samples, and wall-clock samples in
     * their thread's state.
     */
    static final String DATADOG_CPU = "datadog.ExecutionSample";

    static final String DATADOG_WALL = "datadog.MethodSample";
    /**
     * The execution sample types: CPU (async-profiler's, JFR's CPU-time and execution samplers, Datadog's) and wall
     * clock.
     */
    public static final Set<String> EXECUTION = Set.of(
            JdkEvents.EXECUTION_SAMPLE,
            JdkEvents.NATIVE_METHOD_SAMPLE,
            "profiler.WallClockSample",
            JdkEvents.CPU_TIME_SAMPLE,
            DATADOG_CPU,
            DATADOG_WALL);
    /** JFR's native method samples: threads in native code, on the CPU or waiting in it; wall clock, never CPU. */
    public static final String IN_NATIVE = "STATE_IN_NATIVE";
    /**
     * JFR's CPU-time samples (JDK 25), under the state async-profiler's reader gives them (they have none of their
     * own).
     */
    public static final String CPU_TIME = "STATE_254";

    private static final Set<String> ALLOCATION = Set.of(
            JdkEvents.OBJECT_ALLOCATION_IN_NEW_TLAB,
            JdkEvents.OBJECT_ALLOCATION_OUTSIDE_TLAB,
            JdkEvents.OBJECT_ALLOCATION_SAMPLE);
    private static final Set<String> LOCK = Set.of(JdkEvents.JAVA_MONITOR_ENTER, JdkEvents.THREAD_PARK);

    private final FlameOptions options;
    private final boolean norm;
    /**
     * Stacks start at the code the thread runs (see {@link #threadEntry}): a differential graph of the two kinds lines
     * up.
     */
    private final boolean aligned;
    /** Aggregated stacks by thread state name ("" for allocations and locks). */
    private final Map<String, SampleGraph> byState = new TreeMap<>();
    /** The time the recordings read cover (their chunks'), and the last one's span object, to add each once. */
    private final RecordingSpan span = new RecordingSpan();

    private RecordingSpan lastSpan;
    private final Map<String, Long> executionByState = new TreeMap<>();
    private long alloc;
    private long lock;
    /**
     * Execution samples counted but not read (an alloc or lock graph): their states, so cpu and wall, are not known.
     */
    private long unreadExecution;

    /** @param norm fold lambda and hidden-class suffixes in frame names (differential graphs do) */
    public FlameSamples(FlameOptions options, boolean norm) {
        this(options, norm, false);
    }

    /**
     * @param aligned start every stack at the code its thread runs, leaving out the frames that start it: a platform
     *     thread's Thread.run and runWith, a virtual thread's carrier, scheduler and continuation frames through
     *     VirtualThread.run (or the return barrier below a thawed virtual thread's frames), and the task's lambda
     *     proxy. The same application frames then line up in a differential graph of the two kinds, where otherwise
     *     every stack is "only in one" below its root.
     */
    public FlameSamples(FlameOptions options, boolean norm, boolean aligned) {
        this.options = options;
        this.norm = norm;
        this.aligned = aligned;
    }

    /** The event types the graph's kind reads (the others' counts come from the reader's event counts). */
    public Set<String> eventTypes() {
        return eventTypes(options.kind());
    }

    /** The event types a graph of {@code kind} reads. */
    public static Set<String> eventTypes(SampleKind kind) {
        return switch (kind) {
            case CPU, WALL -> EXECUTION;
            case ALLOC -> ALLOCATION;
            case LOCK -> LOCK;
        };
    }

    /**
     * Counts of the kinds not read (from the reader's event counts), for the message when the kind asked for has none.
     */
    public void counted(Map<String, Long> counts) {
        Set<String> read = eventTypes();
        if (read != EXECUTION) {
            unreadExecution += sum(counts, EXECUTION);
        }
        if (read != ALLOCATION) {
            alloc += sum(counts, ALLOCATION);
        }
        if (read != LOCK) {
            lock += sum(counts, LOCK);
        }
    }

    private static long sum(Map<String, Long> counts, Set<String> types) {
        return types.stream().mapToLong(t -> counts.getOrDefault(t, 0L)).sum();
    }

    /** One sample event of a recording whose chunks span {@code span}. */
    public void add(JfrEvent e, RecordingSpan span) {
        if (span != lastSpan) {
            this.span.add(span);
            lastSpan = span;
        }
        if (!SampleFrames.inWindow(options, e, span)) {
            return;
        }
        boolean execution = EXECUTION.contains(e.type());
        String state = "";
        long samples = 1;
        String threadField = JdkFields.EVENT_THREAD;
        if (execution) {
            state = SampleFrames.executionState(e);
            executionByState.merge(state, 1L, Long::sum);
            samples = SampleFrames.weight(e);
            threadField = SampleFrames.threadField(e);
        } else if (ALLOCATION.contains(e.type())) {
            alloc++;
        } else {
            lock++;
        }
        List<RawFrame> frames = e.rawFrames();
        if (frames == null) {
            return; // as async-profiler's converter: a sample without a stack trace is not drawn
        }
        DrawnStack stack = drawn.get(frames);
        if (stack == null) {
            if (drawn.size() >= MAX_DRAWN) {
                drawn.clear(); // the stacks of chunks handed on long ago
            }
            stack = draw(frames, e.nativeFramesAreC());
            drawn.put(frames, stack);
        }
        long virtualThreadId = -1;
        if (options.virtualThreadIds() && execution && Boolean.TRUE.equals(e.threadIsVirtual(threadField))) {
            virtualThreadId = e.javaThreadId(threadField);
        }
        String thread = null;
        if (options.threads()) {
            long tid = e.threadId(threadField);
            String name = e.threadDisplayName(threadField);
            thread = name == null
                    ? "[tid=" + tid + "]"
                    : name.startsWith("[tid=") ? name : "[" + name + " tid=" + tid + "]";
        }
        String classSymbol = execution
                ? null
                : e.classSymbol(
                        ALLOCATION.contains(e.type())
                                ? "objectClass"
                                : e.type().equals(JdkEvents.THREAD_PARK) ? "parkedClass" : "monitorClass");
        // as async-profiler's converter: an allocation outside a TLAB (no TLAB size) in kernel colour, the others
        // inlined
        boolean outside = e.type().equals(JdkEvents.OBJECT_ALLOCATION_OUTSIDE_TLAB)
                || e.type().equals(JdkEvents.OBJECT_ALLOCATION_SAMPLE);
        if (options.timeline()) {
            timeline(state, stack, e.startTime().toEpochMilli(), samples);
        }
        addDrawn(
                state,
                stack,
                thread,
                classSymbol,
                outside ? SampleGraph.KERNEL : SampleGraph.INLINED,
                samples,
                virtualThreadId);
    }

    /**
     * Samples by time cell ({@link SampleTimeline#CELL_MS}) and thread kind, per thread state: the heatmap's counts.
     */
    private final Map<String, TreeMap<Long, long[]>> timeline = new TreeMap<>();

    private void timeline(String state, DrawnStack stack, long epochMs, long samples) {
        int kind =
                !stack.java() ? SampleTimeline.JVM : stack.virtual() ? SampleTimeline.VIRTUAL : SampleTimeline.PLATFORM;
        timeline.computeIfAbsent(state, s -> new TreeMap<>())
                .computeIfAbsent(
                        Math.floorDiv(epochMs, SampleTimeline.CELL_MS), c -> new long[SampleTimeline.KINDS.size()])[
                kind] += samples;
    }

    /**
     * The samples of the kind asked for ({@link #graph}'s choice of thread states) by time and thread kind: virtual
     * threads' code, platform threads', the JVM's own threads'. Asked for with {@link FlameOptions#timeline}; bad input
     * naming {@code what} when there are no such samples.
     */
    public SampleTimeline timeline(String what) {
        requireSamples(what);
        TreeMap<Long, long[]> cells = new TreeMap<>();
        chosenStates()
                .forEach(st -> timeline.getOrDefault(st, new TreeMap<>())
                        .forEach((cell, n) -> SampleTimeline.add(cells, cell, n)));
        return new SampleTimeline(options.kind(), cells);
    }

    /**
     * Execution samples of one stack, aggregated elsewhere (an export's samples table): {@code events} sample events
     * standing for {@code samples} samples, in thread state {@code state}; frames top first, null when the events had
     * no stack trace.
     */
    public void addStack(String state, List<RawFrame> frames, boolean nativeIsC, long events, long samples) {
        executionByState.merge(state, events, Long::sum);
        if (frames != null) {
            addDrawn(state, draw(frames, nativeIsC), null, null, (byte) 0, samples, -1);
        }
    }

    private void addDrawn(
            String state,
            DrawnStack stack,
            String thread,
            String classSymbol,
            byte classType,
            long samples,
            long virtualThreadId) {
        if (options.applicationThreads() && !stack.java()) {
            jvmThreadSamples.merge(state, samples, Long::sum);
            return;
        }
        int extra = (options.splitKind() ? 1 : 0) + (thread != null ? 1 : 0) + (classSymbol != null ? 1 : 0);
        String[] names = new String[stack.names().length + extra];
        byte[] types = new byte[names.length];
        int k = 0;
        boolean virtual = stack.virtual();
        if (options.splitKind()) {
            names[k] = virtual ? VIRTUAL_ROOT : PLATFORM_ROOT;
            types[k++] = SampleGraph.NATIVE;
        }
        if (thread != null) {
            names[k] = thread;
            types[k++] = SampleGraph.NATIVE;
        }
        System.arraycopy(stack.names(), 0, names, k, stack.names().length);
        System.arraycopy(stack.types(), 0, types, k, stack.types().length);
        k += stack.names().length;
        if (classSymbol != null) {
            names[k] = FlameRenderer.className(classSymbol);
            types[k] = classType;
        }
        byState.computeIfAbsent(state, s -> new SampleGraph()).add(names, types, samples, virtual, virtualThreadId);
        if (aligned) {
            long[] a = alignedByState.computeIfAbsent(state, x -> new long[2]);
            a[0] += stack.cut() ? samples : 0;
            a[1] += samples;
        }
    }

    /**
     * A stack's frames as drawn, root first: names and async-profiler's frame types, whether a virtual thread ran it,
     * and whether any is Java.
     */
    private record DrawnStack(String[] names, byte[] types, boolean virtual, boolean cut, boolean java) {}

    /** Per thread state, the samples left out as the JVM's own threads' ({@link FlameOptions#applicationThreads}). */
    private final Map<String, Long> jvmThreadSamples = new TreeMap<>();

    /**
     * The share of the graph's samples left out as the JVM's own threads' (compilers, GC; stacks without a Java frame),
     * NaN when none were read.
     */
    public double jvmThreadShare() {
        long left = 0;
        long all = 0;
        for (String state : chosenStates()) {
            left += jvmThreadSamples.getOrDefault(state, 0L);
            all += byState.containsKey(state) ? byState.get(state).total() : 0;
        }
        return left + all == 0 ? Double.NaN : left / (double) (left + all);
    }

    /** Aligned graphs: per thread state, the samples whose stack was cut at its thread's entry, and all samples. */
    private final Map<String, long[]> alignedByState = new TreeMap<>();

    /**
     * Each distinct stack drawn once: keyed by the reader's frames list, the same object for every sample of a stack in
     * a chunk.
     */
    private final Map<List<RawFrame>, DrawnStack> drawn = new IdentityHashMap<>();

    private static final int MAX_DRAWN = 100_000;

    private DrawnStack draw(List<RawFrame> frames, boolean nativeIsC) {
        int top = frames.size() - 1; // the root's index (frames are leaf first)
        boolean cut = false;
        if (aligned) {
            for (int i = 0; i < frames.size(); i++) {
                if (SampleFrames.threadEntry(frames.get(i))) {
                    top = i - 1; // the frame the thread entry calls, and what it calls
                    cut = true;
                    break;
                }
            }
            while (top > 0 && frames.get(top).internalClassName().contains("$$Lambda")) {
                top--; // the task's lambda proxy, which a thawed virtual thread's stack does not show either
            }
        }
        boolean java = false;
        for (RawFrame f : frames) {
            java |= SampleFrames.isJava(f, nativeIsC);
        }
        if (cut && top < 0) {
            // sampled in the thread's entry itself, before its own code (a thread starting or ending): one frame that
            // says so,
            // the same on both kinds, not a platform thread's Thread.run against a virtual thread's VirtualThread.run
            return new DrawnStack(
                    new String[] {THREAD_START},
                    new byte[] {SampleGraph.CPP},
                    SampleFrames.isVirtual(frames),
                    true,
                    java);
        }
        String[] names = new String[top + 1];
        byte[] types = new byte[names.length];
        for (int i = top, k = 0; i >= 0; i--, k++) {
            RawFrame f = frames.get(i);
            byte type = (byte) Math.max(0, f.type());
            boolean c =
                    type == SampleGraph.NATIVE && nativeIsC || type == SampleGraph.CPP || type == SampleGraph.KERNEL;
            names[k] = FlameRenderer.methodName(f.internalClassName(), f.methodName(), c, norm);
            types[k] = type;
        }
        return new DrawnStack(names, types, SampleFrames.isVirtual(frames), cut, java);
    }

    /** These samples and {@code other}'s. */
    public void addAll(FlameSamples other) {
        span.add(other.span);
        other.timeline.forEach((st, cells) -> cells.forEach(
                (cell, n) -> SampleTimeline.add(timeline.computeIfAbsent(st, x -> new TreeMap<>()), cell, n)));
        other.byState.forEach(
                (s, g) -> byState.computeIfAbsent(s, x -> new SampleGraph()).addAll(g));
        other.executionByState.forEach((s, n) -> executionByState.merge(s, n, Long::sum));
        other.jvmThreadSamples.forEach((s, n) -> jvmThreadSamples.merge(s, n, Long::sum));
        other.alignedByState.forEach((s, n) -> {
            long[] a = alignedByState.computeIfAbsent(s, x -> new long[2]);
            a[0] += n[0];
            a[1] += n[1];
        });
        alloc += other.alloc;
        lock += other.lock;
        unreadExecution += other.unreadExecution;
    }

    /**
     * The share of the graph's samples whose stack starts at its thread's own code (cut at a thread entry); the rest
     * (carrier threads between tasks, the JVM's own threads, stacks too deep to reach their root) are drawn whole. NaN
     * when not aligned or empty.
     */
    public double alignedShare() {
        long cutSamples = 0;
        long all = 0;
        for (String state : chosenStates()) {
            long[] a = alignedByState.getOrDefault(state, new long[2]);
            cutSamples += a[0];
            all += a[1];
        }
        return all == 0 ? Double.NaN : cutSamples / (double) all;
    }

    /** The thread states whose samples the graph of the options' kind draws ("" for allocations and locks). */
    private List<String> chosenStates() {
        return switch (options.kind()) {
            case CPU -> List.of(cpuState(executionByState));
            case WALL ->
                byState.keySet().stream()
                        .filter(st -> !st.equals("STATE_DEFAULT") && !st.equals(CPU_TIME))
                        .toList();
            case ALLOC, LOCK -> List.of("");
        };
    }

    /**
     * The thread state whose execution samples are CPU samples, given the samples per state: async-profiler's first,
     * then JFR's CPU-time sampler's, then its execution sampler's.
     */
    public static String cpuState(Map<String, Long> executionByState) {
        return executionByState.getOrDefault("STATE_DEFAULT", 0L) > 0
                ? "STATE_DEFAULT"
                : executionByState.getOrDefault(CPU_TIME, 0L) > 0 ? CPU_TIME : "STATE_RUNNABLE";
    }

    /** The time the recordings whose samples were added cover (their chunks'); empty when none was read. */
    public RecordingSpan span() {
        return span;
    }

    /**
     * The graph of the kind asked for; bad input naming {@code what} and what the recordings have when they have no
     * such samples.
     */
    public SampleGraph graph(String what) {
        requireSamples(what);
        SampleGraph g = new SampleGraph();
        // CPU: async-profiler's samples first, then JFR's CPU-time sampler's, then its execution sampler's (as
        // SampleInventory chooses)
        chosenStates().forEach(st -> g.addAll(byState.getOrDefault(st, new SampleGraph())));
        return g;
    }

    /** Bad input naming {@code what} and what the recordings have when they have no samples of the kind asked for. */
    private void requireSamples(String what) {
        long profilerCpu = executionByState.getOrDefault("STATE_DEFAULT", 0L);
        long cpuTime = executionByState.getOrDefault(CPU_TIME, 0L);
        long runnable = executionByState.getOrDefault("STATE_RUNNABLE", 0L);
        long otherExecution = executionByState.entrySet().stream()
                .filter(x -> !x.getKey().equals("STATE_DEFAULT") && !x.getKey().equals(CPU_TIME))
                .mapToLong(Map.Entry::getValue)
                .sum();
        boolean none = switch (options.kind()) {
            case CPU -> profilerCpu == 0 && cpuTime == 0 && runnable == 0;
            case WALL -> otherExecution == 0;
            case ALLOC -> alloc == 0;
            case LOCK -> lock == 0;
        };
        if (none) {
            String execution = unreadExecution > 0
                    ? "cpu or wall " + unreadExecution
                    : "cpu " + (profilerCpu > 0 ? profilerCpu : cpuTime > 0 ? cpuTime : runnable) + ", wall "
                            + otherExecution;
            throw new NoSamplesException(what + ": no " + options.kind().label() + " samples (the recording has "
                    + execution + ", alloc " + alloc + ", lock " + lock + "; record them with the agent option "
                    + options.kind().agentOption() + ")");
        }
    }

    /**
     * The samples of whole recordings (the agent's own files, tests'), read with loomscope's reader; a file it cannot
     * read is a {@link BadRecordingException} naming it.
     */
    public static FlameSamples read(List<Path> files, FlameOptions options, boolean norm) throws BadRecordingException {
        FlameSamples samples = new FlameSamples(options, norm);
        for (Path p : files) {
            try {
                samples.counted(RecordingFile.read(p, samples.eventTypes(), samples::add)
                        .counts());
            } catch (IOException | RuntimeException e) {
                throw FlameRenderer.unreadable(p, e);
            }
        }
        return samples;
    }

    /** What to call {@code files} in a message: the file, or how many. */
    public static String name(List<Path> files) {
        return files.size() == 1 ? files.get(0).toAbsolutePath().toString() : files.size() + " recordings";
    }
}
