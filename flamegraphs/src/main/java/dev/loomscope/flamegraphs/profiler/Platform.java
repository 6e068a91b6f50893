package dev.loomscope.flamegraphs.profiler;

import java.util.Locale;

/** The async-profiler build for this OS and CPU: the folder name inside the async-profiler jar. */
public record Platform(String folder) {

    /** The platform of the running JVM. */
    public static Platform current() throws ProfilerUnavailableException {
        return of(System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    static Platform of(String osName, String osArch) throws ProfilerUnavailableException {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        if (os.contains("mac")) {
            return new Platform("macos"); // one universal library for x64 and arm64
        }
        if (os.contains("linux")) {
            return switch (arch) {
                case "amd64", "x86_64" -> new Platform("linux-x64");
                case "aarch64", "arm64" -> new Platform("linux-arm64");
                default -> throw new ProfilerUnavailableException("async-profiler has no build for linux/" + osArch);
            };
        }
        throw new ProfilerUnavailableException("async-profiler has no build for " + osName + "/" + osArch);
    }

    /** Path of the native library inside the async-profiler jar. */
    public String libraryEntry() {
        return folder + "/libasyncProfiler.so";
    }
}
