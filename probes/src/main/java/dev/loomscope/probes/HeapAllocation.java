package dev.loomscope.probes;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;

/**
 * Bytes this JVM's threads allocated on the heap since it started, ended threads included (ThreadMXBean's total): a
 * thread per request ends before JFR's allocation sampler sees most of what it allocated. The agent's and the
 * workloads' allocation counts.
 */
public final class HeapAllocation {
    private HeapAllocation() {}

    /** The total so far, or -1 where the JVM does not measure it. */
    public static long total() {
        return ManagementFactory.getThreadMXBean() instanceof ThreadMXBean t
                        && t.isThreadAllocatedMemorySupported()
                        && t.isThreadAllocatedMemoryEnabled()
                ? t.getTotalThreadAllocatedBytes()
                : -1;
    }
}
