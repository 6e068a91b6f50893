package dev.loomscope.analyzer.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.reduce.CannedEvent;
import dev.loomscope.analyzer.reduce.CarrierCpu;
import dev.loomscope.analyzer.threads.ThreadAnalysisTest;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.PinFrames;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * The alarms' rules over sequences of refreshes: when each begins, that it is raised once an episode, and when an
 * episode ends.
 */
class AlarmsTest {
    Alarms alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);

    /** A refresh of one second on a JVM of {@code parallelism} carriers, all mounted, {@code queued} waiting. */
    static Tick queued(int k, int parallelism, long queued) {
        return scheduled(k, parallelism, parallelism, queued);
    }

    /** A refresh of one second on a JVM of {@code parallelism} carriers, {@code mounted} of them, {@code queued}. */
    static Tick scheduled(int k, int parallelism, int mounted, long queued) {
        return new Tick(
                Instant.ofEpochSecond(k),
                1,
                new Tick.Scheduler(parallelism, parallelism, mounted, queued),
                parallelism,
                -1,
                -1,
                new Interval(),
                new Tick.Streamed(false, false),
                false);
    }

    List<String> kinds(List<Tick> ticks) {
        List<String> raised = new ArrayList<>();
        for (Tick t : ticks) {
            alarms.check(t, new Interval()).forEach(a -> raised.add(a.kind().id + "@" + t.at().getEpochSecond()));
        }
        return raised;
    }

    @Test
    void aQueueThatGrowsThreeRefreshesInARowToAHundredWhileEveryCarrierIsMountedIsRaisedOnce() {
        assertThat(kinds(List.of(
                        queued(1, 2, 10), queued(2, 2, 60), queued(3, 2, 120), queued(4, 2, 400), queued(5, 2, 900))))
                .containsExactly("queue-growth@4");
    }

    @Test
    void aShortQueueOrOneThatStopsGrowingIsNotRaised() {
        assertThat(kinds(List.of(queued(1, 2, 0), queued(2, 2, 1), queued(3, 2, 2), queued(4, 2, 3), queued(5, 2, 4))))
                .isEmpty();
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);
        assertThat(kinds(List.of(
                        queued(6, 2, 100),
                        queued(7, 2, 200),
                        queued(8, 2, 150),
                        queued(9, 2, 300),
                        queued(10, 2, 500))))
                .isEmpty();
    }

    @Test
    void aPoolCeilingIsRaisedOncePerPlaceAndAgainOnlyAfterItWasGone() {
        Map<String, List<String>> stacks =
                Map.of("Semaphore.acquire via Pool.borrow", List.of("a"), "Thread.sleep via Other.run", List.of("b"));
        Instant t = Instant.EPOCH;
        assertThat(alarms.parked(
                        t,
                        Map.of("Semaphore.acquire via Pool.borrow", 2900, "Thread.sleep via Other.run", 999),
                        stacks))
                .extracting(Alarm::where)
                .containsExactly("Semaphore.acquire via Pool.borrow");
        assertThat(alarms.parked(t, Map.of("Semaphore.acquire via Pool.borrow", 2950), stacks))
                .isEmpty();
        assertThat(alarms.parked(t, Map.of(), stacks)).isEmpty();
        assertThat(alarms.parked(t, Map.of("Semaphore.acquire via Pool.borrow", 1000), stacks))
                .extracting(Alarm::what)
                .containsExactly(
                        "1,000 virtual threads parked at one place (limit 1,000): a pool or lock smaller than the"
                                + " threads that want it");
    }

    /**
     * A refresh of one second whose virtual threads' CPU samples were {@code virtual}, {@code spinning} of them in
     * Thread.yield.
     */
    static Interval spinning(long virtual, long spinning) {
        Interval in = new Interval();
        List<Frame> poll = List.of(new Frame("app.Wait", "poll", 7, 1));
        List<Frame> yield = List.of(new Frame("java.lang.Thread", "yield", 0, 1), new Frame("app.Wait", "poll", 7, 1));
        for (long n = 0; n < virtual; n++) {
            in.cpu.add(new CannedEvent(
                    JdkEvents.EXECUTION_SAMPLE,
                    Instant.ofEpochSecond(1),
                    Map.of(
                            JdkFields.SAMPLED_THREAD + ".virtual",
                            true,
                            JdkFields.SAMPLED_THREAD + ".javaThreadId",
                            100 + n,
                            CannedEvent.STACK,
                            n < spinning ? yield : poll)));
        }
        return in;
    }

    List<String> spins(List<Interval> refreshes) {
        List<String> raised = new ArrayList<>();
        for (int k = 0; k < refreshes.size(); k++) {
            int at = k;
            alarms.check(plain(k, 2), refreshes.get(k)).forEach(a -> raised.add(a.kind().id + "@" + at));
        }
        return raised;
    }

    /**
     * A spin the sampler stops reaching (too few samples to judge, beside a busy machine's other work) is not a spin
     * that ended.
     */
    @Test
    void aSpinIsRaisedOnceWhileTooFewSamplesSayNothingOfIt() {
        List<Interval> refreshes = new ArrayList<>(List.of(spinning(2, 2), spinning(2, 2)));
        for (int k = 0; k < 8; k++) {
            refreshes.add(spinning(0, 0));
        }
        refreshes.add(spinning(3, 3));
        assertThat(spins(refreshes)).containsExactly("yield-spin@1");
    }

    /**
     * Virtual threads that spin while the carriers have room cost no other thread its turn (a request that waits a few
     * milliseconds for a helper so, at 150 a second; a moment's count that jumps over the carriers as spinners yield):
     * no alarm; the same samples while at least one more virtual thread wants a carrier than there are, on average over
     * five refreshes, an alarm that says how many wanted them.
     */
    @Test
    void aSpinIsRaisedOnlyWhileMoreVirtualThreadsWantACarrierThanThereAre() {
        for (int k = 0; k < 8; k++) {
            assertThat(alarms.check(scheduled(k, 2, k % 2 + 1, k % 3 == 0 ? 1 : 0), spinning(4, 3)))
                    .isEmpty();
        }
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);
        List<String> raised = new ArrayList<>();
        List<Alarm> spins = new ArrayList<>();
        for (int k = 0; k < 7; k++) {
            for (Alarm a : alarms.check(scheduled(k, 2, 2, 2), spinning(4, 3))) {
                raised.add(a.kind().id + "@" + k);
                spins.add(a);
            }
        }
        assertThat(raised).as("not before five refreshes' counts").containsExactly("yield-spin@4");
        assertThat(spins.get(0).what())
                .endsWith("; 4.0 virtual threads wanted the 2 carriers (mounted and queued, on average)");
    }

    /**
     * Where the scheduler does not say who waits (JDK 21-23), a spin waits for two thread dumps in a row with every
     * carrier running a virtual thread; where no dumps come, the samples' share alone raises it.
     */
    @Test
    void withoutTheSchedulersCountsASpinWaitsForTwoDumpsOfBusyCarriersWhereDumpsCome() {
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES, true);
        List<String> raised = new ArrayList<>();
        List<Alarm> spins = new ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            if (k >= 2) { // a dump after each refresh from the second on, every carrier running a virtual thread
                assertThat(alarms.carriers(Instant.ofEpochSecond(k), ThreadAnalysisTest.carriersRunning(k), 2))
                        .isEmpty();
            }
            for (Alarm a : alarms.check(plain(k, 2), spinning(4, 3))) {
                raised.add(a.kind().id + "@" + k);
                spins.add(a);
            }
        }
        assertThat(raised).containsExactly("yield-spin@3");
        assertThat(spins.get(0).what()).endsWith("; every carrier ran a virtual thread in 2 thread dumps in a row");
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES, false);
        assertThat(alarms.check(plain(1, 2), spinning(4, 3)))
                .extracting(Alarm::kind)
                .containsExactly(Alarm.Kind.SPIN);
    }

    /**
     * Carriers that get little CPU (a busy machine's) running virtual threads with few samples, in two dumps: blocked
     * in native code, but for threads in Thread.yield, which compute and yield (a JDK 21 dump shows those off their
     * carriers at the same frames).
     */
    @Test
    void virtualThreadsInAYieldAreNotBlockedInNativeCode() {
        Interval starved = new Interval();
        starved.summary.carrierCpu.add(0.05);
        starved.summary.carrierCpu.add(0.05);
        alarms.check(plain(1, 2), starved);
        assertThat(alarms.carriers(Instant.ofEpochSecond(1), ThreadAnalysisTest.carriersRunning(1), 2))
                .isEmpty();
        assertThat(alarms.carriers(Instant.ofEpochSecond(6), ThreadAnalysisTest.carriersRunning(6), 2))
                .isEmpty();
        assertThat(alarms.carriersHeld())
                .as("every carrier runs a virtual thread all the same")
                .isTrue();
    }

    /**
     * Refreshes whose samples show the virtual threads working, not spinning, end the episode: a spin after is raised
     * again.
     */
    @Test
    void aSpinIsRaisedAgainAfterSamplesShowedItGone() {
        List<Interval> refreshes = new ArrayList<>(List.of(spinning(2, 2), spinning(2, 2)));
        for (int k = 0; k < 8; k++) {
            refreshes.add(spinning(10, 0));
        }
        for (int k = 0; k < 4; k++) {
            refreshes.add(spinning(3, 3)); // from refresh 10 on: half of the window's samples spinning at the fourth
        }
        assertThat(spins(refreshes)).containsExactly("yield-spin@1", "yield-spin@13");
    }

    /**
     * A refresh of one second whose CPU samples are {@code threads} virtual threads' at {@code frame}, one each every
     * {@code everyMs}.
     */
    static Interval computing(int k, int threads, long everyMs, String frame) {
        return sampled(k, threads, everyMs, frame, false);
    }

    /** As {@link #computing}, the samples in Thread.yield when {@code spin}. */
    static Interval sampled(int k, int threads, long everyMs, String frame, boolean spin) {
        Interval in = new Interval();
        for (long ms = 0; ms < 1000; ms += everyMs) {
            for (int t = 0; t < threads; t++) {
                in.sampled.add(
                        new CarrierCpu.Sampled(100 + t, Instant.ofEpochSecond(k).plusMillis(ms), frame, spin));
            }
        }
        return in;
    }

    static Tick plain(int k, int parallelism) {
        return new Tick(
                Instant.ofEpochSecond(k),
                1,
                null,
                parallelism,
                -1,
                -1,
                new Interval(),
                new Tick.Streamed(false, false),
                false);
    }

    @Test
    void asManyVirtualThreadsAsCarriersComputingASecondWithoutAGapAreACpuMonopolyRaisedOnce() {
        List<String> raised = new ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            for (Alarm a : alarms.check(plain(k, 2), computing(k, 2, 20, "Report.render:42"))) {
                raised.add(a.kind().id + "@" + k + " " + a.where());
            }
        }
        // the runs reach a second within the second refresh's samples: raised then, once
        assertThat(raised).containsExactly("cpu-monopoly@2 Report.render:42");
    }

    @Test
    void fewerComputingThanCarriersOrSamplesWithGapsAreNoMonopoly() {
        for (int k = 1; k <= 4; k++) {
            assertThat(alarms.check(plain(k, 4), computing(k, 2, 20, "Report.render:42")))
                    .isEmpty(); // 2 of 4 carriers
        }
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);
        for (int k = 1; k <= 4; k++) {
            assertThat(alarms.check(plain(k, 2), computing(k, 2, 300, "Report.render:42")))
                    .isEmpty(); // a gap of 300 ms between samples: not one run
        }
        // threads spinning in Thread.yield give their carriers up at every turn: the yield-spin alarm's, not a monopoly
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);
        for (int k = 1; k <= 4; k++) {
            assertThat(alarms.check(plain(k, 2), sampled(k, 2, 20, "Pool.borrow:7", true)))
                    .extracting(Alarm::kind)
                    .doesNotContain(Alarm.Kind.MONOPOLY);
        }
    }

    /**
     * The alarms raised over refreshes of 2 carriers, all mounted, the k-th (from 1) with {@code queued[k - 1]} queued
     * and virtual threads' CPU samples every {@code everyMs.applyAsLong(k)} ms on both carriers.
     */
    List<String> queuedBehindComputing(long[] queued, IntToLongFunction everyMs) {
        List<String> raised = new ArrayList<>();
        for (int k = 1; k <= queued.length; k++) {
            Interval in = computing(k, 2, everyMs.applyAsLong(k), "Report.render:42");
            for (Alarm a : alarms.check(queued(k, 2, queued[k - 1]), in)) {
                raised.add(a.kind().id + "@" + k);
            }
        }
        return raised;
    }

    @Test
    void aQueueGrowingBehindAMonopolyIsTheMonopolysAlarmAlone() {
        assertThat(queuedBehindComputing(new long[] {10, 150, 400, 900, 1500}, k -> 20))
                .containsExactly("cpu-monopoly@2");
    }

    /**
     * A busy machine's sampler reaches the computing threads with gaps at first: the queue growing meanwhile waits for
     * the monopoly to be seen, and is raised on its own only when none is.
     */
    @Test
    void aQueueGrowingWhileEveryCarrierComputesWaitsForTheMonopolyAndNoLonger() {
        long[] queued = {10, 150, 400, 900, 1500, 2100, 2800, 3600};
        // samples 300 ms apart (no run yet) for five refreshes, then without a gap: the runs began at the fifth
        // refresh's last sample; without the wait, queue-growth@4 came first
        assertThat(queuedBehindComputing(queued, k -> k <= 5 ? 300 : 20)).containsExactly("cpu-monopoly@6");
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);
        // no monopoly seen: the queue's alarm, three refreshes after it would have been raised alone (at 4)
        assertThat(queuedBehindComputing(queued, k -> 300)).containsExactly("queue-growth@7");
    }

    /**
     * A monitor no thread owned in two dumps, its virtual threads blocked entering it, is the JVM's fault: a
     * free-monitor alarm with that next step, once; a monitor a thread holds is lock-stuck.
     */
    @Test
    void aMonitorNobodyOwnsIsAFreeMonitorAlarmAndOneHeldIsLockStuck() {
        Instant at = Instant.ofEpochSecond(5);
        List<Alarm> free = alarms.locks(at, ThreadAnalysisTest.freeMonitor());
        assertThat(free).extracting(Alarm::kind).containsExactly(Alarm.Kind.FREE_MONITOR);
        assertThat(free.get(0).next()).startsWith("a fault of the JVM, not of the application");
        assertThat(free.get(0).where()).isEqualTo("Registry.register (Registry.java:42)");
        assertThat(alarms.locks(at, ThreadAnalysisTest.freeMonitor()))
                .as("once an episode")
                .isEmpty();
        alarms = new Alarms(100, 0.2, 0.5, 1000, Watch.QUEUE_REFRESHES);
        assertThat(alarms.locks(at, ThreadAnalysisTest.heldMonitor()))
                .extracting(Alarm::kind)
                .containsExactly(Alarm.Kind.LOCK_STUCK);
    }

    /** A pinning alarm's next step is by what pins, not by how its frame reads; the others' by their kind. */
    @Test
    void aPinningAlarmsNextStepIsByWhatPins() {
        Instant t = Instant.EPOCH;
        assertThat(new Alarm(Alarm.Kind.PINS, t, "", "app.Native.call", List.of(), PinFrames.Cause.MONITOR).next())
                .startsWith("replace the synchronized");
        assertThat(new Alarm(Alarm.Kind.PINS, t, "", "app.Sync.call", List.of(), PinFrames.Cause.NATIVE).next())
                .startsWith("a native frame pins on every JDK");
        assertThat(new Alarm(Alarm.Kind.PINS, t, "", "app.Config.load", List.of(), PinFrames.Cause.CLASS_INIT).next())
                .startsWith("blocking in a class initializer");
        assertThat(new Alarm(Alarm.Kind.DEADLOCK, t, "", null, List.of()).json())
                .containsEntry("alarm", "deadlock")
                .containsEntry("next", Alarm.Kind.DEADLOCK.next);
    }
}
