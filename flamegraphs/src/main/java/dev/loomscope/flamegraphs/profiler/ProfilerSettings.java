package dev.loomscope.flamegraphs.profiler;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What to profile: typed form of an async-profiler start command.
 *
 * @param kinds any of cpu, wall, alloc, lock (at least one)
 * @param interval sampling interval for cpu and wall
 * @param cstack how native stacks are walked: vm (mixed mode: Java, native and kernel), fp, dwarf, lbr, no
 * @param file the file async-profiler writes (in JFR format) when stopped
 * @param engine the CPU engine tried first, falling back along {@link #CPU_ENGINES}; "jfr" or "jfr-cpu-time": none of
 *     async-profiler's (the caller samples with JFR's execution sampler or, JDK 25+, its CPU-time sampler)
 */
public record ProfilerSettings(List<String> kinds, Duration interval, String cstack, Path file, String engine) {
    public static final List<String> KINDS = List.of("cpu", "wall", "alloc", "lock");
    public static final List<String> CSTACKS = List.of("vm", "vmx", "fp", "dwarf", "lbr", "no");
    /**
     * async-profiler's CPU engines in fallback order: perf_events ("cpu": Java, native and kernel frames; its
     * per-thread event costs on every OS context switch), then the two timer engines (Java and native frames).
     */
    public static final List<String> CPU_ENGINES = List.of("cpu", "ctimer", "itimer");
    /** The engines that are JFR's own samplers, not async-profiler's. */
    public static final List<String> JFR_ENGINES = List.of("jfr", "jfr-cpu-time");

    /** Settings that try perf_events first. */
    public ProfilerSettings(List<String> kinds, Duration interval, String cstack, Path file) {
        this(kinds, interval, cstack, file, "cpu");
    }

    public ProfilerSettings {
        kinds = List.copyOf(kinds);
        if (kinds.isEmpty() || !KINDS.containsAll(kinds)) {
            throw new IllegalArgumentException("profile kinds must be among " + KINDS + ": " + kinds);
        }
        if (!CSTACKS.contains(cstack)) {
            throw new IllegalArgumentException("cstack must be one of " + CSTACKS + ": " + cstack);
        }
        if (!CPU_ENGINES.contains(engine) && !JFR_ENGINES.contains(engine)) {
            throw new IllegalArgumentException(
                    "engine must be one of " + CPU_ENGINES + ", jfr or jfr-cpu-time: " + engine);
        }
        Objects.requireNonNull(interval);
        Objects.requireNonNull(file);
    }

    /**
     * The CPU engines to try, in order: from {@link #engine} down the fallback order; none without cpu or for JFR's
     * samplers.
     */
    public List<String> cpuEngines() {
        return !kinds.contains("cpu") || JFR_ENGINES.contains(engine)
                ? List.of()
                : CPU_ENGINES.subList(CPU_ENGINES.indexOf(engine), CPU_ENGINES.size());
    }

    /** Whether wall, alloc or lock is asked for: kinds only async-profiler records. */
    public boolean hasOtherKinds() {
        return kinds.stream().anyMatch(k -> !k.equals("cpu"));
    }

    /** Whether async-profiler has anything to do: a CPU engine to try, or wall, alloc or lock. */
    public boolean needsProfiler() {
        return !cpuEngines().isEmpty() || hasOtherKinds();
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
