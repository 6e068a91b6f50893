package dev.loomscope.analyzer.load;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Requests at a constant arrival rate, whatever the server does (open loop, as wrk2): request i is
 * due at start + i / rate, a free connection sends it, and its latency is counted from when it was
 * due, not from when it was sent: a server that stalls makes the requests behind it late, and that
 * wait is in their latency (coordinated omission corrected). With every connection busy, due
 * requests wait for one, as they would for a client's pool. Latencies go into an HdrHistogram
 * {@link Recorder} (microseconds, 3 significant digits); a window's figures are taken by
 * {@link #window}, each request counted in the window it ended in.
 */
public final class OpenLoop implements AutoCloseable {
    /** Latencies above an hour are recorded as an hour. */
    private static final long MAX_MICROS = TimeUnit.HOURS.toMicros(1);

    /** What a window saw: requests due in it, those answered (2xx/3xx), failed, timed out, and the answered ones' latencies (microseconds). */
    public record Window(long startEpochNanos, long nanos, long offered, long ok, long failed, long timeouts, Histogram latencyMicros) {
        /** Failed and timed-out requests together. */
        public long errors() {
            return failed + timeouts;
        }
    }

    private final Target target;
    private final double rate;
    private final int timeoutMillis;
    private final long periodNanos;
    private final long startNanos;
    private final long startEpochNanos;
    private final AtomicLong next = new AtomicLong();
    private final Recorder latencies = new Recorder(MAX_MICROS, 3);
    private final LongAdder ok = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final List<Thread> workers = new ArrayList<>();
    private volatile long stopNanos = Long.MAX_VALUE;
    private long windowStart;

    /** Starts sending to {@code target} at {@code rate} requests a second over {@code connections} connections. */
    public OpenLoop(Target target, double rate, int connections, int timeoutMillis) {
        this.target = target;
        this.rate = rate;
        this.timeoutMillis = timeoutMillis;
        this.periodNanos = Math.max(1, Math.round(1e9 / rate));
        java.time.Instant now = java.time.Instant.now();
        this.startNanos = System.nanoTime();
        this.startEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        this.windowStart = startNanos;
        for (int i = 0; i < connections; i++) {
            Thread t = new Thread(this::work, "loomscope-load-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        workers.forEach(Thread::start);
    }

    public double rate() {
        return rate;
    }

    private void work() {
        try (HttpConnection c = new HttpConnection(target, timeoutMillis)) {
            while (true) {
                long due = startNanos + next.getAndIncrement() * periodNanos;
                if (due >= stopNanos) {
                    return;
                }
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                    if (due >= stopNanos) {
                        return;
                    }
                }
                try {
                    int status = c.get();
                    long micros = (System.nanoTime() - due) / 1000;
                    if (status >= 200 && status < 400) {
                        latencies.recordValue(Math.min(micros, MAX_MICROS));
                        ok.increment();
                    } else {
                        failed.increment();
                    }
                } catch (SocketTimeoutException e) {
                    timeouts.increment();
                } catch (IOException | RuntimeException e) {
                    failed.increment();
                    // a refused or broken connection fails at once: without a pause a dead server would be hammered in a busy loop
                    LockSupport.parkNanos(Math.min(periodNanos, 10_000_000L));
                }
            }
        }
    }

    /** Waits until the window that began at the last call ends, {@code nanos} after it began, and takes its figures. */
    public Window window(long nanos) {
        long end = windowStart + nanos;
        for (long wait = end - System.nanoTime(); wait > 0; wait = end - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
        return take(end);
    }

    private Window take(long end) {
        long offered = due(end) - due(windowStart);
        Window w = new Window(startEpochNanos + (windowStart - startNanos), end - windowStart, offered, ok.sumThenReset(), failed.sumThenReset(),
                timeouts.sumThenReset(), latencies.getIntervalHistogram());
        windowStart = end;
        return w;
    }

    /** Requests due before {@code t} (nanoTime). */
    private long due(long t) {
        return Math.max(0, Math.floorDiv(t - startNanos + periodNanos - 1, periodNanos));
    }

    /**
     * Stops sending: no request due from now on is sent; those on the way get until the timeout to
     * end. The requests due before now that no connection could send (the server fell behind)
     * count as failed. The figures of the time since the last window are its own window, returned.
     */
    public Window stop() {
        long now = System.nanoTime();
        stopNanos = now;
        long unsent = Math.max(0, due(now) - Math.min(next.get(), due(now)));
        long deadline = now + TimeUnit.MILLISECONDS.toNanos(timeoutMillis) + TimeUnit.SECONDS.toNanos(1);
        for (Thread t : workers) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                try {
                    t.join(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            t.interrupt();
        }
        failed.add(unsent);
        return take(now);
    }

    @Override
    public void close() {
        if (stopNanos == Long.MAX_VALUE) {
            stop();
        }
    }
}
