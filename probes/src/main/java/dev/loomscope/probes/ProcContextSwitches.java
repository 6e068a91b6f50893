package dev.loomscope.probes;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Context switches of this process's living threads, summed over {@code /proc/self/task/<tid>/status} (Linux): threads
 * that ended are not counted. What JDK 21 reads, and JDK 22+ where getrusage cannot be called (native access denied).
 */
public final class ProcContextSwitches {
    private static final Path TASKS = Path.of("/proc/self/task");

    private ProcContextSwitches() {}

    static boolean available() {
        return Files.isDirectory(TASKS);
    }

    /** {voluntary, involuntary} of the living threads, or null when unavailable. */
    static long[] read() {
        return read(TASKS);
    }

    /** {voluntary, involuntary} of the living threads of process {@code pid}, or null when unavailable (it ended). */
    public static long[] of(long pid) {
        return read(Path.of("/proc/" + pid + "/task"));
    }

    private static long[] read(Path taskDir) {
        if (!Files.isDirectory(taskDir)) {
            return null;
        }
        long[] sum = new long[2];
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
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
