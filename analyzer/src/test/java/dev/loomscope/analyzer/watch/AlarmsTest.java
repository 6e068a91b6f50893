package dev.loomscope.analyzer.watch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The alarms' rules over sequences of refreshes: when each begins, that it is raised once an episode, and when an episode ends. */
class AlarmsTest {
    Alarms alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);

    /** A refresh of one second on a JVM of {@code parallelism} carriers, all mounted, {@code queued} waiting. */
    static Tick queued(int k, int parallelism, long queued) {
        return new Tick(Instant.ofEpochSecond(k), 1, new Tick.Scheduler(parallelism, parallelism, parallelism, queued), parallelism, -1, -1,
                new Interval(), new Tick.Streamed(false, false), false);
    }

    List<String> kinds(List<Tick> ticks) {
        List<String> raised = new ArrayList<>();
        for (Tick t : ticks) {
            alarms.check(t, new Interval()).forEach(a -> raised.add(a.kind() + "@" + t.at().getEpochSecond()));
        }
        return raised;
    }

    @Test
    void aQueueThatGrowsThreeRefreshesInARowToAHundredWhileEveryCarrierIsMountedIsRaisedOnce() {
        assertThat(kinds(List.of(queued(1, 2, 10), queued(2, 2, 60), queued(3, 2, 120), queued(4, 2, 400), queued(5, 2, 900))))
                .containsExactly("queue-growth@4");
    }

    @Test
    void aShortQueueOrOneThatStopsGrowingIsNotRaised() {
        assertThat(kinds(List.of(queued(1, 2, 0), queued(2, 2, 1), queued(3, 2, 2), queued(4, 2, 3), queued(5, 2, 4)))).isEmpty();
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);
        assertThat(kinds(List.of(queued(6, 2, 100), queued(7, 2, 200), queued(8, 2, 150), queued(9, 2, 300), queued(10, 2, 500)))).isEmpty();
    }

    @Test
    void aPoolCeilingIsRaisedOncePerPlaceAndAgainOnlyAfterItWasGone() {
        Map<String, List<String>> stacks = Map.of("Semaphore.acquire via Pool.borrow", List.of("a"), "Thread.sleep via Other.run", List.of("b"));
        Instant t = Instant.EPOCH;
        assertThat(alarms.parked(t, Map.of("Semaphore.acquire via Pool.borrow", 2900, "Thread.sleep via Other.run", 999), stacks))
                .extracting(Alarm::where).containsExactly("Semaphore.acquire via Pool.borrow");
        assertThat(alarms.parked(t, Map.of("Semaphore.acquire via Pool.borrow", 2950), stacks)).isEmpty();
        assertThat(alarms.parked(t, Map.of(), stacks)).isEmpty();
        assertThat(alarms.parked(t, Map.of("Semaphore.acquire via Pool.borrow", 1000), stacks)).extracting(Alarm::what)
                .containsExactly("1,000 virtual threads parked at one place (limit 1,000): a pool or lock smaller than the threads that want it");
    }
}
