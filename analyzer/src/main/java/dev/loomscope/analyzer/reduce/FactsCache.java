package dev.loomscope.analyzer.reduce;

import dev.loomscope.options.Launch;
import dev.loomscope.recording.RecordingSource;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.io.Serializable;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * What one pass over a large recording learned, kept in the user's cache directory so that the next command on the same
 * file (summary, then pinning, gc, advise) answers without reading it again. An entry is keyed by the recording's path,
 * its files' sizes and times and checksums of their first and last 8 KiB (a changed file's new entry replaces its old
 * one), and by this build of loomscope (its version and the size and time of its code): a changed file or another build
 * never reads an old answer. Only recordings of at least {@link #MIN_BYTES} are kept (a smaller one is read about as
 * fast as its entry), the directory at most {@link #MAX_BYTES} (the entries used longest ago go first). An entry that
 * cannot be read is a miss; one that cannot be written, no entry. {@code --no-cache} or {@code LOOMSCOPE_CACHE=off}
 * turns it off; {@code LOOMSCOPE_CACHE=DIR} moves it.
 */
public final class FactsCache {
    /** Recordings smaller than this are read, not kept. */
    public static final long MIN_BYTES = 32L << 20;
    /** The most the entries may hold together. */
    public static final long MAX_BYTES = 512L << 20;

    private static final int EDGE = 8 << 10;
    private static final String SUFFIX = ".facts";
    /** An entry being written, moved to its name once whole. */
    private static final String PART = ".part";
    /**
     * What an entry may hold: loomscope's classes, the JDK's collections and values, histograms; nothing else is made.
     * Made when an entry is read: making a filter loads the JDK's security properties and a logger, which a command
     * that reads no entry (files under {@link #MIN_BYTES}) need not wait for.
     */
    private static ObjectInputFilter allowed() {
        return ObjectInputFilter.Config.createFilter(
                "maxdepth=64;maxarray=100000000;dev.loomscope.**;java.lang.*;java.util.*;java.time.*;"
                        + "org.HdrHistogram.*;!*");
    }

    /** No cache: every recording is read. */
    public static final FactsCache OFF = new FactsCache(null, 0, 0);

    private final Path dir;
    private final long minBytes;
    private final long maxBytes;

    /**
     * The cache in {@code dir} (null: none), of recordings of {@code minBytes} or more, its entries {@code maxBytes} at
     * most together.
     */
    FactsCache(Path dir, long minBytes, long maxBytes) {
        this.dir = dir;
        this.minBytes = minBytes;
        this.maxBytes = maxBytes;
    }

    /** The cache in {@code dir}. */
    public static FactsCache in(Path dir) {
        return new FactsCache(dir, MIN_BYTES, MAX_BYTES);
    }

    /**
     * The user's cache: {@code LOOMSCOPE_CACHE} (a directory, or {@code off}), else
     * {@code $XDG_CACHE_HOME/loomscope/facts}, else {@code ~/.cache/loomscope/facts}; off when {@code off} (the
     * command's {@code --no-cache}).
     */
    public static FactsCache forUser(boolean off) {
        String set = System.getenv("LOOMSCOPE_CACHE");
        if (off || "off".equals(set)) {
            return OFF;
        }
        if (set != null && !set.isBlank()) {
            return in(Path.of(set));
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return in(base.resolve("loomscope").resolve("facts"));
    }

    /**
     * The facts of {@code source}: its entry when there is a current one, else {@code read}'s, kept when the recording
     * is large.
     */
    public RecordingFacts facts(RecordingSource source, Function<RecordingSource, RecordingFacts> read) {
        String key = dir == null ? null : key(source);
        if (key == null) {
            return read.apply(source);
        }
        Path entry = dir.resolve(key + SUFFIX);
        RecordingFacts kept = load(entry, source);
        if (kept != null) {
            return kept;
        }
        RecordingFacts facts = read.apply(source);
        store(entry, facts);
        return facts;
    }

    /**
     * An entry's name for {@code source}: its path's checksum, then one of everything else the key holds (two CRCs of
     * different polynomials: 64 bits, where a few hundred entries at most are kept; a digest's provider took longer to
     * load than the rest of the answer); null when it is not kept (too small, or its files cannot be looked at).
     */
    private String key(RecordingSource source) {
        try {
            List<Path> parts = source.parts();
            long[] sizes = new long[parts.size()];
            long bytes = 0;
            for (int i = 0; i < sizes.length; i++) {
                if (!Files.isRegularFile(parts.get(i))) {
                    return null;
                }
                sizes[i] = Files.size(parts.get(i));
                bytes += sizes[i];
            }
            if (bytes < minBytes || Build.ID == null) {
                return null; // the common case, decided before anything is read
            }
            CRC32C a = new CRC32C();
            CRC32 b = new CRC32();
            feed(Build.ID.getBytes(StandardCharsets.UTF_8), a, b);
            for (int i = 0; i < sizes.length; i++) {
                Path p = parts.get(i);
                feed(
                        (p.toAbsolutePath() + "\0" + sizes[i] + "\0"
                                        + Files.getLastModifiedTime(p).toMillis())
                                .getBytes(StandardCharsets.UTF_8),
                        a,
                        b);
                edges(p, sizes[i], a, b);
            }
            CRC32C path = new CRC32C();
            path.update(source.name().toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
            return String.format("%08x-%08x%08x", path.getValue(), a.getValue(), b.getValue());
        } catch (IOException e) {
            return null;
        }
    }

    private static void feed(byte[] data, Checksum... into) {
        for (Checksum c : into) {
            c.update(data, 0, data.length);
        }
    }

    /** Feeds the first and last 8 KiB of the file to {@code into}. */
    private static void edges(Path p, long size, Checksum... into) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
            byte[] head = new byte[(int) Math.min(EDGE, size)];
            f.readFully(head);
            feed(head, into);
            if (size > EDGE) {
                f.seek(Math.max(EDGE, size - EDGE));
                byte[] tail = new byte[(int) (size - Math.max(EDGE, size - EDGE))];
                f.readFully(tail);
                feed(tail, into);
            }
        }
    }

    /**
     * This build of loomscope, found once: its version and where its code is, with that file's size and time; null when
     * that cannot be told.
     */
    private static final class Build {
        static final String ID = id();

        private static String id() {
            try {
                Path code = Launch.codeSource(FactsCache.class).toPath();
                return FactsCache.class.getPackage().getImplementationVersion() + "\0" + code + "\0" + Files.size(code)
                        + "\0" + Files.getLastModifiedTime(code).toMillis();
            } catch (URISyntaxException | IOException | RuntimeException e) {
                return null; // no key without it: nothing is kept
            }
        }
    }

    /**
     * What an entry holds: every reducer's results and the warnings of the pass. A class, not a record: a record is
     * made again through method handles built at its first use, which cost a start-up more than the rest of the entry.
     */
    static final class Stored implements Serializable {
        final SummaryReducer summary;
        final PinningReducer pinning;
        final GcReducer gc;
        final HeapReducer heap;
        final ContextSwitchReducer ctxsw;
        final RunsReducer runs;
        final SettingsReducer settings;
        final SchedulerReducer scheduler;
        final WorkReducer work;
        final HeldMonitorReducer held;
        final List<String> warnings;

        Stored(RecordingFacts f) {
            summary = f.summary;
            pinning = f.pinning;
            gc = f.gc;
            heap = f.heap;
            ctxsw = f.ctxsw;
            runs = f.runs;
            settings = f.settings;
            scheduler = f.scheduler;
            work = f.work;
            held = f.held;
            warnings = List.copyOf(f.warnings);
        }
    }

    private static RecordingFacts load(Path entry, RecordingSource source) {
        if (!Files.isRegularFile(entry)) {
            return null;
        }
        try (InputStream in = Files.newInputStream(entry);
                ObjectInputStream o = new ObjectInputStream(new BufferedInputStream(in, 1 << 16))) {
            o.setObjectInputFilter(allowed());
            Stored s = (Stored) o.readObject();
            // used now: the last to go
            Files.setLastModifiedTime(entry, FileTime.fromMillis(System.currentTimeMillis()));
            return RecordingFacts.of(source, s);
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            try {
                Files.deleteIfExists(entry); // a damaged or foreign entry: read the recording, and keep it anew
            } catch (IOException ignored) {
                // left as it is
            }
            return null;
        }
    }

    private void store(Path entry, RecordingFacts facts) {
        if (facts.flames != null) {
            return; // facts read for a report's flame graphs hold samples: not what the other commands read
        }
        Path tmp = null;
        try {
            if (!Files.isDirectory(dir)) {
                // the facts name threads, frames and paths: the owner's alone, as each entry is (a temporary file's
                // permissions)
                Files.createDirectories(
                        dir,
                        dir.getFileSystem().supportedFileAttributeViews().contains("posix")
                                ? new FileAttribute<?>[] {
                                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))
                                }
                                : new FileAttribute<?>[0]);
            }
            tmp = Files.createTempFile(dir, "entry", PART);
            try (OutputStream out = Files.newOutputStream(tmp);
                    ObjectOutputStream o = new ObjectOutputStream(new BufferedOutputStream(out, 1 << 16))) {
                o.writeObject(facts.stored());
            }
            Files.move(tmp, entry, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            trim(entry);
        } catch (IOException | RuntimeException e) {
            try {
                if (tmp != null) {
                    Files.deleteIfExists(tmp);
                }
            } catch (IOException ignored) {
                // left as it is
            }
        }
    }

    /**
     * Removes the entries of the same recording as {@code kept} made before it (the file changed since), then those
     * used longest ago until what is left holds at most {@code maxBytes}; and what a write cut short left
     * ({@code .part} files a minute old: a write takes milliseconds).
     */
    private void trim(Path kept) throws IOException {
        String name = kept.getFileName().toString();
        String recording = name.substring(0, name.indexOf('-') + 1);
        List<Path> entries;
        List<Path> parts;
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> all = s.toList();
            entries = new ArrayList<>(all.stream()
                    .filter(p -> p.getFileName().toString().endsWith(SUFFIX))
                    .toList());
            parts = all.stream()
                    .filter(p -> p.getFileName().toString().endsWith(PART))
                    .toList();
        }
        long cutShort = System.currentTimeMillis() - 60_000;
        for (Path p : parts) {
            if (modified(p).toMillis() < cutShort) {
                Files.deleteIfExists(p);
            }
        }
        for (Path p : List.copyOf(entries)) {
            if (!p.equals(kept) && p.getFileName().toString().startsWith(recording)) {
                Files.deleteIfExists(p);
                entries.remove(p);
            }
        }
        entries.sort(Comparator.comparing(FactsCache::modified).reversed());
        long total = 0;
        for (Path p : entries) {
            total += Files.size(p);
            if (total > maxBytes) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
