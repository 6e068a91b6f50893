package dev.loomscope.agent;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import javax.management.ObjectName;
import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;

/**
 * JFR's disk repository (the chunks it writes as it records: what a kill -9 leaves) in a directory of this JVM's own
 * that only the owner can enter, {@code <out>/jfr-repository/jvm-<random>/}, instead of the temp directory, where its
 * files are readable by every user of the machine. The random part keeps JVMs apart that share {@code out=} and a pid
 * (containers on one volume all run as pid 1, and JFR names its directory by time and pid). {@code jfr-repository} is
 * used only when it is a real directory of this user (never a link, whose target would be changed). Set through
 * JFR.configure (the DiagnosticCommand MBean), the path quoted so that no part of it becomes an option, before the
 * agent's recording starts; left alone where the JVM's options or a recording already running chose the repository.
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
        Path own;
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            var owner = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
            if (!Files.exists(base, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.createDirectory(base, owner);
                } catch (FileAlreadyExistsException raced) {
                    // another JVM on the same out= made it a moment ago: checked below like any other
                }
            }
            PosixFileAttributes a = Files.readAttributes(base, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isDirectory() || a.isSymbolicLink()) {
                throw new IOException(base + " is not a directory (a link or a file is not followed)");
            }
            if (!a.owner().getName().equals(System.getProperty("user.name"))) {
                throw new IOException(base + " belongs to " + a.owner().getName() + ", not to this user");
            }
            own = Files.createTempDirectory(base, "jvm-", owner); // random, new, owner-only
        } else {
            Files.createDirectories(base);
            own = Files.createTempDirectory(base, "jvm-");
        }
        String path = own.toString();
        String quote = path.indexOf('"') < 0 ? "\"" : path.indexOf('\'') < 0 ? "'" : null;
        if (quote == null) {
            Files.deleteIfExists(own);
            throw new IOException(out + " holds both quote characters, which JFR.configure cannot be given");
        }
        ManagementFactory.getPlatformMBeanServer()
                .invoke(
                        new ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "jfrConfigure",
                        new Object[] {new String[] {"repositorypath=" + quote + path + quote}},
                        new String[] {String[].class.getName()});
        return own;
    }

    private static boolean chosenByOptions() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("-XX:FlightRecorderOptions") && a.contains("repository="));
    }

    /**
     * After JFR's own clean-up at exit this JVM's directory is empty: removed, and {@code jfr-repository} too when no
     * other JVM uses it, so that out= holds only recordings.
     */
    static void removeIfEmpty(Path own) {
        if (own == null) {
            return;
        }
        try {
            Files.deleteIfExists(own);
            Files.deleteIfExists(own.getParent());
        } catch (IOException notEmpty) {
            // chunks of a run still recording beside us, or JFR has not cleaned up yet: it stays private
        }
    }

    /**
     * After a recording stopped while the JVM runs on ({@code attach ... stop}, {@code duration=}, a full disk): JFR's
     * repository goes back to the temp directory, where a later recording of the JVM's own would have put it, and this
     * JVM's directory under out= is removed when JFR left it empty. Left as it is while another recording runs.
     */
    static void release(Path own) {
        if (own == null
                || FlightRecorder.getFlightRecorder().getRecordings().stream()
                        .anyMatch(r ->
                                r.getState() == RecordingState.RUNNING || r.getState() == RecordingState.DELAYED)) {
            return;
        }
        try {
            String tmp = Path.of(System.getProperty("java.io.tmpdir"))
                    .toAbsolutePath()
                    .toString();
            if (tmp.indexOf('"') < 0) {
                ManagementFactory.getPlatformMBeanServer()
                        .invoke(
                                new ObjectName("com.sun.management:type=DiagnosticCommand"),
                                "jfrConfigure",
                                new Object[] {new String[] {"repositorypath=\"" + tmp + "\""}},
                                new String[] {String[].class.getName()});
            }
            try (Stream<Path> dirs = Files.list(own)) {
                for (Path d : dirs.toList()) {
                    if (Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)) {
                        Files.deleteIfExists(d); // JFR's directory of this run, empty once its chunks are gone
                    }
                }
            }
        } catch (Exception | Error notNow) {
            // JFR still uses it: it stays private
        }
        removeIfEmpty(own);
    }
}
