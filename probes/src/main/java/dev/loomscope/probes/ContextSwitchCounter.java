package dev.loomscope.probes;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Cumulative context switches of this process. This JDK 21 variant sums
 * {@code /proc/self/task/<tid>/status} over the living threads (Linux only); the JDK 22+ variant of
 * this class in the multi-release jar asks getrusage(2) through the FFM API instead.
 */
public final class ContextSwitchCounter {
    private static final Path TASKS = Path.of("/proc/self/task");

    private ContextSwitchCounter() {}

    /** Where the counts come from, or null when this platform has none. */
    public static String source() {
        return Files.isDirectory(TASKS) ? "proc" : null;
    }

    /** {voluntary, involuntary} so far, or null when unavailable. */
    public static long[] read() {
        if (source() == null) {
            return null;
        }
        long[] sum = new long[2];
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            sum[0] += Long.parseLong(line.substring(24).strip());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            sum[1] += Long.parseLong(line.substring(27).strip());
                        }
                    }
                } catch (IOException | NumberFormatException ended) {
                    // the thread ended while we read it
                }
            }
        } catch (IOException e) {
            return null;
        }
        return sum;
    }
}
