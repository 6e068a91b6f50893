package dev.loomscope.probes;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Cumulative context switches of this process from getrusage(RUSAGE_SELF) through the FFM API (JDK 22+, Linux and
 * macOS): all threads, living and ended. Where the JVM refuses the call ({@code --illegal-native-access=deny}), the
 * living threads' counts from /proc, as on JDK 21.
 */
public final class ContextSwitchCounter {
    private static final int RUSAGE_SELF = 0;
    /** struct rusage: two struct timeval (16 bytes each on LP64), then 14 longs; ru_nvcsw is the 13th. */
    private static final long NVCSW_OFFSET = 32 + 12 * 8;

    private static final long NIVCSW_OFFSET = NVCSW_OFFSET + 8;
    private static final long RUSAGE_SIZE = 32 + 14 * 8;
    private static final MethodHandle GETRUSAGE = lookup();

    private ContextSwitchCounter() {}

    private static MethodHandle lookup() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!(os.contains("linux") || os.contains("mac")) || ValueLayout.ADDRESS.byteSize() != 8) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup()
                    .find("getrusage")
                    .map(addr -> linker.downcallHandle(
                            addr,
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Where the counts come from, or null when this platform has none. */
    public static String source() {
        return GETRUSAGE != null ? "getrusage" : ProcContextSwitches.available() ? "proc" : null;
    }

    /** {voluntary, involuntary} so far, or null when unavailable. */
    public static long[] read() {
        if (GETRUSAGE == null) {
            return ProcContextSwitches.read();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment usage = arena.allocate(RUSAGE_SIZE, 8);
            int rc = (int) GETRUSAGE.invokeExact(RUSAGE_SELF, usage);
            if (rc != 0) {
                return null;
            }
            return new long[] {
                usage.get(ValueLayout.JAVA_LONG, NVCSW_OFFSET), usage.get(ValueLayout.JAVA_LONG, NIVCSW_OFFSET)
            };
        } catch (Throwable t) {
            return null;
        }
    }
}
