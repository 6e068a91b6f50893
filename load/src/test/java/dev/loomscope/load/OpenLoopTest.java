package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;
import org.assertj.core.data.Offset;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The open loop's defining behaviour: a server that stalls shows in the latency of every request due during the stall
 * (counted from when it was due), where a closed-loop client would have waited and counted one slow request.
 */
class OpenLoopTest {
    @Test
    void aStallIsInTheLatencyOfEveryRequestDueDuringIt() throws Exception {
        AtomicBoolean stalled = new AtomicBoolean();
        HttpServer server = holding(() -> stalled.compareAndSet(false, true), 1000);
        server.start();
        long ticksBefore = selfTicks();
        try (OpenLoop load =
                new OpenLoop(Target.of("http://127.0.0.1:" + server.getAddress().getPort() + "/"), 100, 1, 10_000)) {
            OpenLoop.Window w = load.window(3_000_000_000L);
            long ticks = selfTicks() - ticksBefore;
            // the client's CPU in the window, as the kernel's accounting of this process has it (/proc/self/stat, in
            // ticks of 10 ms)
            assertThat(w.cpuNanos()).isPositive();
            assertThat(w.cpuNanos() / 1e6)
                    .as("CPU ms against %d ticks", ticks)
                    .isCloseTo(ticks * 10.0, Offset.offset(30 + ticks * 2.0));
            // 100/s over 3 s, whatever the server did (the window ends when its counts are read: a request or two later
            // at most)
            assertThat(w.offered()).isBetween(300L, 302L);
            assertThat(w.offered())
                    .isEqualTo((w.nanos() + 9_999_999) / 10_000_000); // one due every 10 ms of the window
            assertThat(w.errors()).isZero();
            // one connection: the requests due in the stall's first half second waited at least its second half, from
            // when each was due
            long late = w.latencyMicros().getCountBetweenValues(500_000, Long.MAX_VALUE / 2);
            assertThat(late).as("requests with a latency of 0.5 s or more").isGreaterThanOrEqualTo(45);
            assertThat(w.latencyMicros().getMaxValue()).isGreaterThanOrEqualTo(990_000);
            OpenLoop.Window rest = load.stop();
            assertThat(w.accounted()).isTrue();
            assertThat(rest.accounted()).isTrue();
            assertThat(w.ok() + rest.ok() + rest.errors() + rest.late()).isEqualTo(w.offered() + rest.offered());
        } finally {
            server.stop(0);
        }
    }

