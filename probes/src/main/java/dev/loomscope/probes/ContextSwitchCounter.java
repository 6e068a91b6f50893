package dev.loomscope.probes;

/**
 * Cumulative context switches of this process. This JDK 21 variant sums {@code /proc/self/task/<tid>/status} over the
 * living threads (Linux only); the JDK 22+ variant of this class in the multi-release jar asks getrusage(2) through the
 * FFM API instead.
 */
public final class ContextSwitchCounter {
    private ContextSwitchCounter() {}

    /** Where the counts come from, or null when this platform has none. */
    public static String source() {
        return ProcContextSwitches.available() ? "proc" : null;
    }

    /** {voluntary, involuntary} so far, or null when unavailable. */
    public static long[] read() {
        return ProcContextSwitches.read();
    }
}
