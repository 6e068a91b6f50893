package dev.loomscope.flamegraphs.profiler;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts async-profiler from the chosen CPU engine down the fallback order cpu (perf_events) -> ctimer -> itimer; when
 * none starts, or "jfr" was chosen, the caller is told to use JFR's own execution sampling. Every step that failed
 * keeps its reason.
 */
public final class ProfilerStarter {

    /** What can run a profiler command: the real {@link AsyncProfilerHandle} in production. */
    @FunctionalInterface
    public interface Commands {
        String execute(String command) throws ProfilerCommandException;
    }

    /**
     * The outcome.
     *
     * @param mode the CPU engine that runs (cpu, ctimer, itimer), "async-profiler" when only wall/alloc/lock run, or
     *     "jfr" when async-profiler did not start at all (see {@link #jfrSamplesCpu} for who samples the CPU)
     * @param command the start command that succeeded, or null
     * @param reasons why each earlier step failed, in order
     */
    public record Start(String mode, String command, List<String> reasons) {
        public boolean profilerRunning() {
            return command != null;
        }

        /**
         * Whether JFR's execution sampling stands in: async-profiler did not start at all, or cpu was asked for and
         * none of its engines runs it (engine "jfr", or only wall/alloc/lock started).
         */
        public boolean jfrSamplesCpu(ProfilerSettings settings) {
            return !profilerRunning()
                    || settings.kinds().contains("cpu") && !ProfilerSettings.CPU_ENGINES.contains(mode);
        }

        /** One line for a warning, or null when the first choice ran. */
        public String fallbackNote() {
            if (reasons.isEmpty()) {
                return null;
            }
            return (profilerRunning() ? "profiling with " + mode : "async-profiler unavailable, using JFR sampling")
                    + " (" + String.join("; ", reasons) + ")";
        }
    }

    private ProfilerStarter() {}

    public static Start start(Commands profiler, ProfilerSettings settings) {
        List<String> reasons = new ArrayList<>();
        for (String engine : settings.cpuEngines()) {
            String command = settings.startCommand(engine);
            try {
                profiler.execute(command);
                return new Start(engine, command, reasons);
            } catch (ProfilerCommandException e) {
                reasons.add(engine + ": " + e.getMessage());
            }
        }
        if (settings.hasOtherKinds()) {
            String command = settings.startCommand(null);
            try {
                profiler.execute(command);
                return new Start("async-profiler", command, reasons);
            } catch (ProfilerCommandException e) {
                reasons.add(String.join("+", settings.kinds()) + ": " + e.getMessage());
            }
        }
        return new Start("jfr", null, reasons);
    }

    /**
     * Loads the library and starts; a library that cannot load is one more reason for "jfr". When async-profiler has
     * nothing to do (cpu alone with engine "jfr") the library is not loaded at all.
     */
    public static Start start(Path libDir, ProfilerSettings settings) {
        if (!settings.needsProfiler()) {
            return new Start("jfr", null, List.of());
        }
        try {
            AsyncProfilerHandle handle = ProfilerLibrary.load(libDir);
            return start(handle::execute, settings);
        } catch (ProfilerUnavailableException e) {
            return new Start("jfr", null, List.of(e.getMessage()));
        }
    }
}
