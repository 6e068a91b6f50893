package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.loomscope.load.stats.LatencyHistograms;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The stalls figure against a server whose answer is known: it holds every 40th request 1.3 s and answers the rest at
 * once, a virtual thread a request (none waits for another). The client's requests a second or more late are the ones
 * the server held, one for one.
 */
class StallsTest {
    @Test
    void theStallsAreTheRequestsTheServerHeld() throws Exception {
        AtomicInteger seen = new AtomicInteger();
        AtomicInteger held = new AtomicInteger();
        HttpServer server = OpenLoopTest.holding(
                () -> {
                    boolean hold = seen.incrementAndGet() % 40 == 0;
                    if (hold) {
                        held.incrementAndGet();
                    }
                    return hold;
                },
                1_300);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        try (OpenLoop load =
                new OpenLoop(Target.of("http://127.0.0.1:" + server.getAddress().getPort() + "/"), 100, 20, 10_000)) {
            OpenLoop.Window w = load.window(4_000_000_000L);
            Thread.sleep(1_500); // the last held ones answered before the stop takes the rest
            OpenLoop.Window rest = load.stop();
            Histogram all = w.latencyMicros().copy();
            all.add(rest.latencyMicros());
            long answered = all.getTotalCount();
            assertThat(answered).isEqualTo(seen.get());
            assertThat(held.get()).isPositive();
            double expected = 1000.0 * held.get() / answered;
            assertThat(LatencyHistograms.stallsPerThousand(all))
                    .as("%d held of %d", held.get(), answered)
                    .isEqualTo(expected);
        } finally {
            server.stop(0);
        }
        assertThat(LatencyHistograms.stallsPerThousand(new Histogram(3))).isNull();
    }
}
