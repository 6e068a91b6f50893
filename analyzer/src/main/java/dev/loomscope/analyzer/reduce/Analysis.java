package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.RecordingSource;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/** Reduces many recordings, files in parallel (one pass each), results in input order. */
public final class Analysis {
    private Analysis() {}

    public static List<RecordingFacts> of(List<RecordingSource> sources) {
        return of(sources, RecordingFacts::of);
    }

    /** As {@link #of(List)}, each large recording's facts kept in {@code cache} and read from it when it holds them. */
    public static List<RecordingFacts> of(List<RecordingSource> sources, FactsCache cache) {
        return of(sources, s -> cache.facts(s, RecordingFacts::of));
    }

    /**
     * As {@link #of(List)}, with each recording's CPU samples for a report's flame graphs aggregated in the same pass.
     */
    public static List<RecordingFacts> withFlames(List<RecordingSource> sources) {
        return of(sources, s -> RecordingFacts.of(s, true));
    }

    /** {@code reduce} on every source, files in parallel. */
    public static List<RecordingFacts> of(
            List<RecordingSource> sources, Function<RecordingSource, RecordingFacts> reduce) {
        if (sources.size() == 1) {
            return List.of(reduce.apply(sources.get(0)));
        }
        int threads = Math.max(1, Math.min(sources.size(), Runtime.getRuntime().availableProcessors()));
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<RecordingFacts>> futures = sources.stream()
                    .map(s -> pool.submit(() -> reduce.apply(s)))
                    .toList();
            return futures.stream().map(Analysis::join).toList();
        }
    }

    /** A task's result; what it threw, thrown here as it was (unchecked), a checked cause wrapped. */
    public static <T> T join(Future<T> f) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw thrown(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** What a task threw, to be thrown as it was: an error or an unchecked exception itself, a checked one wrapped. */
    public static RuntimeException thrown(ExecutionException e) {
        if (e.getCause() instanceof Error err) {
            throw err;
        }
        return e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
    }
}
