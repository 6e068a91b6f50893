package dev.loomscope.analyzer.reduce;

import dev.loomscope.analyzer.read.RecordingSource;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Reduces many recordings, files in parallel (one pass each), results in input order. */
public final class Analysis {
    private Analysis() {}

    public static List<RecordingFacts> of(List<RecordingSource> sources) {
        return of(sources, RecordingFacts::of);
    }

    /** {@code reduce} on every source, files in parallel. */
    public static List<RecordingFacts> of(List<RecordingSource> sources, java.util.function.Function<RecordingSource, RecordingFacts> reduce) {
        if (sources.size() == 1) {
            return List.of(reduce.apply(sources.get(0)));
        }
        int threads = Math.max(1, Math.min(sources.size(), Runtime.getRuntime().availableProcessors()));
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<RecordingFacts>> futures = sources.stream().map(s -> pool.submit(() -> reduce.apply(s))).toList();
            return futures.stream().map(Analysis::join).toList();
        }
    }

    private static RecordingFacts join(Future<RecordingFacts> f) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }
}
