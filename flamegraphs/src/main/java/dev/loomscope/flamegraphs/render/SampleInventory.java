package dev.loomscope.flamegraphs.render;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import one.jfr.JfrReader;
import one.jfr.event.AllocationSample;
import one.jfr.event.ContendedLock;
import one.jfr.event.Event;
import one.jfr.event.ExecutionSample;

/**
 * Which sample events a recording holds: execution samples by thread state, allocation and lock
 * samples. async-profiler's CPU samples carry STATE_DEFAULT; JFR's own jdk.ExecutionSample carries
 * STATE_RUNNABLE, which is why a converter filtering on the state alone draws nothing for it.
 */
public final class SampleInventory {
    /**
     * JFR's CPU-time samples (jdk.CPUTimeSample, JDK 25's CPU-time sampler on Linux): async-profiler's
     * reader hands them on as execution samples of this thread state, which no JDK state has.
     */
    public static final String CPU_TIME = "STATE_254";

    private final Map<String, Long> executionByState = new TreeMap<>();
    private long alloc;
    private long lock;

    /** Reads every chunk of {@code jfr} from its current position. */
    public static SampleInventory of(JfrReader jfr) throws IOException {
        SampleInventory inv = new SampleInventory();
        for (Event e; (e = jfr.readEvent()) != null; ) {
            if (e instanceof ExecutionSample s) {
                String state = jfr.getEnumValue("jdk.types.ThreadState", s.threadState);
                inv.executionByState.merge(state == null ? "STATE_" + s.threadState : state, 1L, Long::sum);
            } else if (e instanceof AllocationSample) {
                inv.alloc++;
            } else if (e instanceof ContendedLock) {
                inv.lock++;
            }
        }
        return inv;
    }

    public void add(SampleInventory other) {
        other.executionByState.forEach((k, v) -> executionByState.merge(k, v, Long::sum));
        alloc += other.alloc;
        lock += other.lock;
    }

    /** async-profiler CPU samples (perf_events or timer engines). */
    public long profilerCpu() {
        return executionByState.getOrDefault("STATE_DEFAULT", 0L);
    }

    /** All execution samples that are not CPU samples (async-profiler's or JFR's CPU-time sampler's): wall clock or JFR's own. */
    public long otherExecution() {
        return executionByState.entrySet().stream()
                .filter(e -> !e.getKey().equals("STATE_DEFAULT") && !e.getKey().equals(CPU_TIME))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /** JFR's CPU-time samples (JDK 25+). */
    public long cpuTime() {
        return executionByState.getOrDefault(CPU_TIME, 0L);
    }

    public long runnable() {
        return executionByState.getOrDefault("STATE_RUNNABLE", 0L);
    }

    public long alloc() {
        return alloc;
    }

    public long lock() {
        return lock;
    }

    /**
     * The thread-state filter that selects {@code kind}, or null for "no filter"; empty when
     * the recording has no such samples.
     */
    public java.util.Optional<String> stateFilter(SampleKind kind) {
        return switch (kind) {
            case CPU -> profilerCpu() > 0 ? java.util.Optional.of("DEFAULT")
                    : cpuTime() > 0 ? java.util.Optional.of(CPU_TIME.substring(6))
                    : runnable() > 0 ? java.util.Optional.of("RUNNABLE") : java.util.Optional.empty();
            case WALL -> profilerCpu() > 0 && otherExecution() == 0 ? java.util.Optional.empty()
                    : otherExecution() > 0 ? java.util.Optional.of(String.join(",", otherStates()))
                    : java.util.Optional.empty();
            case ALLOC -> alloc > 0 ? java.util.Optional.of("") : java.util.Optional.empty();
            case LOCK -> lock > 0 ? java.util.Optional.of("") : java.util.Optional.empty();
        };
    }

    private java.util.List<String> otherStates() {
        return executionByState.keySet().stream()
                .filter(s -> !s.equals("STATE_DEFAULT") && !s.equals(CPU_TIME))
                .map(s -> s.startsWith("STATE_") ? s.substring(6) : s)
                .toList();
    }

    /** What the recording has, for an error message: "cpu 120, wall 0, alloc 30, lock 0". */
    public String describe() {
        return "cpu " + (profilerCpu() > 0 ? profilerCpu() : cpuTime() > 0 ? cpuTime() : runnable()) + ", wall " + otherExecution()
                + ", alloc " + alloc + ", lock " + lock;
    }
}
