package dev.loomscope.recording;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * async-profiler's samples beside the recording they belong to: {@code NAME.jfr} (the JDK's own events, which every JFR
 * tool reads as it is) and {@code NAME.async-profiler.jfr} (async-profiler's recording of the same time, which those
 * tools read too). Appended to the JDK's file instead, the profiler's chunk, with its own type ids and times, misleads
 * the JDK's {@code jfr} tool (its samples counted as other events, a wrong duration); loomscope reads the two as one
 * recording.
 */
public final class ProfileFile {
    public static final String SUFFIX = ".async-profiler.jfr";

    private ProfileFile() {}

    /** Whether {@code p} is a profile file by its name. */
    public static boolean is(Path p) {
        return p.getFileName() != null && p.getFileName().toString().endsWith(SUFFIX);
    }

    /** Where the profile of the recording {@code jfr} ({@code NAME.jfr}) is. */
    public static Path of(Path jfr) {
        String name = jfr.getFileName().toString();
        String base = name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
        return jfr.resolveSibling(base + SUFFIX);
    }

    /** The recording a profile file belongs to. */
    public static Path recordingOf(Path profile) {
        String name = profile.getFileName().toString();
        return profile.resolveSibling(name.substring(0, name.length() - SUFFIX.length()) + ".jfr");
    }

    /** The profile beside {@code jfr} if there is one (and {@code jfr} is not itself one), else null. */
    public static Path beside(Path jfr) {
        if (jfr.getFileName() == null
                || is(jfr)
                || !jfr.getFileName().toString().endsWith(".jfr")) {
            return null;
        }
        Path profile = of(jfr);
        return Files.isRegularFile(profile) ? profile : null;
    }
}
