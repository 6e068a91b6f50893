package dev.loomscope.analyzer.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The open loop's defining behaviour: a server that stalls shows in the latency of every request
 * due during the stall (counted from when it was due), where a closed-loop client would have
 * waited and counted one slow request.
 */
class OpenLoopTest {
    @Test
    void aStallIsInTheLatencyOfEveryRequestDueDuringIt() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        AtomicBoolean stalled = new AtomicBoolean();
        server.createContext("/", x -> {
            if (stalled.compareAndSet(false, true)) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            x.sendResponseHeaders(200, 2);
            x.getResponseBody().write("ok".getBytes());
            x.close();
        });
        server.start();
        try (OpenLoop load = new OpenLoop(Target.of("http://127.0.0.1:" + server.getAddress().getPort() + "/"), 100, 1, 10_000)) {
            OpenLoop.Window w = load.window(3_000_000_000L);
            // 100/s over 3 s, whatever the server did
            assertThat(w.offered()).isEqualTo(300);
            assertThat(w.errors()).isZero();
            // one connection: the requests due in the stall's first half second waited at least its second half, from when each was due
            long late = w.latencyMicros().getCountBetweenValues(500_000, Long.MAX_VALUE / 2);
            assertThat(late).as("requests with a latency of 0.5 s or more").isGreaterThanOrEqualTo(45);
            assertThat(w.latencyMicros().getMaxValue()).isGreaterThanOrEqualTo(990_000);
            OpenLoop.Window rest = load.stop();
            assertThat(w.ok() + rest.ok() + rest.errors()).isLessThanOrEqualTo(w.offered() + rest.offered());
        } finally {
            server.stop(0);
        }
    }
}
