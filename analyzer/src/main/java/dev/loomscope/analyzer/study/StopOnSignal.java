package dev.loomscope.analyzer.study;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A study's answer to Ctrl-C or SIGTERM: the runner stops (the running JVM ends, no other starts) and the process's
 * exit waits, at most 120 s, until the finished JVMs' verdicts and report are written, which {@link #reported} says; a
 * study that ended without a signal takes its hook away.
 */
final class StopOnSignal {
    private final CountDownLatch reported = new CountDownLatch(1);
    private final BooleanSupplier stopped;
    private final Thread hook;

    StopOnSignal(Runnable stop, BooleanSupplier stopped) {
        this.stopped = stopped;
        this.hook = new Thread(
                () -> {
                    stop.run();
                    try {
                        reported.await(120, TimeUnit.SECONDS);
                    } catch (InterruptedException ignored) {
                        // exit now
                    }
                },
                "loomscope-study-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The report is written (or the study failed): an exit waiting for it goes on. */
    void reported() {
        reported.countDown();
        if (!stopped.getAsBoolean()) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException exiting) {
                // already shutting down
            }
        }
    }
}
