package dev.loomscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.events.HeldMonitorEvent;
import java.lang.ref.ReferenceQueue;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.LongStream;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * What a look at a platform thread finds, on real threads: one sleeping inside a synchronized block blocks holding a
 * monitor (taken in this class's frame), one waiting for that monitor waits to enter it, one in Object.wait waits
 * there, and one sleeping with no monitor is nothing a virtual thread would hold its carrier through.
 */
class HeldMonitorsTest {
    private final Object lock = new Object();
    private final Object waitedOn = new Object();

    @Test
    void eachKindOfBlockingIsFoundWhereItIs() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().name("holder-1").start(() -> {
            synchronized (lock) {
                holding.countDown();
                sleep(5_000);
            }
        });
        holding.await();
        Thread enterer = Thread.ofPlatform().name("enterer-1").start(() -> {
            synchronized (lock) {
                sleep(1);
            }
        });
        Thread waiter = Thread.ofPlatform().name("waiter-1").start(() -> {
            synchronized (waitedOn) {
                try {
                    waitedOn.wait(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        Thread sleeper = Thread.ofPlatform().name("sleeper-1").start(() -> sleep(5_000));
        AtomicBoolean spinning = new AtomicBoolean(true);
        Thread spinner = Thread.ofPlatform().name("spinner-1").start(() -> {
            while (spinning.get()) {
                Thread.yield();
            }
        });
        try {
            await(enterer, Thread.State.BLOCKED);
            await(waiter, Thread.State.TIMED_WAITING);
            await(sleeper, Thread.State.TIMED_WAITING);
            await(holder, Thread.State.TIMED_WAITING);
            var held = found(holder);
            assertThat(held.what()).isEqualTo(HeldMonitorEvent.HOLDING);
            assertThat(held.heldAt()).startsWith(HeldMonitorsTest.class.getName() + ".lambda$");
            assertThat(held.monitorClass()).isEqualTo("java.lang.Object");
            assertThat(held.blockedIn()).startsWith("java.lang.Thread.sleep");
            assertThat(held.group()).isEqualTo("holder-");
            assertThat(held.site()).startsWith(HeldMonitorsTest.class.getName());
            assertThat(found(enterer).what()).isEqualTo(HeldMonitorEvent.ENTERING);
            assertThat(found(waiter).what()).isEqualTo(HeldMonitorEvent.OBJECT_WAIT);
            assertThat(found(sleeper)).isNull();
            // a thread that yields in a loop is found in Thread.yield at most looks (between two yields it runs this
            // class's loop)
            long found = 0;
            for (int i = 0; i < 50; i++) {
                var spin = found(spinner);
                found += spin != null && spin.what().equals(HeldMonitorEvent.SPINS) ? 1 : 0;
            }
            assertThat(found)
                    .as("looks that found the spinner in Thread.yield, of 50")
                    .isGreaterThan(0);
        } finally {
            spinning.set(false);
            for (Thread t : new Thread[] {holder, enterer, waiter, sleeper, spinner}) {
                t.interrupt();
                t.join();
            }
        }
    }

    @Test
    void poolAndSemaphoreWaitsAreFoundButALocksWaitIsNot() throws Exception {
        Semaphore permits = new Semaphore(0);
        ReentrantLock taken = new ReentrantLock();
        LinkedBlockingQueue<Object> idle = new LinkedBlockingQueue<>();
        taken.lock();
        Thread semaphore = Thread.ofPlatform().name("sem-1").start(() -> permits.acquireUninterruptibly());
        Thread pool = Thread.ofPlatform().name("pool-1").start(() -> borrowObject(idle));
        Thread locker = Thread.ofPlatform().name("locker-1").start(() -> {
            taken.lock();
            taken.unlock();
        });
        AtomicBoolean busy = new AtomicBoolean(true);
        Thread cpu = Thread.ofPlatform().name("cpu-1").start(() -> {
            long x = 0;
            while (busy.get()) {
                x = x * 31 + 7;
            }
            System.out.print(x == 42 ? "" : "");
        });
        try {
            await(semaphore, Thread.State.WAITING);
            await(pool, Thread.State.WAITING);
            await(locker, Thread.State.WAITING);
            var sem = found(semaphore);
            assertThat(sem.what()).isEqualTo(HeldMonitorEvent.POOL);
            assertThat(sem.monitorClass()).startsWith("java.util.concurrent.Semaphore$");
            var borrow = found(pool);
            assertThat(borrow.what()).isEqualTo(HeldMonitorEvent.POOL);
            assertThat(borrow.heldAt()).startsWith(HeldMonitorsTest.class.getName() + ".borrowObject(");
            assertThat(found(locker))
                    .as("a ReentrantLock's wait: the JDK's AQS acquire is not a pool")
                    .isNull();
            // a thread running this class's loop is running the application's code at most looks
            long running = 0;
            for (int i = 0; i < 50; i++) {
                running += HeldMonitors.runsJava(seen(cpu)) ? 1 : 0;
            }
            assertThat(running).as("looks that found the loop running, of 50").isGreaterThan(0);
            assertThat(HeldMonitors.runsJava(seen(pool))).isFalse();
        } finally {
            busy.set(false);
            taken.unlock();
            permits.release();
            idle.add(new Object());
            for (Thread t : new Thread[] {semaphore, pool, locker, cpu}) {
                t.join();
            }
        }
    }

    /**
     * A pool's thread waiting for its next task on a semaphore, in the pool's own code (as Jetty's reserved threads
     * do), is idle, not a wait for a pool; the same pool's thread waiting there under a request's handler is one.
     */
    @Test
    void aPoolsOwnThreadWaitingForItsNextTaskIsIdleButARequestWaitingIsNot() throws Exception {
        Semaphore tasks = new Semaphore(0);
        Thread idle = new Thread(new IdleThreadPool(tasks, false), "qtp-1");
        Thread request = new Thread(new IdleThreadPool(tasks, true), "qtp-2");
        idle.start();
        request.start();
        try {
            await(idle, Thread.State.WAITING);
            await(request, Thread.State.WAITING);
            assertThat(found(idle)).as("the pool's own wait for a task").isNull();
            var waiting = found(request);
            assertThat(waiting.what()).isEqualTo(HeldMonitorEvent.POOL);
            assertThat(waiting.site()).startsWith(RequestHandler.class.getName() + ".handle(");
        } finally {
            tasks.release(2);
            idle.join();
            request.join();
        }
    }

    /** A thread pool's loop: it waits for its next task, or runs a request's handler that waits for a permit. */
    private record IdleThreadPool(Semaphore tasks, boolean handles) implements Runnable {
        @Override
        public void run() {
            if (handles) {
                RequestHandler.handle(tasks);
            } else {
                tasks.acquireUninterruptibly();
            }
        }
    }

    private static final class RequestHandler {
        static void handle(Semaphore permits) {
            permits.acquireUninterruptibly();
        }
    }

    /**
     * A library's cleaner thread waits in a ReferenceQueue: the JDK's own Object.wait on its own monitor, not the
     * application's.
     */
    @Test
    void theJdksOwnWaitIsNotTheApplications() throws Exception {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        Thread cleaner = Thread.ofPlatform().name("cleaner-1").start(() -> {
            try {
                queue.remove();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            await(cleaner, Thread.State.WAITING);
            assertThat(found(cleaner)).isNull();
        } finally {
            cleaner.interrupt();
            cleaner.join();
        }
    }

    /** A pool's borrow, as object pools name it: waits for an idle object. */
    private static Object borrowObject(LinkedBlockingQueue<Object> idle) {
        try {
            return idle.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Test
    void aThreadStillInTheSameWaitIsNotWalkedAgainButOneThatWaitedAnewIs() throws Exception {
        Semaphore permits = new Semaphore(0);
        Semaphore done = new Semaphore(0);
        Thread t = Thread.ofPlatform().name("waits-twice-1").start(() -> {
            permits.acquireUninterruptibly();
            done.release();
            permits.acquireUninterruptibly();
        });
        try {
            await(t, Thread.State.WAITING);
            HeldMonitors.Seen first = seen(t);
            assertThat(LOOKS.see(t, first)).as("the same wait").isSameAs(first);
            permits.release();
            done.acquire();
            await(t, Thread.State.WAITING);
            HeldMonitors.Seen second = LOOKS.see(t, first);
            assertThat(second).as("a wait begun since").isNotSameAs(first);
            assertThat(second.blockings()).isGreaterThan(first.blockings());
        } finally {
            permits.release();
            t.join();
        }
    }

    @Test
    void aLookWaitsAHundredTimesTheLastOnesCostBeforeTheNextButTheFirstColdOneDoesNot() {
        HeldMonitors looks = new HeldMonitors(100, null);
        for (int i = 0; i < 20; i++) {
            looks.look(); // the looks' thread would wait for the next one's time: here without pause
        }
        // the first look sets the second's time a gap (50-150 ms) after it began, the second's a hundred times its
        // cost: calls before
        // then are not looks (a cold first look may outlast its gap, so two)
        assertThat(looks.looks()).isBetween(1L, 2L);
        long second = 5_000_000_000L;
        assertThat(HeldMonitors.nextLook(0, 250_000_000L, 1, 80_000_000L))
                .as("after a cold first look of 250 ms")
                .isEqualTo(80_000_000L);
        assertThat(HeldMonitors.nextLook(second, 2_000_000L, 2, 80_000_000L))
                .as("after a look of 2 ms")
                .isEqualTo(second + 200_000_000L);
        assertThat(HeldMonitors.nextLook(second, 500_000L, 2, 80_000_000L))
                .as("after a look of 0.5 ms")
                .isEqualTo(second + 80_000_000L);
    }

    @Test
    void theAgentsOwnThreadsAndJfrsPeriodicOneAreNotLookedAt() throws Exception {
        // the agent's hooks for context switches and the heap run on JFR's periodic thread: found there, they were the
        // agent itself
        Runnable hook = () -> {};
        FlightRecorder.addPeriodicEvent(Probe.class, hook);
        try (Recording r = new Recording()) {
            r.enable(Probe.class).withPeriod(Duration.ofMillis(10));
            r.start();
            for (int i = 0;
                    i < 500
                            && Thread.getAllStackTraces().keySet().stream()
                                    .noneMatch(t -> t.getName().equals(HeldMonitors.JFR_PERIODIC));
                    i++) {
                Thread.sleep(10);
            }
        } finally {
            FlightRecorder.removePeriodicEvent(hook);
        }
        assertThat(Thread.getAllStackTraces().keySet())
                .as("JFR's periodic thread by the name the looks leave out")
                .anyMatch(t -> t.getName().equals(HeldMonitors.JFR_PERIODIC));
        assertThat(HeldMonitors.ours(HeldMonitors.JFR_PERIODIC)).isTrue();
        assertThat(HeldMonitors.ours("loomscope-agent-looks")).isTrue();
        assertThat(HeldMonitors.ours("qtp1-worker-7")).isFalse();
    }

    /** A periodic event, so that JFR starts its periodic thread. */
    @jdk.jfr.Name("loomscope.test.Probe")
    static final class Probe extends Event {}

    @Test
    void theGapsKeepThePeriodOnAverageAndFallOffItsLattice() {
        HeldMonitors looks = new HeldMonitors(100, null);
        long[] gaps = LongStream.generate(looks::gap).limit(10_000).toArray();
        assertThat(Arrays.stream(gaps).min().getAsLong()).isGreaterThanOrEqualTo(50_000_000L);
        assertThat(Arrays.stream(gaps).max().getAsLong()).isLessThan(150_000_000L);
        assertThat(Arrays.stream(gaps).average().getAsDouble()).isCloseTo(100_000_000.0, Offset.offset(2_000_000.0));
        // a workload repeating every 10 ms is met at every phase: each millisecond of its period holds about a tenth of
        // the looks
        long start = 0;
        int[] phases = new int[10];
        for (long g : gaps) {
            start += g;
            phases[(int) (start % 10_000_000L / 1_000_000L)]++;
        }
        assertThat(Arrays.stream(phases).boxed().toList())
                .allSatisfy(n -> assertThat(n).isBetween(800, 1200));
    }

    @Test
    void theLooksRunOnTheirOwnThreadUntilStopped() throws Exception {
        HeldMonitors looks = new HeldMonitors(10, null);
        looks.start();
        for (int i = 0; i < 500 && looks.looks() < 3; i++) {
            Thread.sleep(10);
        }
        looks.stop();
        long taken = looks.looks();
        assertThat(taken).isGreaterThanOrEqualTo(3L);
        Thread.sleep(100);
        assertThat(looks.looks()).as("no look after stop").isEqualTo(taken);
        for (int i = 0;
                i < 1000
                        && Thread.getAllStackTraces().keySet().stream()
                                .anyMatch(t -> t.getName().equals("loomscope-agent-looks"));
                i++) {
            Thread.sleep(10);
        }
        assertThat(Thread.getAllStackTraces().keySet())
                .as("the looks' thread ended")
                .noneMatch(t -> t.getName().equals("loomscope-agent-looks"));
    }

    /**
     * The looks as the agent runs them: each thread's stack in a handshake with it, its monitors read from the
     * bytecode.
     */
    private static final HeldMonitors LOOKS = new HeldMonitors(100, null);

    private static HeldMonitors.Seen seen(Thread t) {
        HeldMonitors.Seen seen = LOOKS.see(t, null);
        assertThat(seen).as("what a look saw of " + t.getName()).isNotNull();
        return seen;
    }

    private static HeldMonitors.Found found(Thread t) {
        return LOOKS.classify(seen(t));
    }

    private static void await(Thread t, Thread.State state) throws InterruptedException {
        for (int i = 0; i < 500 && t.getState() != state; i++) {
            Thread.sleep(10);
        }
        assertThat(t.getState()).as(t.getName()).isEqualTo(state);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
