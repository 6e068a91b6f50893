package dev.loomscope.analyzer.threads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.threads.ThreadDump.DumpThread;
import dev.loomscope.analyzer.threads.ThreadDump.Monitor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A monitor none of whose waiters got it between two dumps, told by who owns it: a thread the dumps name, or no thread
 * at all in either dump (a free monitor its waiters stay blocked on, as JDK-8373120 reports of virtual threads), which
 * the JDK's own dumps cannot show apart from a live holder without both dumps.
 */
public class ThreadAnalysisTest {
    private static final String MONITOR = "app.Registry@1b6d3586";
    private static final List<String> ENTERING = List.of(
            "app.Registry.register(Registry.java:42)",
            "app.Api.handle(Api.java:17)",
            "java.lang.VirtualThread.run(VirtualThread.java:466)");
    private static final List<String> HOLDING =
            List.of("java.lang.Thread.sleep(Thread.java:509)", "app.Registry.flush(Registry.java:60)");

    /** A virtual thread of a JDK 25 dump blocked entering the monitor. */
    private static DumpThread waiter(long tid) {
        return new DumpThread(
                tid, "", "ForkJoinPool-1", true, "BLOCKED", null, MONITOR, null, null, null, List.of(), ENTERING);
    }

    /** A platform thread of a JDK 25 dump holding the monitor (taken in its second frame) while it sleeps. */
    private static DumpThread holder() {
        return new DumpThread(
                7,
                "flusher",
                "<root>",
                false,
                "TIMED_WAITING",
                null,
                null,
                null,
                null,
                null,
                List.of(new Monitor(1, MONITOR)),
                HOLDING);
    }

    private static ThreadDump dump(int second, List<DumpThread> threads) {
        return new ThreadDump(
                "dump-" + second + ".json",
                "4242",
                Instant.ofEpochSecond(second),
                "25.0.3+9-LTS",
                List.of(new ThreadDump.Container("<root>", null, threads.size())),
                threads,
                true,
                false);
    }

    /**
     * A JDK 25 dump at {@code second} of both carriers each running a virtual thread in Thread.yield, and one more
     * waiting to run.
     */
    public static ThreadAnalysis carriersRunning(int second) {
        List<String> carrierStack = List.of(
                "java.base/jdk.internal.vm.Continuation.run(Continuation.java:248)",
                "java.base/java.lang.VirtualThread.runContinuation(VirtualThread.java:245)");
        List<String> spinning = List.of(
                "java.base/java.lang.Thread.yield(Thread.java:443)",
                "app.Wait.poll(Wait.java:7)",
                "java.base/java.lang.VirtualThread.run(VirtualThread.java:466)");
        List<DumpThread> threads = new ArrayList<>();
        for (long c = 11; c <= 12; c++) {
            threads.add(new DumpThread(
                    c,
                    "ForkJoinPool-1-worker-" + (c - 10),
                    "ForkJoinPool-1",
                    false,
                    "RUNNABLE",
                    null,
                    null,
                    null,
                    null,
                    null,
                    List.of(),
                    carrierStack));
            threads.add(new DumpThread(
                    c + 20, "", "<root>", true, "RUNNABLE", c, null, null, null, null, List.of(), spinning));
        }
        threads.add(
                new DumpThread(33, "", "<root>", true, "RUNNABLE", null, null, null, null, null, List.of(), spinning));
        return ThreadAnalysis.of(dump(second, threads), null);
    }

    /** Two virtual threads blocked entering a monitor no thread owns, in two dumps 5 s apart. */
    public static ThreadAnalysis freeMonitor() {
        List<DumpThread> stuck = List.of(waiter(31), waiter(32));
        return ThreadAnalysis.of(dump(5, stuck), dump(0, stuck));
    }

    /** One virtual thread blocked entering a monitor a platform thread holds, in two dumps 5 s apart. */
    public static ThreadAnalysis heldMonitor() {
        List<DumpThread> held = List.of(waiter(31), holder());
        return ThreadAnalysis.of(dump(5, held), dump(0, held));
    }

    @Test
    void aMonitorNoThreadOwnsInEitherDumpIsAFreeMonitorItsWaitersStayBlockedOn() {
        ThreadAnalysis a = freeMonitor();
        assertThat(a.stuckLocks()).hasSize(1);
        ThreadAnalysis.LockWait w = a.stuckLocks().get(0);
        assertThat(a.ownerless(w)).isTrue();
        assertThat(ThreadsView.stuckLine(a, w))
                .startsWith(MONITOR + ": none of its 2 waiter(s)")
                .contains("in the 5.0 s between two dumps, waiting at Registry.register (Registry.java:42);")
                .endsWith("no thread owns it in either dump, though the dumps record monitors' owners: its waiters are"
                        + " blocked on a free monitor, stuck in the JVM rather than behind a holder (a virtual thread"
                        + " so is JDK-8373120): report it to the JDK's maintainers with both dumps");
    }

    @Test
    void aMonitorAThreadHoldsIsThatThreadsAndOneOwnedBeforeIsNotFree() {
        ThreadAnalysis a = heldMonitor();
        ThreadAnalysis.LockWait w = a.stuckLocks().get(0);
        assertThat(a.ownerless(w)).isFalse();
        assertThat(ThreadsView.stuckLine(a, w))
                .endsWith("held by \"flusher\" #7 at Thread.sleep (Thread.java:509) via Registry.flush"
                        + " (Registry.java:60)");
        // its holder gone by the second dump (let go, or ended): not a monitor nobody held
        ThreadAnalysis released =
                ThreadAnalysis.of(dump(5, List.of(waiter(31))), dump(0, List.of(waiter(31), holder())));
        assertThat(released.stuckLocks())
                .allSatisfy(x -> assertThat(released.ownerless(x)).isFalse());
    }
}
