package dev.loomscope.load;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A load run stopped as a user's Ctrl-C stops it: once its output holds a line, or after a minute. */
record StoppedRun(String text, List<LoadRun.Summary> summaries) {
    /** Runs {@code spec} in the background until its output contains {@code until}, stops it and waits for its end. */
    static StoppedRun of(LoadSpec spec, String until) throws Exception {
        StringWriter text = new StringWriter();
        LoadRun run = new LoadRun(spec, new PrintWriter(text, true), null);
        CompletableFuture<List<LoadRun.Summary>> done = CompletableFuture.supplyAsync(() -> {
            try {
                return run.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        for (long deadline = System.nanoTime() + 60_000_000_000L;
                !text.toString().contains(until) && System.nanoTime() < deadline; ) {
            Thread.sleep(50);
        }
        run.stop();
        run.awaitEnd(20_000);
        List<LoadRun.Summary> summaries = done.get(1, TimeUnit.SECONDS);
        return new StoppedRun(text.toString(), summaries);
    }
}
