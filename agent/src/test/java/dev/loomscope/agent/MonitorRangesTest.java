package dev.loomscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.recording.JdkFrames;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Which monitor a real thread's stack holds, read from this class's bytecode alone, against what the JVM's own lock
 * records say of the same thread: a synchronized method (an instance's and a class's), a block, the outer of two nested
 * blocks after the inner one is left, and none where the thread blocks after its block ended; a JDK class's monitor
 * when the application's code runs inside it, and not when only the JDK's does.
 */
class MonitorRangesTest {
    private final Object outer = new Object();
    private final Object inner = new Object();
    private final MonitorRanges ranges = new MonitorRanges();

    @Test
    void aSynchronizedMethodHoldsItsInstanceOrItsClass() throws Exception {
        assertHeld(this::instanceMethod, getClass().getName(), "instanceMethod");
        assertHeld(MonitorRangesTest::classMethod, "java.lang.Class", "classMethod");
    }

    @Test
    void theOuterBlockIsHeldAfterTheInnerOneIsLeftAndNoneAfterBoth() throws Exception {
        assertHeld(this::afterInner, "java.lang.Object", "afterInner");
        assertHeld(this::inBoth, "java.lang.Object", "inBoth");
        CountDownLatch blocking = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().start(() -> afterBoth(blocking));
        try {
            blocking.await();
            await(t);
            assertThat(ranges.heldBy(t.getStackTrace(), t.getContextClassLoader()))
                    .as("blocking after both blocks ended")
                    .isNull();
            assertThat(jvmSaysHeld(t, MonitorRangesTest.class.getName())).isFalse();
        } finally {
            t.interrupt();
            t.join();
        }
    }

    @Test
    void aLoaderBlockingInsideComputeIfAbsentHoldsTheMapsLockAndTheJdksCodeAloneHoldsNone() throws Exception {
        ConcurrentHashMap<String, String> cache = new ConcurrentHashMap<>();
        Thread t = Thread.ofPlatform()
                .start(() -> cache.computeIfAbsent("key", k -> {
                    sleep();
                    return k;
                }));
        try {
            await(t);
            StackTraceElement[] stack = t.getStackTrace();
            MonitorRanges.Held held = ranges.heldBy(stack, t.getContextClassLoader());
            assertThat(held).as("the loader's wait, inside the map's lock").isNotNull();
            assertThat(held.frame().getClassName()).isEqualTo(ConcurrentHashMap.class.getName());
            assertThat(held.frame().getMethodName()).isEqualTo("computeIfAbsent");
            assertThat(jvmSaysHeld(t, ConcurrentHashMap.class.getName()))
                    .as("the JVM's own lock records agree")
                    .isTrue();
            StackTraceElement[] jdkAlone = Arrays.stream(stack)
                    .filter(f -> JdkFrames.isJdk(f.getClassName()))
                    .toArray(StackTraceElement[]::new);
            assertThat(ranges.heldBy(jdkAlone, t.getContextClassLoader()))
                    .as("the same JDK frames without the application's code above them")
                    .isNull();
        } finally {
            t.interrupt();
            t.join();
        }
    }

    /**
     * A JDK image stripped of debug information (jlink --strip-debug) tells no line of its frames, nor does a class
     * compiled without its line table: such a frame is placed by the call it made to the frame above it.
     */
    @Test
    void aFrameWhoseLineIsNotToldIsPlacedByTheCallItMade() throws Exception {
        ConcurrentHashMap<String, String> cache = new ConcurrentHashMap<>();
        MonitorRanges.Held held = heldWithoutLines(() -> cache.computeIfAbsent("key", k -> {
            sleep();
            return k;
        }));
        assertThat(held)
                .as("the loader's wait, the map's frame without its line")
                .isNotNull();
        assertThat(held.frame().getMethodName()).isEqualTo("computeIfAbsent");
        assertThat(heldWithoutLines(this::inBoth))
                .as("a call made inside both blocks")
                .isNotNull();
        assertThat(heldWithoutLines(() -> afterBoth(new CountDownLatch(1))))
                .as("a call made after both blocks ended")
                .isNull();
    }

    /** What a thread blocked in {@code body} holds, read from its stack with every line taken off. */
    private MonitorRanges.Held heldWithoutLines(Runnable body) throws Exception {
        Thread t = Thread.ofPlatform().start(body);
        try {
            await(t);
            return ranges.heldBy(lineless(t.getStackTrace()), t.getContextClassLoader());
        } finally {
            t.interrupt();
            t.join();
        }
    }

    /** The stack as a class without its line table gives it. */
    private static StackTraceElement[] lineless(StackTraceElement[] stack) {
        return Arrays.stream(stack)
                .map(f -> new StackTraceElement(f.getClassName(), f.getMethodName(), f.getFileName(), -1))
                .toArray(StackTraceElement[]::new);
    }

    @Test
    void aClassNoLoaderGivesTheBytesOfHoldsNone() {
        StackTraceElement generated =
                new StackTraceElement("com.example.Generated$$Proxy1", "call", "Generated.java", 12);
        assertThat(ranges.heldBy(new StackTraceElement[] {generated}, getClass().getClassLoader()))
                .isNull();
    }

    private void assertHeld(Runnable body, String monitorClass, String method) throws Exception {
        Thread t = Thread.ofPlatform().start(body);
        try {
            await(t);
            MonitorRanges.Held held = ranges.heldBy(t.getStackTrace(), t.getContextClassLoader());
            assertThat(held).as(method).isNotNull();
            assertThat(held.frame().getMethodName()).isEqualTo(method);
            assertThat(held.monitorClass()).isEqualTo(monitorClass);
            assertThat(jvmSaysHeld(t, MonitorRangesTest.class.getName()))
                    .as("the JVM's own lock records agree")
                    .isTrue();
        } finally {
            t.interrupt();
            t.join();
        }
    }

    private synchronized void instanceMethod() {
        sleep();
    }

    private static synchronized void classMethod() {
        sleep();
    }

    private void afterInner() {
        synchronized (outer) {
            synchronized (inner) {
                Thread.onSpinWait();
            }
            sleep();
        }
    }

    private void inBoth() {
        synchronized (outer) {
            synchronized (inner) {
                sleep();
            }
        }
    }

    private void afterBoth(CountDownLatch blocking) {
        synchronized (outer) {
            synchronized (inner) {
                Thread.onSpinWait();
            }
        }
        blocking.countDown();
        sleep();
    }

    /** Whether the JVM's thread dump with monitors names a monitor the class's code took on the thread. */
    private static boolean jvmSaysHeld(Thread t, String className) {
        var info = ManagementFactory.getThreadMXBean().getThreadInfo(new long[] {t.threadId()}, true, false)[0];
        return Arrays.stream(info.getLockedMonitors())
                .anyMatch(m -> m.getLockedStackFrame().getClassName().equals(className));
    }

    private static void await(Thread t) throws InterruptedException {
        for (int i = 0; i < 500 && t.getState() != Thread.State.TIMED_WAITING; i++) {
            Thread.sleep(10);
        }
        assertThat(t.getState()).isEqualTo(Thread.State.TIMED_WAITING);
    }

    private static void sleep() {
        try {
            Thread.sleep(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
