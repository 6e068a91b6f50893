package dev.loomscope.analyzer.reduce;

import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.flamegraphs.render.NoSamplesException;
import dev.loomscope.flamegraphs.render.SampleGraph;
import dev.loomscope.flamegraphs.render.SampleKind;
import dev.loomscope.flamegraphs.render.SampleTimeline;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/** The samples of recordings as the CLI and the report read them ({@link FlameSamples} aggregates them). */
public final class Flames {
    private Flames() {}

    /** The samples of every recording in {@code sources}, merged. */
    public static FlameSamples of(
            List<RecordingSource> sources,
            FlameOptions options,
            boolean norm,
            boolean aligned,
            Consumer<String> warnings) {
        FlameSamples all = new FlameSamples(options, norm, aligned);
        for (RecordingSource s : sources) {
            all.addAll(of(s, options, norm, aligned, warnings));
        }
        return all;
    }

    /** What to call {@code sources} in a message: the file, or how many. */
    public static String name(List<RecordingSource> sources) {
        return sources.size() == 1 ? sources.get(0).name().toAbsolutePath().toString() : sources.size() + " recordings";
    }

    /** The graph of {@code sources}' samples of the options' kind (bad input when they have none). */
    public static SampleGraph graph(
            List<RecordingSource> sources,
            FlameOptions options,
            boolean norm,
            boolean aligned,
            Consumer<String> warnings) {
        return graph(of(sources, options, norm, aligned, warnings), name(sources));
    }

    /** The graph of the options' kind of samples read before, named {@code what} (bad input when there are none). */
    public static SampleGraph graph(FlameSamples samples, String what) {
        return theRecordings(() -> samples.graph(what));
    }

    /**
     * The samples read before by time and thread kind (the heatmap), named {@code what} (bad input when there are
     * none).
     */
    public static SampleTimeline timeline(FlameSamples samples, String what) {
        return theRecordings(() -> samples.timeline(what));
    }

    /**
     * What {@code drawn} makes of the recordings' samples; having none of the kind asked for is the recordings' fault:
     * exit 2.
     */
    private static <T> T theRecordings(Supplier<T> drawn) {
        try {
            return drawn.get();
        } catch (NoSamplesException none) {
            throw new BadDataException(none.getMessage(), none);
        }
    }

    /**
     * A report's CPU samples of one recording, both ways it draws them: split by thread kind (the group's graph), and
     * with frame names normalised and stacks aligned at the thread's own code (the differential graph of the kinds).
     */
    public static final class Cpu {
        /**
         * The report's graphs: the application's threads (the JIT compilers and GC have their row in the CPU-by-thread
         * table).
         */
        public static final FlameOptions SPLIT =
                FlameOptions.of(SampleKind.CPU).withSplitKind(true).withApplicationThreads(true);

        public static final FlameOptions DIFF = FlameOptions.of(SampleKind.CPU).withApplicationThreads(true);

        public final FlameSamples split;
        public final FlameSamples diff;
        /** CPU by thread: virtual threads, carriers, platform and the JVM's threads ({@link ThreadCpu}). */
        public final ThreadCpu threads;

        /** The samples of the whole recording. */
        public Cpu() {
            this(0, 0);
        }

        /** The samples from {@code fromMs} to {@code toMs} after the recording's start. */
        Cpu(long fromMs, long toMs) {
            split = new FlameSamples(SPLIT.withWindow(fromMs, toMs), false);
            diff = new FlameSamples(DIFF.withWindow(fromMs, toMs), true, true);
            threads = new ThreadCpu(FlameOptions.of(SampleKind.CPU).withWindow(fromMs, toMs));
        }

        public Set<String> eventTypes() {
            return split.eventTypes();
        }

        public void add(JfrEvent e, RecordingSpan span) {
            split.add(e, span);
            diff.add(e, span);
            threads.add(e, span);
        }

        public void counted(Map<String, Long> counts) {
            split.counted(counts);
            diff.counted(counts);
        }
    }

