package dev.loomscope.agent;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import javax.management.ObjectName;

/**
 * JFR's disk repository (the chunks it writes as it records: what a kill -9 leaves) in a directory
 * only the owner can enter, {@code <out>/jfr-repository/}, instead of the temp directory, where its
 * files are readable by every user of the machine. Set through JFR.configure (the DiagnosticCommand
 * MBean) before the agent's recording starts; left alone where the JVM's options or a recording
 * already running chose the repository.
 */
final class PrivateRepository {
    static final String DIR = "jfr-repository";

    private PrivateRepository() {}

    /** Moves the repository under {@code out}; null when it was left where it is (and why is no failure). */
    static Path use(Path out) throws Exception {
        if (System.getProperty("jdk.jfr.repository") != null || chosenByOptions()) {
            return null; // a recording already runs with it, or the user named it: theirs to place
        }
        Path base = out.toAbsolutePath().resolve(DIR);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            if (!Files.isDirectory(base)) {
                Files.createDirectories(base, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwx------")); // also when it was there before
        } else {
            Files.createDirectories(base);
        }
        ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure",
                new Object[] {new String[] {"repositorypath=" + base}}, new String[] {String[].class.getName()});
        return base;
    }

    private static boolean chosenByOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("-XX:FlightRecorderOptions") && a.contains("repository="));
    }

    /** After JFR's own clean-up at exit the directory is empty: removed, so that out= holds only recordings. */
    static void removeIfEmpty(Path base) {
        if (base == null) {
            return;
        }
        try {
            Files.deleteIfExists(base);
        } catch (IOException notEmpty) {
            // chunks of a run still recording beside us, or JFR has not cleaned up yet: it stays private
        }
    }
}
