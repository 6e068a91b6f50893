package dev.loomscope.load;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;

/** The CPU time this process (the load client's) has used so far: all its threads, its GC and compiler. */
final class ProcessCpu {
    private static final OperatingSystemMXBean OS = os();

    private ProcessCpu() {}

    /** Nanoseconds of CPU so far; -1 where the JVM does not tell. */
    static long nanos() {
        return OS == null ? -1 : OS.getProcessCpuTime();
    }

    private static OperatingSystemMXBean os() {
        try {
            return ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
        } catch (IllegalArgumentException notThisJvm) {
            return null;
        }
    }
}
