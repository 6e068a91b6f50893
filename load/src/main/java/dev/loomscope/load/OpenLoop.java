package dev.loomscope.load;

import dev.loomscope.load.stats.LatencyHistograms;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Requests at a constant arrival rate, whatever the server does (open loop, as wrk2): request i is due at start + i /
 * rate, a free connection sends it (plain HTTP's on one {@link EventLoop}, TLS's a blocking thread each), and its
 * latency is counted from when it was due (coordinated omission corrected) and, apart, from when it was sent; their
 * difference is the wait in the client's own queue for a free connection. With every connection busy, due requests wait
 * for one, as they would for a client's pool.
 *
 * <p>Every request is accounted for in every window ({@link Window#accounted}): those late at its start (due, not yet
 * answered) and those due in it are answered, failed, or late at its end. The late are counted on their own, not as
 * what is left over: those a connection holds and those due that none has taken yet, read in one moment with the
 * answered and failed (a request passes from taken to held to ended under one lock, the ledger, which a window's
 * reading takes too), so that the identity is a check, not a definition. A late request's age at the window's end is a
 * lower bound of its latency, kept apart ({@link Window#lateMicros}, which holds each late request once). The client's
 * own lateness (a send that left later than it could have, because this process was slow to wake) is measured too
 * ({@link Window#lagMicros}).
 */
public final class OpenLoop implements AutoCloseable {
    /** A worker's slot when it holds no request due. */
    private static final long IDLE = Long.MAX_VALUE;

    /**
     * What one window saw. {@code lateAtStart} and {@code offered} (due in it) are {@code ok + failed + timeouts +
     * late}; {@code late}: due and not answered at its end, of which {@code unsent} had not left the client. Histograms
     * in microseconds: answered requests from their intended start ({@code latencyMicros}) and from their send
     * ({@code sendMicros}), the late ones' ages at the window's end ({@code lateMicros}, lower bounds), and how late
     * sends left for the client's own reasons ({@code lagMicros}); the CPU time the client's process used in it
     * ({@code cpuNanos}, all its threads, its GC and compiler; -1: not known).
     */
    public record Window(
            long startEpochNanos,
            long nanos,
            long lateAtStart,
            long offered,
            long ok,
            long failed,
            long timeouts,
            long late,
            long unsent,
            Histogram latencyMicros,
            Histogram sendMicros,
            Histogram lateMicros,
            Histogram lagMicros,
            Map<String, Long> causes,
            long cpuNanos) {
        /** Failed and timed-out requests together. */
        public long errors() {
            return failed + timeouts;
        }

        /**
         * Whether every request is accounted for: those late at the start and those due equal those answered, failed
         * and late at the end.
         */
        public boolean accounted() {
            return lateAtStart + offered == ok + errors() + late;
        }

        /**
         * The latencies the window's figures are of: the answered requests' from their intended start, and the late
         * ones' ages (at least).
         */
        public Histogram judged() {
            Histogram h = latencyMicros.copy();
            h.add(lateMicros);
            return h;
        }
    }

    private final Requests requests;
    private final byte[][] bytes;
    private final double rate;
    private final int timeoutMillis;
    private final long periodNanos;
    private final long startNanos;
    private final long startEpochNanos;
    private final AtomicLong next = new AtomicLong();
    private final AtomicLongArray holding;
    /**
     * Taken with every change of a request's state (taken, held, answered, failed, abandoned at the stop) and with a
     * window's reading of them all: a window sees each request in exactly one state.
     */
    private final Object ledger = new Object();

    private final Recorder latencies = new Recorder(LatencyHistograms.HIGHEST_MICROS, 3);
    private final Recorder sends = new Recorder(LatencyHistograms.HIGHEST_MICROS, 3);
    private final Recorder lags = new Recorder(LatencyHistograms.HIGHEST_MICROS, 3);
    private final LongAdder failed = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final Map<String, LongAdder> causes = new ConcurrentHashMap<>();
    private final List<Thread> workers = new ArrayList<>();
    /** The plain-HTTP connections' one thread; null for TLS, whose connections are a thread each. */
    private final EventLoop loop;

    private volatile long stopNanos = Long.MAX_VALUE;
    /** What {@link #stop} returned, once stopped. */
    private Window stopWindow;
    /** The thread waiting for a window's end, woken by a stop. */
    private volatile Thread reader;

    private long windowStart;
    private long lateBefore;
    private long failedBefore;
    private long timeoutsBefore;
    private long cpuBefore = ProcessCpu.nanos();
    private final Map<String, Long> causesBefore = new TreeMap<>();

    /**
     * Starts sending {@code target}'s request at {@code rate} requests a second over {@code connections} connections.
     */
    public OpenLoop(Target target, double rate, int connections, int timeoutMillis) {
        this(Requests.of(target), rate, connections, timeoutMillis);
    }

    /**
     * Starts sending {@code requests} (request i the one its order gives) at {@code rate} a second over
     * {@code connections} connections.
     */
    public OpenLoop(Requests requests, double rate, int connections, int timeoutMillis) {
        this.requests = requests;
        this.bytes = requests.targets().stream().map(Target::requestBytes).toArray(byte[][]::new);
        this.rate = rate;
        this.timeoutMillis = timeoutMillis;
        this.periodNanos = Math.max(1, Math.round(1e9 / rate));
        this.holding = new AtomicLongArray(connections);
        Instant now = Instant.now();
        this.startNanos = System.nanoTime();
        this.startEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        this.windowStart = startNanos;
        for (int i = 0; i < connections; i++) {
            holding.set(i, IDLE);
        }
        if (requests.first().tls()) {
            this.loop = null;
            for (int i = 0; i < connections; i++) {
                int slot = i;
                workers.add(new Thread(() -> work(slot), "loomscope-load-" + i));
            }
        } else {
            this.loop = new EventLoop(this, requests, bytes, connections, timeoutMillis);
            workers.add(new Thread(loop, "loomscope-load-loop"));
        }
        workers.forEach(t -> {
            t.setDaemon(true);
            t.start();
        });
    }

    /** Whether the load has stopped: no request is sent from then on. */
    boolean stopped() {
        return stopNanos != Long.MAX_VALUE;
    }

    /** How many requests connections have taken: the next one's index. */
    long taken() {
        return next.get();
    }

    /**
     * The event loop takes the next request for connection {@code slot} when it is due by {@code now} and before the
     * stop; its index, or -1 when there is none to take.
     */
    long take(int slot, long now) {
        synchronized (ledger) {
            long index = next.get();
            long due = dueAt(index);
            if (due > now || due >= stopNanos) {
                return -1;
            }
            next.set(index + 1);
            holding.set(slot, due);
            return index;
        }
    }

    public double rate() {
        return rate;
    }

    /**
     * One thread a connection, each a blocking {@link HttpConnection}: for TLS, whose handshake and records the JDK's
     * socket does.
     */
    private void work(int slot) {
        try (HttpConnection c = new HttpConnection(requests.first(), timeoutMillis)) {
            long free = System.nanoTime();
            while (stopNanos == Long.MAX_VALUE) { // once stopped, no connection takes another request
                long index;
                synchronized (ledger) {
                    index = next.getAndIncrement();
                    holding.set(slot, dueAt(index));
                }
                long due = dueAt(index);
                for (long wait = due - System.nanoTime(); wait > 0 && due < stopNanos; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                if (!sending(slot, due)) {
                    return;
                }
                long sent = sent(due, free);
                try {
                    int which = target(index);
                    answered(slot, due, sent, c.exchange(requests.targets().get(which), bytes[which]));
                } catch (IOException | RuntimeException e) {
                    failed(slot, e);
                    // a refused or broken connection fails at once: without a pause a dead server would be hammered in
                    // a busy loop
                    LockSupport.parkNanos(restNanos());
                }
                free = System.nanoTime();
            }
        }
    }

    /**
     * Whether the request {@code slot} holds, due at {@code due} (now or before), leaves: not when it is due at the
     * stop or after, when it is let go (never offered).
     */
    private boolean sending(int slot, long due) {
        synchronized (ledger) {
            if (due >= stopNanos) {
                holding.set(slot, IDLE);
                return false;
            }
            return true;
        }
    }

    /** When request {@code index} is due (nanoTime). */
    long dueAt(long index) {
        return startNanos + index * periodNanos;
    }

    /** Which of the targets request {@code index} sends (its index in {@link Requests#targets()}). */
    int target(long index) {
        return requests.order().get((int) (index % requests.order().size()));
    }

    /**
     * A request due at {@code due} leaves now, on a connection free since {@code free}: how late that is for the
     * client's own reasons is recorded.
     */
    long sent(long due, long free) {
        long sent = System.nanoTime();
        lags.recordValue(Math.min(Math.max(0, sent - Math.max(due, free)) / 1000, LatencyHistograms.HIGHEST_MICROS));
        return sent;
    }

    /**
     * The response to the request {@code slot} held, due at {@code due} and sent at {@code sent}, came now with
     * {@code status}; now (nanoTime).
     */
    long answered(int slot, long due, long sent, int status) {
        long end = System.nanoTime();
        synchronized (ledger) {
            if (status >= 200 && status < 400) {
                latencies.recordValue(Math.min((end - due) / 1000, LatencyHistograms.HIGHEST_MICROS));
                sends.recordValue(Math.min((end - sent) / 1000, LatencyHistograms.HIGHEST_MICROS));
            } else {
                count("HTTP " + status);
                failed.increment();
            }
            holding.set(slot, IDLE);
        }
        return end;
    }

    /** The request {@code slot} held failed with {@code e}: a timeout, or another error. */
    void failed(int slot, Throwable e) {
        String cause = HttpConnection.cause(e);
        synchronized (ledger) {
            count(cause);
            (e instanceof SocketTimeoutException ? timeouts : failed).increment();
            holding.set(slot, IDLE);
        }
    }

    private void count(String cause) {
        causes.computeIfAbsent(cause, k -> new LongAdder()).increment();
    }

    /** How long a connection whose request failed rests before it takes another. */
    long restNanos() {
        return Math.min(periodNanos, 10_000_000L);
    }

    /** Waits until the window that began at the last call ends, {@code nanos} after it began, and takes its figures. */
    public Window window(long nanos) {
        long end = windowStart + nanos;
        reader = Thread.currentThread();
        for (long wait = end - System.nanoTime(); wait > 0 && !stopped(); wait = end - System.nanoTime()) {
            LockSupport.parkNanos(wait);
        }
        return read(end, true);
    }

    /**
     * The figures of the window from its start to {@code end}; {@code atRead}: the window ends when its counts are
     * read, at {@code end} or later, so that every request they count was due in it or before (one that was due after
     * {@code end} may have ended by then, on a fast server).
     */
    private synchronized Window read(long end, boolean atRead) {
        Histogram answered;
        Histogram sent;
        long failedNow;
        long timeoutsNow;
        long taken;
        long[] held = new long[holding.length()];
        Map<String, Long> why = new TreeMap<>();
        synchronized (ledger) {
            // the answered are those the latency histogram holds, so that a window's count and its histogram never
            // differ; every request recorded, held or not yet taken at one moment, each in one of them
            answered = latencies.getIntervalHistogram();
            sent = sends.getIntervalHistogram();
            failedNow = failed.sum();
            timeoutsNow = timeouts.sum();
            taken = next.get();
            for (int i = 0; i < held.length; i++) {
                held[i] = holding.get(i);
            }
            causes.forEach((k, v) -> {
                long n = v.sum() - causesBefore.getOrDefault(k, 0L);
                if (n > 0) {
                    why.put(k, n);
                }
                causesBefore.put(k, v.sum());
            });
            if (atRead) {
                end = Math.max(end, System.nanoTime());
            }
        }
        long offered = dueBefore(end) - dueBefore(windowStart);
        Histogram lateAges = new Histogram(LatencyHistograms.HIGHEST_MICROS, 3);
        long inFlight = ages(end, held, lateAges);
        long unsent = unsent(end, taken, lateAges);
        long cpuNow = ProcessCpu.nanos();
        Window w = new Window(
                startEpochNanos + (windowStart - startNanos),
                end - windowStart,
                lateBefore,
                offered,
                answered.getTotalCount(),
                failedNow - failedBefore,
                timeoutsNow - timeoutsBefore,
                inFlight + unsent,
                unsent,
                answered,
                sent,
                lateAges,
                lags.getIntervalHistogram(),
                why,
                cpuNow < 0 || cpuBefore < 0 ? -1 : cpuNow - cpuBefore);
        cpuBefore = cpuNow;
        windowStart = end;
        lateBefore = w.late();
        failedBefore = failedNow;
        timeoutsBefore = timeoutsNow;
        return w;
    }

    /**
     * Records into {@code into} the age at {@code end} of each request the connections held ({@code held}: each one's
     * due time, or {@link #IDLE}) that was due before it; returns how many.
     */
    private static long ages(long end, long[] held, Histogram into) {
        long n = 0;
        for (long due : held) {
            if (due < end) {
                into.recordValue(Math.min((end - due) / 1000, LatencyHistograms.HIGHEST_MICROS));
                n++;
            }
        }
        return n;
    }

    /**
     * Records into {@code into} the age at {@code end} of each request due before it that no connection had taken
     * ({@code taken} were); returns how many.
     */
    private long unsent(long end, long taken, Histogram into) {
        long dueByEnd = dueBefore(end);
        if (dueByEnd <= taken) {
            return 0;
        }
        // their due times are evenly spaced: the ages from the oldest to the newest, a value per request up to 10,000
        // and by stride beyond
        long unsent = dueByEnd - taken;
        long stride = Math.max(1, unsent / 10_000);
        for (long k = taken; k < dueByEnd; k += stride) {
            long age = (end - (startNanos + k * periodNanos)) / 1000;
            into.recordValueWithCount(
                    Math.min(Math.max(0, age), LatencyHistograms.HIGHEST_MICROS), Math.min(stride, dueByEnd - k));
        }
        return unsent;
    }

    /** Requests due before {@code t} (nanoTime). */
    private long dueBefore(long t) {
        return Math.max(0, Math.floorDiv(t - startNanos + periodNanos - 1, periodNanos));
    }

    /**
     * Stops sending: no request due from now on is sent; those on the way get until the timeout to end. The figures of
     * the time since the last window are its own window, returned: its {@code late} are the requests due before now
     * that never ended, {@code unsent} those of them that no connection could send (the service fell behind the rate).
     * Stopped again, the same window: a signal's stop and the run's own end may both ask.
     */
    public synchronized Window stop() {
        if (stopWindow != null) {
            return stopWindow;
        }
        long now;
        synchronized (ledger) { // a request not taken by now, or let go since, is not offered
            now = System.nanoTime();
            stopNanos = now;
        }
        // a worker waiting for a request due after the stop ends now, not when it was due
        workers.forEach(LockSupport::unpark);
        Thread waiting = reader;
        if (waiting != null) {
            LockSupport.unpark(waiting); // a window in progress ends now, to be dropped
        }
        if (loop != null) {
            loop.wakeup();
        }
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
        // the load ended at the stop: nothing due after it was offered; the late are those that never ended
        stopWindow = read(now, false);
        return stopWindow;
    }

    @Override
    public void close() {
        if (stopNanos == Long.MAX_VALUE) {
            stop();
        }
    }
}
