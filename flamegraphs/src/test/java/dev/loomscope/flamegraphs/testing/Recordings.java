package dev.loomscope.flamegraphs.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Makes the recordings the flame graph tests read, once per test class. */
public final class Recordings {
    private Recordings() {}

    /** An async-profiler (cpu, mixed-mode) recording of {@link BurnCpu}. */
    public static Path asyncProfilerCpu(Path dir) throws Exception {
        Path jfr = dir.resolve("burn-ap.jfr");
        ChildJvm.Result r =
                ChildJvm.run(List.of(), BurnCpu.class.getName(), List.of("profile", jfr.toString()), dir, 120);
        if (r.exitCode() != 0 || !Files.isRegularFile(jfr)) {
            throw new AssertionError("fixture failed: " + r);
        }
        return jfr;
    }

    /**
     * A JDK-only recording (jdk.ExecutionSample, no async-profiler) of {@link BurnCpu}; {@code settings}: more of
     * JFR's, after the profile's (e.g. {@code jdk.NativeMethodSample#enabled=false}).
     */
    public static Path jdkOnly(Path dir, String... settings) throws Exception {
        Path jfr = dir.resolve("burn-jdk.jfr");
        ChildJvm.Result r = ChildJvm.run(
                List.of("-XX:StartFlightRecording:filename=" + jfr + ",settings=profile"
                        + (settings.length == 0 ? "" : "," + String.join(",", settings))),
                BurnCpu.class.getName(),
                List.of("plain"),
                dir,
                120);
        if (r.exitCode() != 0 || !Files.isRegularFile(jfr)) {
            throw new AssertionError("fixture failed: " + r);
        }
        return jfr;
    }
}
