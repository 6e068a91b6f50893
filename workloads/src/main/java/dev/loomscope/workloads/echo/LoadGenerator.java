package dev.loomscope.workloads.echo;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A built-in equivalent of {@code ab -n N -c C [-k]}: C platform-thread clients share N requests; without keep-alive
 * each request opens its own connection (HTTP/1.0, as ab does). Every response body is checked to equal the request.
 * Latency is per request, from connect (or send) to the last byte.
 */
public final class LoadGenerator {

    /** Result of one load run. */
    public record Result(long requests, long nanos, long[] latencyNanos) {
        public double percentileMs(double p) {
            long[] sorted = latencyNanos.clone();
            Arrays.sort(sorted);
            int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, idx))] / 1e6;
        }
    }

    private LoadGenerator() {}

    public static Result run(int port, int requests, int concurrency, boolean keepAlive) throws Exception {
        long[] latency = new long[requests];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Exception> failure = new AtomicReference<>();
        List<Thread> clients = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int c = 0; c < Math.min(concurrency, requests); c++) {
            clients.add(Thread.ofPlatform().name("echo-client-" + c).start(() -> {
                try {
                    client(port, requests, keepAlive, next, latency);
                } catch (Exception e) {
                    failure.compareAndSet(null, e);
                    next.set(requests); // stop the others
                }
            }));
        }
        for (Thread t : clients) {
            t.join();
        }
        long nanos = System.nanoTime() - t0;
        if (failure.get() != null) {
            throw failure.get();
        }
        return new Result(requests, nanos, latency);
    }

    private static void client(int port, int requests, boolean keepAlive, AtomicInteger next, long[] latency)
            throws IOException {
        InetAddress host = InetAddress.getLoopbackAddress();
        Socket socket = null;
        InputStream in = null;
        try {
            for (int i; (i = next.getAndIncrement()) < requests; ) {
                long t0 = System.nanoTime();
                if (socket == null) {
                    socket = new Socket(host, port);
                    socket.setTcpNoDelay(true);
                    in = new BufferedInputStream(socket.getInputStream(), 1024);
                }
                byte[] request = ("GET /echo/" + i + " HTTP/1.0\r\nHost: 127.0.0.1:" + port
                                + "\r\nUser-Agent: loomscope\r\n" + (keepAlive ? "Connection: keep-alive\r\n" : "")
                                + "\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1);
                OutputStream out = socket.getOutputStream();
                out.write(request);
                out.flush();
                byte[] head = EchoServer.readHead(in);
                if (head == null) {
                    throw new IOException("connection closed before a response to request " + i);
                }
                String h = new String(head, StandardCharsets.ISO_8859_1);
                if (!h.startsWith("HTTP/1.1 200 ")) {
                    throw new IOException("unexpected response to request " + i + ": "
                            + h.lines().findFirst().orElse(""));
                }
                byte[] body = in.readNBytes(EchoServer.contentLength(h));
                if (!Arrays.equals(body, request)) {
                    throw new IOException("echo of request " + i + " differs from the request");
                }
                latency[i] = System.nanoTime() - t0;
                if (!keepAlive) {
                    // Wait for the server's close, as an HTTP/1.0 client reading to the end does: the side
                    // that closes first keeps the connection in TIME_WAIT for a minute, and on this side
                    // that would hold an ephemeral port; 10,000 connections a run exhaust them within
                    // seconds, after which every connect costs the kernel a long search for a free port.
                    if (in.read() >= 0) {
                        throw new IOException("the server sent more than the response to request " + i);
                    }
                    socket.close();
                    socket = null;
                }
            }
        } finally {
            if (socket != null) {
                socket.close();
            }
        }
    }
}
