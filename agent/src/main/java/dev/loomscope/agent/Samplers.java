package dev.loomscope.agent;

import dev.loomscope.agent.log.AgentLog;
import dev.loomscope.flamegraphs.profiler.ProfilerSettings;
import dev.loomscope.flamegraphs.profiler.ProfilerStarter;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.recording.JdkEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import jdk.jfr.FlightRecorder;

/**
 * What samples a {@link Session}'s CPU (and async-profiler's other kinds), as {@code profile=} and {@code engine=} ask
 * and this JVM allows: the profiling mode the recording names, JFR's CPU sampler event to enable (null: none) and
 * async-profiler's temporary output (null when it does not run).
 */
record Samplers(String mode, String cpuSampler, Path tmpProfile) {
    static Samplers start(AgentOptions o, OutputFiles files) throws Exception {
        String mode = "off";
        String cpuSampler = null;
        Path tmpProfile = null;
        List<String> kinds = o.profile();
        if (!kinds.isEmpty()) {
            tmpProfile = files.temporary(".profile.jfr");
            Path libDir = o.isSet(AgentOptions.LIBDIR) ? Path.of(o.string(AgentOptions.LIBDIR)) : null;
            var settings = new ProfilerSettings(
                    kinds, o.duration(AgentOptions.INTERVAL), o.string(AgentOptions.CSTACK), tmpProfile, o.cpuEngine());
            var started = ProfilerStarter.start(libDir, settings);
            mode = started.mode();
            if (started.jfrSamplesCpu(settings)) {
                cpuSampler = JdkEvents.EXECUTION_SAMPLE;
                if (o.cpuEngine().equals("jfr-cpu-time")) {
                    if (cpuTimeSamplerAvailable()) {
                        cpuSampler = JdkEvents.CPU_TIME_SAMPLE;
                        mode = mode.equals("jfr")
                                ? "jfr-cpu-time"
                                : mode; // async-profiler may run wall, alloc or lock beside it
                    } else {
                        AgentLog.warn("engine=jfr-cpu-time: JFR's CPU-time sampler needs JDK 25+ on Linux (this is JDK "
                                + Runtime.version().feature() + " on " + System.getProperty("os.name")
                                + "); sampling with JFR's execution sampler (engine=jfr) instead");
                    }
                }
            }
            if (started.fallbackNote() != null) {
                AgentLog.warn(started.fallbackNote());
            }
            if (!started.profilerRunning()) {
                Files.deleteIfExists(tmpProfile);
                tmpProfile = null;
            }
        }
        return new Samplers(mode, cpuSampler, tmpProfile);
    }

    /** Whether this JVM's JFR has the CPU-time sampler (JEP 509: JDK 25+, Linux). */
    static boolean cpuTimeSamplerAvailable() {
        return Runtime.version().feature() >= 25
                && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                && FlightRecorder.getFlightRecorder().getEventTypes().stream()
                        .anyMatch(t -> t.getName().equals(JdkEvents.CPU_TIME_SAMPLE));
    }
}
