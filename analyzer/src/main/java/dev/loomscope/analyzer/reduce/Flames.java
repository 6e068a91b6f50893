package dev.loomscope.analyzer.reduce;

import dev.loomscope.analyzer.read.RecordingSource;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.flamegraphs.render.SampleGraph;
import dev.loomscope.flamegraphs.render.SampleKind;
import dev.loomscope.recording.RecordingSpan;
import dev.loomscope.recording.fast.FastEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/** The samples of recordings as the CLI and the report read them ({@link FlameSamples} aggregates them). */
public final class Flames {
    private Flames() {}

    /** The samples of every recording in {@code sources}, merged. */
    public static FlameSamples of(List<RecordingSource> sources, FlameOptions options, boolean norm, boolean aligned, Consumer<String> warnings) {
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
    public static SampleGraph graph(List<RecordingSource> sources, FlameOptions options, boolean norm, boolean aligned, Consumer<String> warnings) {
        try {
            return of(sources, options, norm, aligned, warnings).graph(name(sources));
        } catch (dev.loomscope.flamegraphs.render.NoSamplesException none) {
            throw new dev.loomscope.analyzer.errors.BadDataException(none.getMessage(), none); // the recording's: exit 2
        }
    }

    /**
     * A report's CPU samples of one recording, both ways it draws them: split by thread kind (the
     * group's graph), and with frame names normalised and stacks aligned at the thread's own code
     * (the differential graph of the kinds).
     */
    public static final class Cpu {
        /** The report's graphs: the application's threads (the JIT compilers and GC have their row in the CPU-by-thread table). */
        public static final FlameOptions SPLIT = FlameOptions.of(SampleKind.CPU).withSplitKind(true).withApplicationThreads(true);
        public static final FlameOptions DIFF = FlameOptions.of(SampleKind.CPU).withApplicationThreads(true);

        public final FlameSamples split = new FlameSamples(SPLIT, false);
        public final FlameSamples diff = new FlameSamples(DIFF, true, true);
        /** CPU by thread: virtual threads, carriers, platform and the JVM's threads ({@link ThreadCpu}). */
        public final ThreadCpu threads = new ThreadCpu(FlameOptions.of(SampleKind.CPU));

        public Set<String> eventTypes() {
            return split.eventTypes();
        }

        public void add(FastEvent e, RecordingSpan span) {
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
     * The samples of {@code facts}' recordings as {@code options} draw them: those their pass
     * aggregated ({@code aggregated}), else read now; with {@code measuredOnly}, in the measured
     * runs' time where a recording has warm-up runs too ({@link #measuredWindow}; read again).
     */
    public static FlameSamples of(List<RecordingFacts> facts, FlameOptions options, boolean norm, boolean aligned,
            java.util.function.Function<Cpu, FlameSamples> aggregated, boolean measuredOnly) {
        FlameSamples all = new FlameSamples(options, norm, aligned);
        for (RecordingFacts f : facts) {
            long[] window = measuredOnly ? measuredWindow(f) : null;
            all.addAll(f.flames != null && window == null ? aggregated.apply(f.flames)
                    : of(f.source, window == null ? options : options.withWindow(window[0], window[1]), norm, aligned, w -> { }));
        }
        return all;
    }

    /**
     * Where a recording holds warm-up runs of a workload besides the measured ones, the measured
     * runs' time as ms from the recording's start (from the first one's start to the last one's
     * end): a profile of the program at its steady state, not of its warm-up and the JIT compiling
     * it. Null for the whole recording (no workload runs, or no warm-up among them).
     */
    public static long[] measuredWindow(RecordingFacts f) {
        List<RunsReducer.WorkloadRun> runs = f.runs.runs();
        List<RunsReducer.WorkloadRun> measured = runs.stream().filter(r -> !r.warmup()).toList();
        if (measured.isEmpty() || measured.size() == runs.size() || f.summary.first() == null) {
            return null;
        }
        long first = Timeline.epochNanos(f.summary.first());
        long start = measured.stream().mapToLong(RunsReducer.WorkloadRun::startNanos).min().orElseThrow();
        long end = measured.stream().mapToLong(RunsReducer.WorkloadRun::endNanos).max().orElseThrow();
        return new long[] {Math.max(0, (start - first) / 1_000_000), Math.max(1, (end - first) / 1_000_000 + 1)};
    }

    /** Reads {@code source}'s samples with loomscope's reader. */
    public static FlameSamples of(RecordingSource source, FlameOptions options, boolean norm, boolean aligned, Consumer<String> warnings) {
        FlameSamples samples = new FlameSamples(options, norm, aligned);
        RecordingFacts.readEach(source, samples.eventTypes(), warnings, (e, span) -> samples.add(e, span), samples::counted);
        return samples;
    }

    /** CPU by thread of {@code facts}' recordings (with {@code measuredOnly}, in the measured runs' time, as {@link #of}). */
    public static ThreadCpu threads(List<RecordingFacts> facts, boolean measuredOnly) {
        FlameOptions cpu = FlameOptions.of(SampleKind.CPU);
        ThreadCpu all = new ThreadCpu(cpu);
        for (RecordingFacts f : facts) {
            long[] window = measuredOnly ? measuredWindow(f) : null;
            all.addAll(f.flames != null && window == null ? f.flames.threads
                    : ThreadCpu.of(List.of(f.source), window == null ? cpu : cpu.withWindow(window[0], window[1]), w -> { }));
        }
        return all;
    }
}
