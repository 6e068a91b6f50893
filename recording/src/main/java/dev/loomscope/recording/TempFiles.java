package dev.loomscope.recording;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The temporary files a read makes (expanded and completed copies of recordings): owner-only, and removed when the JVM
 * exits, Ctrl-C and SIGTERM included, if the read has not removed them first.
 */
public final class TempFiles {
    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();
    private static volatile boolean hooked;

    private TempFiles() {}

    /** A new empty file in the temporary directory, removed at exit unless {@link #delete}d before. */
    public static Path create(String prefix, String suffix) throws IOException {
        hook();
        Path p = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? Files.createTempFile(
                        prefix,
                        suffix,
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createTempFile(prefix, suffix);
        LIVE.add(p);
        return p;
    }

    public static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a temp file left behind is harmless
        }
        LIVE.remove(p);
    }

    private static synchronized void hook() {
        if (!hooked) {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(() -> LIVE.forEach(TempFiles::delete), "loomscope-temp-files"));
            hooked = true;
        }
    }
}
