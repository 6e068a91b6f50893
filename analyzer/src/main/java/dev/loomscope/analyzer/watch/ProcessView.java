package dev.loomscope.analyzer.watch;

import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.Said;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * A local process as this one reaches its files: the user it runs as, and the mount namespace it sees (a container's,
 * reached from its host through {@code /proc/PID/root}). A file the JVM writes for us (the agent's reply, a thread
 * dump) goes into a directory of ours that it can write, named as it names it; a jar it loads (the agent), into one
 * that it can read. For a JVM of this user in this mount namespace, or where there is no {@code /proc}, both are where
 * they always were.
 *
 * @param pid the process
 * @param uid the user it runs as (effective), or -1 when not known
 * @param gid its group (effective), or -1
 * @param user its user's name, or its uid
 * @param us this process's user (effective)
 * @param root where its file system starts as this process reaches it; null: the same as ours
 * @param otherNetwork whether it runs in another network namespace, where its 127.0.0.1 is not ours
 */
public record ProcessView(long pid, int uid, int gid, String user, int us, Path root, boolean otherNetwork) {
    private static final Path PROC = Path.of("/proc");
    /** The sticky bit of a directory's mode: its entries renamed or removed by their owners only. */
    private static final int STICKY = 01000;

    /** The process {@code pid} as this one sees it; a process /proc does not tell of is seen as this one's own. */
    public static ProcessView of(long pid) {
        Path dir = PROC.resolve(Long.toString(pid));
        int self = ids(PROC.resolve("self"))[0];
        int[] ids = ids(dir);
        String user = ids[0] < 0 ? "?" : Integer.toString(ids[0]);
        try {
            user = Files.getOwner(dir).getName();
        } catch (IOException | UnsupportedOperationException unknown) {
            // the uid says it
        }
        return new ProcessView(
                pid, ids[0], ids[1], user, self, other(dir, "mnt") ? dir.resolve("root") : null, other(dir, "net"));
    }

    /**
     * Whether the process's namespace of {@code kind} differs from ours; false where it cannot be told (not Linux, or
     * another user's process when this one is not root).
     */
    private static boolean other(Path dir, String kind) {
        try {
            return !Files.readSymbolicLink(dir.resolve("ns").resolve(kind))
                    .equals(Files.readSymbolicLink(PROC.resolve("self/ns").resolve(kind)));
        } catch (IOException | UnsupportedOperationException unknown) {
            return false;
        }
    }

    /** The effective uid and gid a /proc/PID/status gives; -1 each when it cannot be read. */
    private static int[] ids(Path dir) {
        int[] ids = {-1, -1};
        try (Stream<String> lines = Files.lines(dir.resolve("status"))) {
            lines.forEach(l -> {
                String[] f = l.split("\\s+");
                if (f.length > 2 && (f[0].equals("Uid:") || f[0].equals("Gid:"))) {
                    ids[f[0].equals("Uid:") ? 0 : 1] = Integer.parseInt(f[2]);
                }
            });
        } catch (IOException | RuntimeException unknown) {
            // no /proc (macOS), or the process ended
        }
        return ids;
    }

    /** Whether it runs as another user than this process. */
    public boolean otherUser() {
        return uid >= 0 && us >= 0 && uid != us;
    }

    /** Whether it runs in another mount namespace (a container). */
    public boolean otherMounts() {
        return root != null;
    }

    /** Whether this process is root, which may reach another user's JVM. */
    public boolean weAreRoot() {
        return us == 0;
    }

    /** A path as the process names it, as this one reaches it. */
    public Path here(String there) {
        return root == null ? Path.of(there) : root.resolve(there.startsWith("/") ? there.substring(1) : there);
    }

    /**
     * A new directory of ours the process can write into, in {@code tmpdir} as it names it (its
     * {@code java.io.tmpdir}); null when the process is this user's in this namespace (our own temporary directory
     * serves).
     */
    public Exchange exchange(String tmpdir) {
        if (!otherUser() && !otherMounts()) {
            return null;
        }
        String in = guarded(tmpdir);
        try {
            Path here = Files.createTempDirectory(
                    here(in),
                    "loomscope-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            if (otherUser()) {
                Files.setAttribute(here, "unix:uid", uid);
                Files.setAttribute(here, "unix:gid", gid);
            }
            return new Exchange(here, (in.endsWith("/") ? in : in + "/") + here.getFileName(), uid, new ArrayList<>());
        } catch (IOException | UnsupportedOperationException e) {
            throw cannotPlace(in, e);
        }
    }

