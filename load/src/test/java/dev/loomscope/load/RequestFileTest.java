package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request file: the mix it holds, its errors by line, and the load it makes: each request as often as its weight
 * says.
 */
public class RequestFileTest {
    @TempDir
    Path dir;

    /** A request file of two requests, three reads to a write; {@code {port}} in their URLs. */
    public static final String MIX = """
        # the shop's traffic: three reads to a write
        ### read weight=3
        GET http://127.0.0.1:{port}/items

        ### write weight=1
        POST http://127.0.0.1:{port}/orders
        Content-Type: application/json
        Authorization: Bearer t0k3n

        {"item": 42}

        """;

    @Test
    void aMixIsReadWithItsWeightsHeadersAndBodies() throws Exception {
        Path f = Files.writeString(dir.resolve("shop.http"), MIX);
        Requests r = RequestFile.read(f, u -> u.replace("{port}", "8080"));
        assertThat(r.label()).isEqualTo("requests shop.http");
        assertThat(r.targets()).extracting(Target::label).containsExactly("GET /items", "POST /orders");
        assertThat(r.targets().get(1).headers())
                .containsExactly("Content-Type: application/json", "Authorization: Bearer t0k3n");
        assertThat(new String(r.targets().get(1).body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"item\": 42}");
        // three reads to a write, spread: never the write twice in four
        assertThat(r.order()).containsExactly(0, 0, 1, 0);
        assertThat(Requests.mix("m", List.of(Target.of("http://x/a"), Target.of("http://x/b")), List.of(5, 2), "m")
                        .order())
                .containsExactly(0, 1, 0, 0, 0, 1, 0); // nginx's smooth weighted round robin, worked by hand
    }

    @Test
    void whatIsWrongIsSaidWithItsLine() throws Exception {
        assertThatThrownBy(() -> RequestFile.read(
                        Files.writeString(dir.resolve("a.http"), "### weight=0\nGET http://x/\n"), u -> u))
                .hasMessageEndingWith("a.http:1: weight=0 is not a whole number from 1 to 1000");
        assertThatThrownBy(() -> RequestFile.read(
                        Files.writeString(dir.resolve("b.http"), "GET http://x/\n###\nGET http://y/\n"), u -> u))
                .hasMessageContaining("b.http:3: goes to http://y:80, the file's first request to http://x:80");
        assertThatThrownBy(() -> RequestFile.read(Files.writeString(dir.resolve("c.http"), "GET ftp://x/\n"), u -> u))
                .hasMessageContaining("c.http:1: URL ftp://x/: not an http:// or https:// URL");
        assertThatThrownBy(() -> RequestFile.read(Files.writeString(dir.resolve("d.http"), "# nothing\n"), u -> u))
                .hasMessageEndingWith(
                        "d.http: no request in it (a request is a line METHOD URL; see 'loomscope load --help')");
        assertThatThrownBy(() -> RequestFile.read(dir.resolve("none.http"), u -> u))
                .hasMessageContaining("none.http: no such file");
    }

    @Test
    void theLoadSendsEachRequestAsOftenAsItsWeight() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        server.createContext("/", x -> {
            String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean right = x.getRequestMethod().equals("GET")
                    || body.equals("{\"item\": 42}")
                            && "Bearer t0k3n".equals(x.getRequestHeaders().getFirst("Authorization"));
            seen.computeIfAbsent(x.getRequestMethod() + " " + x.getRequestURI(), k -> new AtomicInteger())
                    .incrementAndGet();
            x.sendResponseHeaders(right ? 200 : 400, -1);
            x.close();
        });
        server.start();
        try {
            Path f = Files.writeString(dir.resolve("shop.http"), MIX);
            Requests r = RequestFile.read(
                    f,
                    u -> u.replace(
                            "{port}", Integer.toString(server.getAddress().getPort())));
            try (OpenLoop load = new OpenLoop(r, 100, 4, 5000)) {
                OpenLoop.Window w = load.window(2_000_000_000L);
                OpenLoop.Window rest = load.stop();
                assertThat(w.errors() + rest.errors())
                        .as(w.causes() + " " + rest.causes())
                        .isZero();
                long sent = w.ok() + rest.ok();
                // every request due answered, but one due in the stop's last instant that no connection had taken
                // (never sent)
                assertThat(sent + rest.unsent()).isEqualTo(w.offered() + rest.offered());
                assertThat(rest.unsent()).isLessThan(w.offered() / 10);
                // request i is the order's (i mod 4): the reads and writes in that proportion, to the request
                assertThat(seen.get("POST /orders").get()).isEqualTo((int) (sent / 4 + (sent % 4 > 2 ? 1 : 0)));
                assertThat(seen.get("GET /items").get())
                        .isEqualTo((int) (sent - seen.get("POST /orders").get()));
            }
        } finally {
            server.stop(0);
        }
    }
}
