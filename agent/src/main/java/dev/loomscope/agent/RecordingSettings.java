package dev.loomscope.agent;

import dev.loomscope.events.ChunkEndEvent;
import dev.loomscope.events.ContextSwitchesEvent;
import dev.loomscope.events.HeldMonitorEvent;
import dev.loomscope.events.HeldMonitorSampleEvent;
import dev.loomscope.events.LibraryEvent;
import dev.loomscope.events.RunInfoEvent;
import dev.loomscope.events.SchedulerSampleEvent;
import dev.loomscope.events.SchedulerStallEvent;
import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.options.Durations;
import dev.loomscope.recording.JdkEvents;
import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Configuration;

/** The JFR settings of a loomscope recording: the chosen base settings plus what the analyzer needs. */
final class RecordingSettings {
    /**
     * Events the named settings (default, profile) leave off: JFR work on every platform thread's start or exit (a
     * stack trace, an event, old-object sampling's bookkeeping, a /proc read for the exiting thread's CPU load), or on
     * every socket read and write over their threshold (1 ms in JDK 25's settings: a throttler, and up to 100 events a
     * second with stack traces). docs/benchmarks.md measures them; the analyzer reads none of them
     * (loomscope.ContextSwitches counts the threads started instead). A .jfc of the user's own keeps what it says.
     */
    static final List<String> OFF_WITH_NAMED_SETTINGS = List.of(
            JdkEvents.THREAD_START,
            JdkEvents.THREAD_END,
            JdkEvents.OLD_OBJECT_SAMPLE,
            JdkEvents.THREAD_CPU_LOAD,
            JdkEvents.SOCKET_READ,
            JdkEvents.SOCKET_WRITE);

    private RecordingSettings() {}

    /**
     * @param cpuSampler the JFR event that samples the CPU ({@link JdkEvents#EXECUTION_SAMPLE} or
     *     {@link JdkEvents#CPU_TIME_SAMPLE}), or null: none
     */
    static Map<String, String> build(AgentOptions o, String cpuSampler) throws IOException, ParseException {
        String base = o.string(AgentOptions.SETTINGS);
        Configuration c =
                base.endsWith(".jfc") ? Configuration.create(Path.of(base)) : Configuration.getConfiguration(base);
        Map<String, String> s = new HashMap<>(c.getSettings());
        if (!base.endsWith(".jfc")) {
            for (String costly : OFF_WITH_NAMED_SETTINGS) {
                s.put(costly + "#enabled", "false");
            }
        }
        String ctxsw = Durations.jfr(o.duration(AgentOptions.CTXSW_PERIOD));
        enable(s, JdkEvents.VIRTUAL_THREAD_PINNED);
        s.put(JdkEvents.VIRTUAL_THREAD_PINNED + "#stackTrace", "true");
        s.put(JdkEvents.VIRTUAL_THREAD_PINNED + "#threshold", Durations.jfr(o.duration(AgentOptions.PINNED_THRESHOLD)));
        enable(s, JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED);
        s.put(JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED + "#stackTrace", "true");
        enable(s, JdkEvents.THREAD_CONTEXT_SWITCH_RATE);
        s.put(JdkEvents.THREAD_CONTEXT_SWITCH_RATE + "#period", ctxsw);
        for (String gc : new String[] {
            JdkEvents.GARBAGE_COLLECTION,
            JdkEvents.GC_PHASE_PAUSE,
            JdkEvents.GC_HEAP_SUMMARY,
            JdkEvents.GC_CONFIGURATION
        }) {
            enable(s, gc);
        }
        enable(s, JdkEvents.OBJECT_ALLOCATION_SAMPLE);
        enable(s, JdkEvents.JAVA_THREAD_STATISTICS);
        s.put(JdkEvents.JAVA_THREAD_STATISTICS + "#period", "1 s");
        enable(s, JdkEvents.CPU_LOAD);
        s.put(JdkEvents.CPU_LOAD + "#period", "1 s");
        s.put(JdkEvents.EXECUTION_SAMPLE + "#enabled", Boolean.toString(JdkEvents.EXECUTION_SAMPLE.equals(cpuSampler)));
        if (JdkEvents.EXECUTION_SAMPLE.equals(cpuSampler)) {
            s.put(JdkEvents.EXECUTION_SAMPLE + "#period", Durations.jfr(o.duration(AgentOptions.INTERVAL)));
        }
        if (JdkEvents.CPU_TIME_SAMPLE.equals(cpuSampler)) {
            enable(s, JdkEvents.CPU_TIME_SAMPLE);
            s.put(
                    JdkEvents.CPU_TIME_SAMPLE + "#throttle",
                    o.duration(AgentOptions.INTERVAL).toNanos() + "ns"); // a CPU-time period, not a rate
            s.put(JdkEvents.CPU_TIME_SAMPLE + "#stackTrace", "true");
        }
        // JDK 25's default settings trace what a method filter names, none here: work= is timed by the agent on every
        // JDK
        s.put(JdkEvents.METHOD_TRACE + "#enabled", "false"); // an event a call would make a hot method's cost unbounded
        if (!o.work().isEmpty()) {
            enable(s, WorkWindowEvent.NAME); // a histogram a method and second (WorkWindows), not an event a call
            s.put(WorkWindowEvent.NAME + "#period", "1 s");
        }
        // Threads in native code, running or waiting (epoll_wait, accept): flame graph readers take
        // these for CPU samples, so they would put waiting threads into every CPU flame graph.
        s.put(JdkEvents.NATIVE_METHOD_SAMPLE + "#enabled", "false");
        String env = Boolean.toString(o.on(AgentOptions.RECORD_ENV));
        for (String secret : new String[] {
            JdkEvents.INITIAL_ENVIRONMENT_VARIABLE, JdkEvents.INITIAL_SYSTEM_PROPERTY, JdkEvents.SYSTEM_PROCESS
        }) {
            s.put(secret + "#enabled", env);
        }
        enable(s, RunInfoEvent.NAME);
        enable(s, ContextSwitchesEvent.NAME);
        s.put("loomscope.ContextSwitches#period", ctxsw);
        enable(s, ChunkEndEvent.NAME); // never written: its hook writes the chunk's last loomscope.ContextSwitches
        s.put("loomscope.ChunkEnd#period", "endChunk");
        enable(s, SchedulerSampleEvent.NAME);
        s.put("loomscope.SchedulerSample#period", ctxsw);
        enable(s, SchedulerStallEvent.NAME);
        enable(s, LibraryEvent.NAME); // once a library as each chunk ends: every chunk kept holds them
        s.put(LibraryEvent.NAME + "#period", "endChunk");
        if (!o.duration(AgentOptions.HELD_MONITORS).isZero()
                && !o.string(AgentOptions.THREADS).equals("virtual")) {
            enable(s, HeldMonitorSampleEvent.NAME);
            enable(s, HeldMonitorEvent.NAME);
        }
        return s;
    }

    private static void enable(Map<String, String> s, String event) {
        s.put(event + "#enabled", "true");
    }
}
