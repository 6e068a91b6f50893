package dev.loomscope.flamegraphs.profiler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What to profile: typed form of an async-profiler start command.
 *
 * @param kinds    any of cpu, wall, alloc, lock (at least one)
 * @param interval sampling interval for cpu and wall
 * @param cstack   how native stacks are walked: vm (mixed mode: Java, native and kernel), fp, dwarf, lbr, no
 * @param file     the file async-profiler writes (in JFR format) when stopped
 */
public record ProfilerSettings(List<String> kinds, Duration interval, String cstack, Path file) {
    public static final List<String> KINDS = List.of("cpu", "wall", "alloc", "lock");
    public static final List<String> CSTACKS = List.of("vm", "vmx", "fp", "dwarf", "lbr", "no");
    /** CPU engines tried in order: perf_events, then the two timer engines. */
    public static final List<String> CPU_ENGINES = List.of("cpu", "ctimer", "itimer");

    public ProfilerSettings {
        kinds = List.copyOf(kinds);
        if (kinds.isEmpty() || !KINDS.containsAll(kinds)) {
            throw new IllegalArgumentException("profile kinds must be among " + KINDS + ": " + kinds);
        }
        if (!CSTACKS.contains(cstack)) {
            throw new IllegalArgumentException("cstack must be one of " + CSTACKS + ": " + cstack);
        }
        Objects.requireNonNull(interval);
        Objects.requireNonNull(file);
    }

    /** The start command with the given CPU engine ({@code null}: no CPU profiling). */
    public String startCommand(String cpuEngine) {
        StringBuilder sb = new StringBuilder("start");
        long nanos = interval.toNanos();
        if (cpuEngine != null) {
            sb.append(",event=").append(cpuEngine).append(",interval=").append(nanos);
        }
        if (kinds.contains("wall")) {
            sb.append(",wall=").append(nanos);
        }
        if (kinds.contains("alloc")) {
            sb.append(",alloc");
        }
        if (kinds.contains("lock")) {
            sb.append(",lock");
        }
        sb.append(",cstack=").append(cstack);
        sb.append(",jfr,file=").append(file); // JFR output whatever the file is called
        return sb.toString();
    }
}
