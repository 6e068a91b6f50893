package dev.loomscope.agent;

import dev.loomscope.agent.log.AgentLog;
import dev.loomscope.events.ContextSwitchesEvent;
import dev.loomscope.events.SchedulerSampleEvent;
import dev.loomscope.probes.ContextSwitchCounter;
import dev.loomscope.probes.HeapAllocation;
import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;

/**
 * What the agent's periodic JFR events record each period: the process's context switches and the virtual thread
 * scheduler.
 */
final class PeriodicEvents {
    private PeriodicEvents() {}

    /**
     * The process's context switches and platform threads started since the last period, as one
     * loomscope.ContextSwitches event.
     */
    static Runnable contextSwitches() {
        String source = ContextSwitchCounter.source();
        if (source == null) {
            AgentLog.warn("process context switches are not available on this platform (loomscope.ContextSwitches not"
                    + " recorded)");
            return () -> {};
        }
        return new Counts(source);
    }

    /**
     * The counts since the previous event. Runs on JFR's periodic thread and, as a chunk ends, on the thread that stops
     * the recording: one at a time.
     */
    private static final class Counts implements Runnable {
        private final String source;
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private long[] previous = ContextSwitchCounter.read();
        private long startedBefore = threads.getTotalStartedThreadCount();
        private long allocatedBefore = HeapAllocation.total();

        Counts(String source) {
            this.source = source;
        }

        @Override
        public synchronized void run() {
            long[] now = ContextSwitchCounter.read();
            long started = threads.getTotalStartedThreadCount();
            if (now == null || previous == null) {
                previous = now;
                return;
            }
            ContextSwitchesEvent e = new ContextSwitchesEvent();
            e.voluntary = Math.max(0, now[0] - previous[0]);
            e.involuntary = Math.max(0, now[1] - previous[1]);
            e.source = source;
            e.platformThreadsStarted = Math.max(0, started - startedBefore);
            long allocated = HeapAllocation.total();
            e.allocatedBytes = allocated < 0 || allocatedBefore < 0 ? -1 : Math.max(0, allocated - allocatedBefore);
            e.commit();
            previous = now;
            startedBefore = started;
            allocatedBefore = allocated;
        }
    }

    /** Virtual threads queued to run, from the JDK 24+ VirtualThreadSchedulerMXBean; -1 where there is none (21-23). */
    static long queuedVirtualThreads() {
        try {
            SchedulerBean b = SchedulerBean.find();
            return b == null
                    ? -1
                    : (long) b.type().getMethod("getQueuedVirtualThreadCount").invoke(b.bean());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError absent) {
            return -1;
        }
    }

    /** The JDK 24+ jdk.management.VirtualThreadSchedulerMXBean, read reflectively (the agent is built for 21). */
    private record SchedulerBean(Class<?> type, Object bean) {
        static SchedulerBean find() throws ReflectiveOperationException {
            @SuppressWarnings("unchecked")
            Class<? extends PlatformManagedObject> type = (Class<? extends PlatformManagedObject>)
                    Class.forName("jdk.management.VirtualThreadSchedulerMXBean");
            Object bean = ManagementFactory.getPlatformMXBean(type);
            return bean == null ? null : new SchedulerBean(type, bean);
        }
    }

    /**
     * The JDK 24+ VirtualThreadSchedulerMXBean as a loomscope.SchedulerSample event, read reflectively; null on 21-23
     * (no bean).
     */
    static Runnable scheduler() {
        try {
            SchedulerBean b = SchedulerBean.find();
            if (b == null) {
                return null;
            }
            Class<?> type = b.type();
            Object bean = b.bean();
            Method parallelism = type.getMethod("getParallelism");
            Method poolSize = type.getMethod("getPoolSize");
            Method mounted = type.getMethod("getMountedVirtualThreadCount");
            Method queued = type.getMethod("getQueuedVirtualThreadCount");
            return () -> {
                try {
                    SchedulerSampleEvent e = new SchedulerSampleEvent();
                    e.parallelism = (int) parallelism.invoke(bean);
                    e.poolSize = (int) poolSize.invoke(bean);
                    e.mountedVirtualThreads = (int) mounted.invoke(bean);
                    e.queuedVirtualThreads = (long) queued.invoke(bean);
                    e.commit();
                } catch (ReflectiveOperationException | RuntimeException ignored) {
                    // a sample missed is no harm
                }
            };
        } catch (ReflectiveOperationException | RuntimeException | LinkageError absent) {
            return null;
        }
    }
}
