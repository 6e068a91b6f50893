package dev.loomscope.agent;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Names and places the output: {@code <out>/<label>-<pid>-<yyyyMMdd-HHmmss>.jfr} and {@code .html}, written under a
 * hidden temporary name (owner-only permissions) and renamed when complete.
 */
final class OutputFiles {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final Path dir;
    private final String base;

    private OutputFiles(Path dir, String base) {
        this.dir = dir;
        this.base = base;
    }

    /** Creates the directory and checks it is writable now, not at exit. */
    static OutputFiles create(Path dir, String label) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        Files.createDirectories(abs);
        if (!Files.isWritable(abs)) {
            throw new IOException(abs + " is not writable");
        }
        String stem = sanitize(label) + "-" + ProcessHandle.current().pid() + "-"
                + LocalDateTime.now().format(STAMP);
        return new OutputFiles(abs, stem);
    }

    static String sanitize(String label) {
        String s = label.replaceAll("[^A-Za-z0-9._-]+", "_");
        return s.isEmpty() ? "run" : s.length() > 80 ? s.substring(0, 80) : s;
    }

    Path dir() {
        return dir;
    }

    /** A fresh hidden temporary file for {@code extension}, owner read/write only. */
    Path temporary(String extension) throws IOException {
        for (int i = 0; ; i++) {
            Path tmp = dir.resolve("." + base + (i == 0 ? "" : "-" + i) + extension + ".part");
            try {
                return Files.createFile(tmp, ownerOnly());
            } catch (FileAlreadyExistsException taken) {
                // another run of this pid? try the next name
            }
        }
    }

    /**
     * Moves a complete temporary file to its final, unique name. JVMs sharing out= can share the name (pid 1 in
     * containers, started in the same second), and a rename replaces what is there: the name is taken with a hard link,
     * which fails when it exists, so no recording replaces another.
     */
    Path publish(Path tmp, String extension) throws IOException {
        for (int i = 0; ; i++) {
            Path target = dir.resolve(base + (i == 0 ? "" : "-" + i) + extension);
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try {
                Files.createLink(target, tmp);
                Files.delete(tmp);
                return target;
            } catch (FileAlreadyExistsException taken) {
                continue; // another JVM took it a moment ago
            } catch (UnsupportedOperationException | IOException noLinks) {
                // a file system without hard links: a rename, checked just before
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target);
            }
            return target;
        }
    }

    /** Moves a complete temporary file to {@code target}. */
    void publishAs(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Copies bytes {@code start} to {@code end} of {@code from} (whole chunks of a .jfr) into {@code to}, which exists.
     */
    static void copyRange(Path from, long start, long end, Path to) throws IOException {
        copyRange(from, start, end, to, 0);
    }

    /**
     * Copies bytes {@code start} to {@code end} of {@code from} into {@code to}, which exists, from its byte
     * {@code at}; when that fails (no room), {@code to} is cut back to {@code at}.
     */
    static void copyRange(Path from, long start, long end, Path to, long at) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(to, StandardOpenOption.WRITE)) {
            try {
                out.position(at);
                for (long done = 0; done < end - start; ) {
                    done += in.transferTo(start + done, end - start - done, out);
                }
            } catch (IOException e) {
                out.truncate(at);
                throw e;
            }
        }
    }

    static Path sibling(Path jfr, String extension) {
        String name = jfr.getFileName().toString();
        return jfr.resolveSibling(name.substring(0, name.length() - 4) + extension);
    }

    static FileAttribute<?>[] ownerOnly() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
                }
                : new FileAttribute<?>[0];
    }
}