    /**
     * Where root may put files for the process without its user renaming them under it (a directory swapped for a link
     * between root's check and root's write would send the write anywhere): its {@code tmpdir} when that is root's own
     * or sticky and root's, as /tmp is, else its /tmp when that is; else a one-line refusal.
     */
    private String guarded(String tmpdir) {
        for (String dir : List.of(tmpdir, "/tmp")) {
            try {
                Path p = here(dir);
                int owner = (int) Files.getAttribute(p, "unix:uid");
                int mode = (int) Files.getAttribute(p, "unix:mode");
                if (Files.isDirectory(p) && (owner == us || owner == 0 && (mode & STICKY) != 0)) {
                    return dir;
                }
            } catch (IOException | RuntimeException unreadable) {
                // the next
            }
        }
        throw cannotPlace(
                tmpdir,
                new IOException(
                        "neither it nor /tmp is root's own or sticky, so its user could rename what root puts there"));
    }

    /** A file that cannot be put where the JVM reaches it: an environment's limit, said in one line with what to do. */
    private BadDataException cannotPlace(String tmpdir, Exception e) {
        return new BadDataException("process " + pid
                + ": cannot put a file where it reaches it, in its temporary directory " + here(tmpdir) + " ("
                + Said.by(e) + "): start the JVM with a writable -Djava.io.tmpdir, or run loomscope as its user"
                + (otherMounts() ? " inside its container" : ""));
    }

    /**
     * The agent {@code jar} where the process can read it, as it names it: the jar itself for this user's JVM in this
     * namespace, else a copy in its {@code tmpdir}, in a directory only this user may change (kept: the JVM reads its
     * classes from it for as long as it runs; the next attach with the same jar finds it there).
     */
    public String readable(Path jar, String tmpdir) {
        if (!otherUser() && !otherMounts()) {
            return jar.toAbsolutePath().toString();
        }
        String in = guarded(tmpdir);
        try {
            return staged(jar, in);
        } catch (IOException | UnsupportedOperationException e) {
            throw cannotPlace(in, e);
        }
    }

    private String staged(Path jar, String tmpdir) throws IOException {
        String name = "loomscope-agent-" + us + "-" + Long.toHexString(crc(jar));
        Path dir = here(tmpdir).resolve(name);
        Path copy = dir.resolve(jar.getFileName());
        if (!ours(dir) || !ours(copy) || Files.size(copy) != Files.size(jar) || crc(copy) != crc(jar)) {
            // not there yet, or not ours to trust: into a directory of our own (a name taken by someone else: a fresh
            // one beside it)
            if (!ours(dir)) {
                try {
                    Files.createDirectory(
                            dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
                } catch (FileAlreadyExistsException taken) {
                    dir = Files.createTempDirectory(
                            here(tmpdir),
                            name + "-",
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
                    name = dir.getFileName().toString();
                }
            }
            copy = dir.resolve(jar.getFileName());
            Path part = Files.createTempFile(dir, "agent", ".part");
            Files.copy(jar, part, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(part, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return (tmpdir.endsWith("/") ? tmpdir : tmpdir + "/") + name + "/" + copy.getFileName();
    }

    /** Whether {@code p} is this user's, no link, and writable by no one else. */
    private boolean ours(Path p) {
        try {
            PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> mode = a.permissions();
            return !a.isSymbolicLink()
                    && (int) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS) == us
                    && !mode.contains(PosixFilePermission.GROUP_WRITE)
                    && !mode.contains(PosixFilePermission.OTHERS_WRITE);
        } catch (IOException | RuntimeException absent) {
            return false;
        }
    }

    private static long crc(Path file) throws IOException {
        CRC32 crc = new CRC32();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] b = new byte[1 << 16];
            for (int n; (n = in.read(b)) > 0; ) {
                crc.update(b, 0, n);
            }
        }
        return crc.getValue();
    }

    /**
     * A directory the process writes into, its user's: {@code here} as this process reaches it, {@code there} as the
     * process names it. What is read back from it is a regular file of that user's, its last name no link (the user
     * could put a link to another file of root's there); closed, the files named in it and the directory are removed,
     * nothing else (never a walk through what its user may have put there).
     *
     * @param owner the process's user, whose files are read
     * @param names the files named in it so far
     */
    public record Exchange(Path here, String there, int owner, List<String> names) implements AutoCloseable {
        /** A file in it: as the process names it. */
        public String there(String name) {
            names.add(name);
            return there + "/" + name;
        }

        /**
         * The file {@code name} the process wrote, opened for reading; a one-line refusal for anything but its user's
         * own file.
         */
        public InputStream open(String name) throws IOException {
            Path p = here.resolve(name);
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                    || owner >= 0 && (int) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS) != owner) {
                throw new BadDataException(p + ": not a file the JVM wrote (a link, or another user's): not read");
            }
            return Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS);
        }

        @Override
        public void close() {
            try {
                for (String name : names) {
                    Files.deleteIfExists(here.resolve(name));
                }
                Files.deleteIfExists(here);
            } catch (IOException | RuntimeException left) {
                // a scratch directory left in a temporary directory is harmless
            }
        }
    }
}
