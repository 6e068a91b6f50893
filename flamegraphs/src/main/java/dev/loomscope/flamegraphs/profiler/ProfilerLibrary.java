package dev.loomscope.flamegraphs.profiler;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Properties;
import java.util.jar.JarFile;

/**
 * Finds the official async-profiler jar, extracts its native library for this platform once per version into a private
 * directory, and loads it through an isolated class loader.
 *
 * <p>The jar is either nested in the agent jar (resource {@value #NESTED_JAR}) or on the class path. The class loader
 * is isolated so that an application that brings its own async-profiler classes never clashes with ours; the JNI
 * methods of {@code one.profiler.AsyncProfiler} are bound by that exact name, which is why the class cannot be
 * relocated.
 */
public final class ProfilerLibrary {
    static final String NESTED_JAR = "loomscope/async-profiler.jar";
    private static final String PROFILER_CLASS = "one.profiler.AsyncProfiler";
    private static final String POM_PROPERTIES = "META-INF/maven/tools.profiler/async-profiler/pom.properties";

    /** A native library binds to one class loader per process: keep the first one loaded. */
    private static AsyncProfilerHandle loaded;

    private ProfilerLibrary() {}

    /**
     * Loads async-profiler (once per process).
     *
     * @param libDir directory to extract into, or null for the default private cache directory
     */
    public static synchronized AsyncProfilerHandle load(Path libDir) throws ProfilerUnavailableException {
        if (loaded != null) {
            return loaded;
        }
        Platform platform = Platform.current();
        Path dir = libDir != null ? libDir : defaultDirectory();
        Path jar = locateJar(dir);
        String version = versionOf(jar);
        Path versionDir = dir.resolve("async-profiler-" + version);
        Path lib = versionDir.resolve(platform.libraryEntry());
        try {
            if (!Files.isRegularFile(lib)) {
                extract(jar, platform.libraryEntry(), lib);
            }
        } catch (IOException e) {
            throw new ProfilerUnavailableException(
                    "cannot extract async-profiler to " + lib + ": " + e.getMessage()
                            + " (choose another directory with libdir=...)",
                    e);
        }
        try {
            URLClassLoader loader = new URLClassLoader(
                    "loomscope-async-profiler", new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Class<?> cls = Class.forName(PROFILER_CLASS, true, loader);
            Object instance = cls.getMethod("getInstance", String.class).invoke(null, lib.toString());
            Method execute = cls.getMethod("execute", String.class);
            loaded = new AsyncProfilerHandle(instance, execute, version, lib);
            return loaded;
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            String why = cause.getMessage() == null ? cause.toString() : cause.getMessage();
            String hint = why.contains("failed to map segment") || why.contains("operation not permitted")
                    ? " (is " + dir + " on a noexec file system? choose another directory with libdir=...)"
                    : "";
            throw new ProfilerUnavailableException("cannot load " + lib + ": " + why + hint, cause);
        } catch (ReflectiveOperationException | IOException | LinkageError e) {
            throw new ProfilerUnavailableException("cannot load async-profiler from " + jar + ": " + e, e);
        }
    }

    /** {@code $XDG_CACHE_HOME/loomscope}, else {@code ~/.cache/loomscope}, else a temp directory. */
    static Path defaultDirectory() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        String home = System.getProperty("user.home");
        Path base = xdg != null && !xdg.isBlank()
                ? Path.of(xdg)
                : home != null && !home.isBlank() && !home.equals("?")
                        ? Path.of(home, ".cache")
                        : Path.of(System.getProperty("java.io.tmpdir"), "loomscope-" + System.getProperty("user.name"));
        return base.resolve("loomscope");
    }

    /** The async-profiler jar: nested in ours (copied out once) or on the class path. */
    static Path locateJar(Path dir) throws ProfilerUnavailableException {
        ClassLoader cl = ProfilerLibrary.class.getClassLoader();
        URL nested = cl.getResource(NESTED_JAR);
        if (nested != null) {
            try (InputStream in = nested.openStream()) {
                byte[] bytes = in.readAllBytes();
                Path jar = dir.resolve("async-profiler-" + Integer.toHexString(Arrays.hashCode(bytes)) + ".jar");
                if (!Files.isRegularFile(jar) || Files.size(jar) != bytes.length) {
                    writeAtomically(jar, bytes);
                }
                return jar;
            } catch (IOException e) {
                throw new ProfilerUnavailableException(
                        "cannot copy async-profiler into " + dir + ": " + e.getMessage()
                                + " (choose another directory with libdir=...)",
                        e);
            }
        }
        URL cls = cl.getResource(PROFILER_CLASS.replace('.', '/') + ".class");
        if (cls != null && cls.getProtocol().equals("jar")) {
            String s = cls.toString();
            try {
                return Path.of(new URL(s.substring(4, s.indexOf("!/"))).toURI());
            } catch (IOException | URISyntaxException e) {
                throw new ProfilerUnavailableException("cannot locate async-profiler jar at " + s, e);
            }
        }
        throw new ProfilerUnavailableException("the async-profiler jar is neither bundled nor on the class path");
    }

    static String versionOf(Path jar) throws ProfilerUnavailableException {
        try (JarFile jf = new JarFile(jar.toFile())) {
            var entry = jf.getEntry(POM_PROPERTIES);
            if (entry != null) {
                Properties p = new Properties();
                try (InputStream in = jf.getInputStream(entry)) {
                    p.load(in);
                }
                return p.getProperty("version", "unknown");
            }
            return "unknown";
        } catch (IOException e) {
            throw new ProfilerUnavailableException("cannot read " + jar + ": " + e.getMessage(), e);
        }
    }

    private static void extract(Path jar, String entryName, Path target) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile())) {
            var entry = jf.getEntry(entryName);
            if (entry == null) {
                throw new IOException(jar + " has no " + entryName);
            }
            try (InputStream in = jf.getInputStream(entry)) {
                writeAtomically(target, in.readAllBytes());
            }
        }
    }

    /** Writes to a unique temporary name, then renames: concurrent JVMs never see half a file. */
    private static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path dir = target.getParent();
        Files.createDirectories(dir);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            try {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            } catch (IOException ignored) {
                // a shared directory owned by someone else: the file itself is still ours
            }
        }
        Path tmp = Files.createTempFile(dir, target.getFileName().toString(), ".part");
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