    /**
     * The report's samples of {@code f}: those its pass aggregated; with {@code measuredOnly}, where the recording has
     * warm-up runs too, those of the measured runs' time ({@link #measuredWindow}), read again; a recording its pass
     * did not aggregate, read now.
     */
    public static Cpu cpu(RecordingFacts f, boolean measuredOnly) {
        long[] window = measuredOnly ? measuredWindow(f) : null;
        if (f.flames != null && window == null) {
            return f.flames;
        }
        Cpu cpu = window == null ? new Cpu() : new Cpu(window[0], window[1]);
        RecordingReader.events(f.source, cpu.eventTypes(), w -> {}, cpu::add, cpu::counted);
        return cpu;
    }

    /** {@link #cpu} of each recording asked for, each read at most once however many graphs and tables draw it. */
    public static Function<RecordingFacts, Cpu> cpus(boolean measuredOnly) {
        Map<RecordingFacts, Cpu> read = new IdentityHashMap<>();
        return f -> read.computeIfAbsent(f, x -> cpu(x, measuredOnly));
    }

    /**
     * One {@code part} (split or diff) of {@code facts}' recordings' samples ({@code cpus}), merged as {@code options}
     * draw them.
     */
    public static FlameSamples of(
            List<RecordingFacts> facts,
            FlameOptions options,
            boolean norm,
            boolean aligned,
            Function<Cpu, FlameSamples> part,
            Function<RecordingFacts, Cpu> cpus) {
        FlameSamples all = new FlameSamples(options, norm, aligned);
        facts.forEach(f -> all.addAll(part.apply(cpus.apply(f))));
        return all;
    }

    /**
     * Where a recording holds warm-up runs of a workload besides the measured ones, the measured runs' time as ms from
     * the recording's start (from the first one's start to the last one's end): a profile of the program at its steady
     * state, not of its warm-up and the JIT compiling it. Null for the whole recording (no workload runs, or no warm-up
     * among them).
     */
    public static long[] measuredWindow(RecordingFacts f) {
        List<RunsReducer.WorkloadRun> runs = f.runs.runs();
        List<RunsReducer.WorkloadRun> measured =
                runs.stream().filter(r -> !r.warmup()).toList();
        if (measured.isEmpty() || measured.size() == runs.size() || f.summary.first() == null) {
            return null;
        }
        long first = Timeline.epochNanos(f.summary.first());
        long start = measured.stream()
                .mapToLong(RunsReducer.WorkloadRun::startNanos)
                .min()
                .orElseThrow();
        long end = measured.stream()
                .mapToLong(RunsReducer.WorkloadRun::endNanos)
                .max()
                .orElseThrow();
        return new long[] {Math.max(0, (start - first) / 1_000_000), Math.max(1, (end - first) / 1_000_000 + 1)};
    }

    /**
     * Reads {@code source}'s samples with loomscope's reader, its parts in parallel (their samples merge:
     * {@link FlameSamples#addAll}).
     */
    public static FlameSamples of(
            RecordingSource source, FlameOptions options, boolean norm, boolean aligned, Consumer<String> warnings) {
        List<FlameSamples> each = new ArrayList<>(); // one a thread reading parts
        RecordingReader.eventsByPart(source, FlameSamples.eventTypes(options.kind()), warnings, () -> {
            FlameSamples s = new FlameSamples(options, norm, aligned);
            each.add(s);
            return new RecordingReader.PartSink(s::add, s::counted);
        });
        each.subList(1, each.size()).forEach(each.get(0)::addAll);
        return each.get(0);
    }

    /** CPU by thread of {@code facts}' recordings ({@code cpus}), merged. */
    public static ThreadCpu threads(List<RecordingFacts> facts, Function<RecordingFacts, Cpu> cpus) {
        ThreadCpu all = new ThreadCpu(FlameOptions.of(SampleKind.CPU));
        facts.forEach(f -> all.addAll(cpus.apply(f).threads));
        return all;
    }
}
