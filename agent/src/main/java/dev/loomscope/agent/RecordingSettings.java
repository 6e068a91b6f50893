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
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JfrSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
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
        JfrSettings s = JfrSettings.from(c.getSettings());
        if (!base.endsWith(".jfc")) {
            OFF_WITH_NAMED_SETTINGS.forEach(s::disable);
        }
        Duration ctxsw = o.duration(AgentOptions.CTXSW_PERIOD);
        s.loom(o.duration(AgentOptions.PINNED_THRESHOLD), ctxsw);
        for (String gc :
                new String[] {JdkEvents.GC_PHASE_PAUSE, JdkEvents.GC_HEAP_SUMMARY, JdkEvents.GC_CONFIGURATION}) {
            s.enable(gc);
        }
        s.enable(JdkEvents.OBJECT_ALLOCATION_SAMPLE);
        if (JdkEvents.EXECUTION_SAMPLE.equals(cpuSampler)) {
            s.period(JdkEvents.EXECUTION_SAMPLE, o.duration(AgentOptions.INTERVAL));
        } else {
            s.disable(JdkEvents.EXECUTION_SAMPLE);
        }
        if (JdkEvents.CPU_TIME_SAMPLE.equals(cpuSampler)) {
            s.enable(JdkEvents.CPU_TIME_SAMPLE, true)
                    .set(
                            JdkEvents.CPU_TIME_SAMPLE,
                            "throttle",
                            o.duration(AgentOptions.INTERVAL).toNanos() + "ns"); // a CPU-time period, not a rate
        }
        // JDK 25's default settings trace what a method filter names, none here: work= is timed by the agent on every
        // JDK
        s.disable(JdkEvents.METHOD_TRACE); // an event a call would make a hot method's cost unbounded
        if (!o.work().isEmpty()) {
            // a histogram a method and second (WorkWindows), not an event a call
            s.period(WorkWindowEvent.NAME, JfrSettings.EVERY_SECOND);
        }
        // Threads in native code, running or waiting (epoll_wait, accept): flame graph readers take
        // these for CPU samples, so they would put waiting threads into every CPU flame graph.
        s.disable(JdkEvents.NATIVE_METHOD_SAMPLE);
        for (String secret : new String[] {
            JdkEvents.INITIAL_ENVIRONMENT_VARIABLE, JdkEvents.INITIAL_SYSTEM_PROPERTY, JdkEvents.SYSTEM_PROCESS
        }) {
            if (o.on(AgentOptions.RECORD_ENV)) {
                s.enable(secret);
            } else {
                s.disable(secret);
            }
        }
        s.enable(RunInfoEvent.NAME);
        s.period(ContextSwitchesEvent.NAME, ctxsw);
        // never written: its hook writes the chunk's last loomscope.ContextSwitches
        s.period(ChunkEndEvent.NAME, "endChunk");
        s.period(SchedulerSampleEvent.NAME, ctxsw);
        s.enable(SchedulerStallEvent.NAME);
        s.period(LibraryEvent.NAME, "endChunk"); // once a library as each chunk ends: every chunk kept holds them
        if (!o.duration(AgentOptions.HELD_MONITORS).isZero()
                && !o.string(AgentOptions.THREADS).equals("virtual")) {
            s.enable(HeldMonitorSampleEvent.NAME);
            s.enable(HeldMonitorEvent.NAME);
        }
        return s.map();
    }
}
