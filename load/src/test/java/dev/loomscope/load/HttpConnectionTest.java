package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The load client's HTTP/1.1 on canned responses from a raw socket: every way a body can end, kept-alive or not;
 * requests as given; causes named.
 */
class HttpConnectionTest {

    /** Serves {@code responses} in turn, one a request, on as many connections as come; counts the connections. */
    private static final class Canned implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0);
        final AtomicInteger connections = new AtomicInteger();
        final List<String> requests = new CopyOnWriteArrayList<>();
        private final AtomicInteger next = new AtomicInteger();

        Canned(List<String> responses) throws Exception {
            Thread.ofPlatform().daemon().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        connections.incrementAndGet();
                        Thread.ofPlatform().daemon().start(() -> serve(s, responses));
                    } catch (Exception closed) {
                        return;
                    }
                }
            });
        }

        private void serve(Socket s, List<String> responses) {
            try (s;
                    BufferedReader in =
                            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII))) {
                OutputStream out = s.getOutputStream();
                while (true) {
                    String line = in.readLine();
                    if (line == null) {
                        return;
                    }
                    requests.add(line);
                    while (!(line = in.readLine()).isEmpty()) {
                        // headers
                    }
                    String r = responses.get(next.getAndIncrement() % responses.size());
                    if (r.equals("silence")) {
                        Thread.sleep(2000);
                        return;
                    }
                    out.write(r.getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    if (r.contains("Connection: close") || !r.contains("Content-Length") && !r.contains("chunked")) {
                        return;
                    }
                }
            } catch (Exception ended) {
                // the client went away
            }
        }

        Target target(String path) {
            return Target.of("http://127.0.0.1:" + server.getLocalPort() + path);
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    @Test
    void contentLengthChunkedAndClosedBodiesAreReadWhole() throws Exception {
        try (Canned c = new Canned(List.of(
                        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                        "HTTP/1.1 201 Created\r\nTransfer-Encoding:"
                                + " chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: t\r\n\r\n",
                        "HTTP/1.1 204 No Content\r\n\r\n",
                        "HTTP/1.1 503 Busy\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy",
                        "HTTP/1.0 200 OK\r\n\r\nto the end"));
                HttpConnection h = new HttpConnection(c.target("/x?y=1"), 5000)) {
            assertThat(List.of(h.exchange(), h.exchange(), h.exchange(), h.exchange(), h.exchange(), h.exchange()))
                    .containsExactly(200, 201, 204, 503, 200, 200);
            // kept alive over the first three; this server then closes (after the 204, unasked: the next GET is sent
            // again on a
            // new connection), after the 503 as it said, and after the HTTP/1.0 body, which ends with the connection
            assertThat(c.connections.get()).isEqualTo(4);
            assertThat(c.requests).first().isEqualTo("GET /x?y=1 HTTP/1.1");
        }
    }

    /**
     * The event loop, which carries plain HTTP under load, reads the same responses as the blocking connection: every
     * way a body ends, a 503 an error by its status; and it names the same causes for a silent, a garbled and a dead
     * server. Each request ended is one that was due.
     */
    @Test
    void theEventLoopReadsEveryResponseAndNamesEachCause() throws Exception {
        try (Canned c = new Canned(List.of(
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer:"
                        + " t\r\n\r\n",
                "HTTP/1.1 204 No Content\r\n\r\n",
                "HTTP/1.1 503 Busy\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy",
                "HTTP/1.0 200 OK\r\n\r\nto the end"))) {
            Map<String, Long> causes = new TreeMap<>();
            long[] ended = new long[3];
            try (OpenLoop load = new OpenLoop(c.target("/x"), 50, 2, 5000)) {
                OpenLoop.Window first = load.window(1_000_000_000L);
                OpenLoop.Window rest = load.stop();
                for (OpenLoop.Window w : new OpenLoop.Window[] {first, rest}) {
                    assertThat(w.accounted()).isTrue();
                    ended[0] += w.ok() + w.errors();
                    ended[1] += w.offered();
                    w.causes().forEach((k, v) -> causes.merge(k, v, Long::sum));
                }
                // left at the stop only a request due in its last instant that no connection had taken (never sent,
                // said so)
                assertThat(rest.late())
                        .as("left unanswered at the stop")
                        .isEqualTo(rest.unsent())
                        .isLessThan(5);
                ended[2] = rest.unsent();
            }
            assertThat(ended[1]).as("requests due").isGreaterThanOrEqualTo(50);
            assertThat(ended[0] + ended[2])
                    .as("every request due was answered or, at the stop, never sent")
                    .isEqualTo(ended[1]);
            assertThat(causes).containsOnlyKeys("HTTP 503");
            assertThat(causes.get("HTTP 503"))
                    .as("one response in five is the 503")
                    .isBetween(ended[0] / 5 - 1, ended[0] / 5 + 1);
        }
        try (Canned c = new Canned(List.of("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
                OpenLoop load = new OpenLoop(c.target("/"), 50, 4, 5000)) {
            assertThat(load.window(1_000_000_000L).errors()).isZero();
            load.stop();
            assertThat(c.connections.get())
                    .as("every connection asked for is used in turn and kept alive")
                    .isEqualTo(4);
        }
        try (Canned c = new Canned(List.of("silence"))) {
            assertThat(causesOf(c.target("/"), 200)).containsKey("no answer within the request timeout");
        }
        try (Canned c = new Canned(List.of("SSH-2.0-OpenSSH\r\n\r\n"))) {
            assertThat(causesOf(c.target("/"), 1000).keySet())
                    .singleElement()
                    .asString()
                    .startsWith("not HTTP (it answered SSH-2.0");
        }
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertThat(causesOf(Target.of("http://127.0.0.1:" + closed + "/"), 1000))
                .containsOnlyKeys("connection refused");
        assertThat(causesOf(Target.of("http://no-such-host.invalid/"), 1000)).containsOnlyKeys("unknown host");
    }

    /**
     * The causes of the errors of half a second's load at 20 a second on {@code t}, each request with
     * {@code timeoutMillis}.
     */
    private static Map<String, Long> causesOf(Target t, int timeoutMillis) {
        try (OpenLoop load = new OpenLoop(t, 20, 1, timeoutMillis)) {
            OpenLoop.Window w = load.window(500_000_000L);
            assertThat(w.accounted()).isTrue();
            assertThat(w.ok()).isZero();
            return w.causes();
        }
    }

    @Test
    void aSilentServerTimesOutAndAGarbledOneIsAnError() throws Exception {
        try (Canned c = new Canned(List.of("silence"));
                HttpConnection h = new HttpConnection(c.target("/"), 200)) {
            assertThatThrownBy(h::exchange).isInstanceOf(SocketTimeoutException.class);
        }
        try (Canned c = new Canned(List.of("SSH-2.0-OpenSSH\r\n\r\n"));
                HttpConnection h = new HttpConnection(c.target("/"), 1000)) {
            assertThatThrownBy(h::exchange)
                    .satisfies(e -> assertThat(HttpConnection.cause(e)).startsWith("not HTTP (it answered SSH-2.0"));
        }
    }

    @Test
    void aPostSendsItsHeadersAndBodyAndAnInterimResponseIsPassed() throws Exception {
        try (Canned c = new Canned(
                        List.of("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok"));
                HttpConnection h = new HttpConnection(
                        Target.of(
                                "http://127.0.0.1:" + c.server.getLocalPort() + "/orders",
                                "POST",
                                List.of("Authorization: Bearer abc", "Content-Type: application/json"),
                                "{\"a\":1}".getBytes(StandardCharsets.UTF_8),
                                false),
                        5000)) {
            assertThat(h.exchange()).isEqualTo(201);
            assertThat(c.requests).first().isEqualTo("POST /orders HTTP/1.1");
        }
        String request = new String(
                Target.of(
                                "http://localhost:8080/orders",
                                "POST",
                                List.of("Authorization: Bearer abc"),
                                "{}".getBytes(StandardCharsets.UTF_8),
                                false)
                        .requestBytes(),
                StandardCharsets.ISO_8859_1);
        assertThat(request)
                .isEqualTo("POST /orders HTTP/1.1\r\nHost: localhost:8080\r\nAuthorization: Bearer abc\r\nUser-Agent:"
                        + " loomscope-load\r\nAccept: */*\r\nContent-Length: 2\r\n\r\n{}");
    }

    @Test
    void aDeadTargetSaysWhy() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        assertThat(Target.of("http://127.0.0.1:" + closed + "/").problem(2000))
                .isEqualTo(new HttpConnection.Failure("connection refused", false));
        assertThat(Target.of("http://no-such-host.invalid/").problem(2000))
                .isEqualTo(new HttpConnection.Failure("unknown host", false));
        try (ServerSocket silent = new ServerSocket(0)) {
            // it accepts (the backlog) and never answers: a slow service, measured rather than refused
            assertThat(Target.of("http://127.0.0.1:" + silent.getLocalPort() + "/")
                            .problem(300))
                    .isEqualTo(new HttpConnection.Failure("no answer within the request timeout", true));
        }
        try (ServerSocket plain = new ServerSocket(0)) {
            // a plain HTTP server spoken to with TLS, which answers the handshake's bytes with an HTTP error, as Jetty
            // and Tomcat do
            Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = plain.accept()) {
                    s.getOutputStream()
                            .write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                                    .getBytes(StandardCharsets.US_ASCII));
                } catch (Exception over) {
                    // the test is over
                }
            });
            assertThat(Target.of("https://127.0.0.1:" + plain.getLocalPort() + "/")
                            .problem(2000)
                            .words())
                    .startsWith("TLS failed");
        }
    }

    @Test
    void onlyPlainHttpUrlsWithAHostAreTargets() {
        assertThat(Target.of("http://localhost:8080/io").label()).isEqualTo("GET /io");
        assertThat(Target.of("http://example.org").path()).isEqualTo("/");
        assertThat(Target.of("http://example.org").port()).isEqualTo(80);
        assertThat(Target.of("https://localhost/").port()).isEqualTo(443);
        assertThat(Target.of("https://localhost/").tls()).isTrue();
        assertThatThrownBy(() -> Target.of("ftp://localhost/")).hasMessageContaining("not an http:// or https:// URL");
        assertThatThrownBy(() -> Target.of("localhost:8080")).hasMessageContaining("not an http:// or https:// URL");
        assertThatThrownBy(() -> Target.of("http://localhost/", "get", List.of(), new byte[0], false))
                .hasMessageContaining("--method get: not an HTTP method");
        assertThatThrownBy(() -> Target.of("http://localhost/", "GET", List.of("NoColon"), new byte[0], false))
                .hasMessageContaining("--header NoColon");
        assertThatThrownBy(() -> Target.of("http://[bad")).hasMessageStartingWith("--url http://[bad: not a URL");
    }
}
