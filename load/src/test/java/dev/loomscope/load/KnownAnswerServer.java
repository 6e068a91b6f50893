package dev.loomscope.load;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * A server whose answer is known: {@code workers} workers, each holding a request {@code holdMillis} (a sleep) before
 * it answers 200: its capacity is exactly workers / hold. At a constant arrival rate below it no request waits, and
 * each takes the hold; above it the throughput is the capacity and the latency grows with time. On platform threads a
 * fixed pool of that many; on virtual threads one a request, that many at once (a semaphore). On a busy machine a
 * worker can wake late and the next request wait for it: the server keeps its own latencies (from the request's
 * dispatch to its answer written) for a test to set the client's beside.
 */
public final class KnownAnswerServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;
    final int workers;
    final int holdMillis;
    private final Histogram served = new Histogram(3_600_000_000L, 3);
    /**
     * A young JVM's slowness: each request held {@code coldMillis} instead until {@code coldNanos} after the first
     * request (0: never).
     */
    private final int coldMillis;

    private final long coldNanos;
    private final AtomicLong firstRequest = new AtomicLong();

    public KnownAnswerServer(int workers, int holdMillis, boolean virtual) throws IOException {
        this(workers, holdMillis, virtual, 0, 0, 0);
    }

    /**
     * A server slow while young, as a JVM compiling: each request held {@code coldMillis} for the first
     * {@code coldSeconds} of its load.
     */
    KnownAnswerServer(int workers, int holdMillis, int coldMillis, double coldSeconds) throws IOException {
        this(workers, holdMillis, false, 0, coldMillis, (long) (coldSeconds * 1e9));
    }

    private KnownAnswerServer(int workers, int holdMillis, boolean virtual, int port, int coldMillis, long coldNanos)
            throws IOException {
        this.coldMillis = coldMillis;
        this.coldNanos = coldNanos;
        this.workers = workers;
        this.holdMillis = holdMillis;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1000);
        Semaphore slots = new Semaphore(workers, true);
        executor = virtual ? Executors.newVirtualThreadPerTaskExecutor() : Executors.newFixedThreadPool(workers);
        server.setExecutor(task -> {
            long dispatched = System.nanoTime();
            executor.execute(() -> {
                task.run();
                synchronized (served) {
                    served.recordValue(Math.max(0, (System.nanoTime() - dispatched) / 1000));
                }
            });
        });
        server.createContext("/", x -> {
            try {
                x.getRequestBody().readAllBytes();
                if (virtual) {
                    slots.acquire();
                }
                try {
                    long now = System.nanoTime();
                    firstRequest.compareAndSet(0, now);
                    Thread.sleep(now - firstRequest.get() < coldNanos ? this.coldMillis : holdMillis);
                } finally {
                    if (virtual) {
                        slots.release();
                    }
                }
                x.sendResponseHeaders(200, 2);
                x.getResponseBody().write("ok".getBytes());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                x.close();
            }
        });
        server.start();
    }

    /**
     * The server on its own, for benchmarks/load-clients.sh: {@code PORT WORKERS HOLD_MS platform|virtual}; it serves
     * until killed and prints its URL when it listens.
     */
    public static void main(String[] args) throws Exception {
        KnownAnswerServer s = new KnownAnswerServer(
                Integer.parseInt(args[1]),
                Integer.parseInt(args[2]),
                args[3].equals("virtual"),
                Integer.parseInt(args[0]),
                0,
                0);
        System.out.println(s.url() + " capacity " + s.capacity() + "/s");
        Thread.currentThread().join();
    }

    /** Requests a second it serves at most. */
    double capacity() {
        return workers * 1000.0 / holdMillis;
    }

    /**
     * The server's own latencies (microseconds) since the last call, from each request's dispatch to its answer
     * written.
     */
    Histogram servedSinceLast() {
        synchronized (served) {
            Histogram h = served.copy();
            served.reset();
            return h;
        }
    }

    /**
     * A short run against this server: 200 requests a second over {@code connections}, a warm-up of 1-3 s, then 3
     * measured windows of a second, no ramp.
     */
    public LoadSpec threeWindowsAt200(int connections) {
        return Spec.of(url())
                .rate(200.0)
                .connections(connections)
                .warmup(Duration.ofSeconds(1), Duration.ofSeconds(3))
                .windows(3, Duration.ofSeconds(1))
                .threadKind("platform")
                .build();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