    /** This process's user and system time so far, in the kernel's clock ticks (utime and stime of /proc/self/stat). */
    private static long selfTicks() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * On a server whose answer is known (20 workers holding a request 400 ms: 50 requests a second; a hold long beside
     * a busy machine's scheduling delays, so that 10% is the client's error, not theirs), on both thread kinds: below
     * its capacity the client sees every request answered in about the hold (or what the server itself saw), at the
     * offered rate; above it, the capacity answered and every request still accounted for, the rest late, and the
     * service not keeping up.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theClientRecoversAKnownAnswer(boolean virtual) throws Exception {
        try (KnownAnswerServer server = new KnownAnswerServer(20, 400, virtual)) {
            Target t = Target.of(server.url());
            for (double share : new double[] {0.5, 0.9}) {
                double rate = share * server.capacity();
                try (OpenLoop load = new OpenLoop(t, rate, 50, 10_000)) {
                    load.window(2_000_000_000L); // warm-up
                    server.servedSinceLast();
                    OpenLoop.Window w = load.window(5_000_000_000L);
                    assertThat(w.accounted()).isTrue();
                    assertThat(w.errors()).isZero();
                    // due in the window: the schedule's count, whatever the machine does
                    assertThat(w.offered())
                            .as("offered at %.0f%% of capacity", 100 * share)
                            .isCloseTo(Math.round(rate * 5), Offset.offset(1L));
                    // answered in the window: what the server itself served in it, give or take those in flight at its
                    // two ends (a hold's worth
                    // at most); at the rate itself where the machine let the server keep up (a busy one wakes its
                    // workers late)
                    Histogram own = server.servedSinceLast();
                    assertThat((double) w.ok())
                            .as(
                                    "answered at %.0f%% of capacity, the server served %d",
                                    100 * share, own.getTotalCount())
                            .isCloseTo(own.getTotalCount(), Offset.offset(rate * 0.4 + 2));
                    if (own.getValueAtPercentile(99) / 1e3 < 440
                            && w.lagMicros().getValueAtPercentile(99) / 1e3 < 40) {
                        assertThat(w.ok() / 5.0)
                                .as("throughput at %.0f%% of capacity", 100 * share)
                                .isCloseTo(rate, Percentage.withPercentage(3));
                    }
                    // the hold, what the server itself saw beyond it (a worker that woke late on a busy machine) and
                    // the client's own lateness
                    // in sending, which it measures and a study leaves out: beyond those the client adds at most 10% of
                    // the hold
                    Histogram h = w.latencyMicros();
                    for (double p : new double[] {50, 99}) {
                        double ceiling = Math.max(400, own.getValueAtPercentile(p) / 1e3)
                                + 40
                                + w.lagMicros().getValueAtPercentile(p) / 1e3;
                        assertThat(h.getValueAtPercentile(p) / 1e3)
                                .as(
                                        "p%.0f at %.0f%% (the server's own %.1f ms, the client's lag %.1f ms)",
                                        p,
                                        100 * share,
                                        own.getValueAtPercentile(p) / 1e3,
                                        w.lagMicros().getValueAtPercentile(p) / 1e3)
                                .isBetween(400.0, ceiling);
                    }
                }
            }
            double rate = 1.5 * server.capacity();
            try (OpenLoop load = new OpenLoop(t, rate, 50, 10_000)) {
                List<OpenLoop.Window> windows = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    windows.add(load.window(1_000_000_000L));
                }
                OpenLoop.Window w = load.window(4_000_000_000L);
                windows.forEach(x -> assertThat(x.accounted()).isTrue());
                assertThat(w.accounted()).isTrue();
                assertThat(w.ok() / 4.0)
                        .as("throughput past capacity")
                        .isCloseTo(server.capacity(), Percentage.withPercentage(5));
                // 25 a second more due than answered: the late grow by that, and the oldest waited seconds
                assertThat(w.late() - w.lateAtStart()).isBetween((long) (0.9 * 4 * (rate - server.capacity())), (long)
                        (1.1 * 4 * (rate - server.capacity())));
                assertThat(w.judged().getValueAtPercentile(99))
                        .isGreaterThan(w.latencyMicros().getValueAtPercentile(50));
                assertThat(Steadiness.moving(windows.subList(1, 6))).startsWith("not keeping up");
                OpenLoop.Window rest = load.stop();
                assertThat(rest.accounted()).isTrue();
                assertThat(rest.unsent())
                        .as("due, never sent: the client's queue when the load ended")
                        .isPositive();
                // those in flight at the stop ended within the timeout: the late at the end are the never sent alone,
                // each with its age
                assertThat(rest.late()).isEqualTo(rest.unsent());
                assertThat(rest.lateMicros().getTotalCount()).isEqualTo(rest.late());
            }
        }
    }

    /**
     * A server on a free port of 127.0.0.1 that answers 200 "ok" at once, but holds {@code holdMillis} first each
     * request {@code holds} says to.
     */
    static HttpServer holding(BooleanSupplier holds, long holdMillis) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1000);
        server.createContext("/", x -> {
            if (holds.getAsBoolean()) {
                try {
                    Thread.sleep(holdMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            x.sendResponseHeaders(200, 2);
            x.getResponseBody().write("ok".getBytes());
            x.close();
        });
        return server;
    }
}
