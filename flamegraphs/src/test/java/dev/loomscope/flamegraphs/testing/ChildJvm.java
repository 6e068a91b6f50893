package dev.loomscope.flamegraphs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;

/** Runs a class of the test class path in a child JVM of the same JDK; used by tests of every module. */
public final class ChildJvm {

    /** What the child did. */
    public record Result(int exitCode, String stdout, String stderr) {}

    private ChildJvm() {}

    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * A JDK 21 {@code java} for the tests that must run there too (where {@code synchronized} still pins):
     * {@code LOOMSCOPE_JDK21} (what {@code .ci/jdk21} prints), else a JDK 21 in /usr/lib/jvm. Absent, those tests are
     * skipped, except under CI ({@code CI} set), where that is a failure: the suite is meant to run on 21 and 25.
     */
    public static Optional<String> jdk21() {
        String given = System.getenv("LOOMSCOPE_JDK21");
        if (given != null && !given.isBlank()) {
            if (!Files.isExecutable(Path.of(given))) {
                throw new IllegalStateException("LOOMSCOPE_JDK21=" + given + ": not an executable java");
            }
            return Optional.of(given);
        }
        Optional<String> installed = installed(feature -> feature == 21);
        if (installed.isEmpty() && System.getenv("CI") != null) {
            throw new IllegalStateException("CI: no JDK 21 (set LOOMSCOPE_JDK21, as .ci/run does with .ci/jdk21)");
        }
        return installed;
    }

    /**
     * A {@code java} of a JDK older than 21 among the usual install locations (the machine's default is one, often).
     */
    public static Optional<String> olderJdk() {
        return installed(feature -> feature > 0 && feature < 21);
    }

    /**
     * The {@code java} of the first JDK in /usr/lib/jvm whose feature version (from its release file) is
     * {@code wanted}.
     */
    private static Optional<String> installed(IntPredicate wanted) {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (var homes = Files.list(jvms)) {
            return homes.filter(h -> Files.isExecutable(h.resolve("bin/java")) && wanted.test(feature(release(h))))
                    .map(h -> h.resolve("bin/java").toString())
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** 8 of "1.8.0_402", 17 of "17.0.2"; 0 when unknown. */
    private static int feature(String version) {
        try {
            return Integer.parseInt(version.replaceAll("^1\\.", "").replaceAll("\\D.*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String release(Path home) {
        try {
            return Files.readAllLines(home.resolve("release")).stream()
                    .filter(l -> l.startsWith("JAVA_VERSION="))
                    .findFirst()
                    .orElse("")
                    .replace("JAVA_VERSION=", "")
                    .replace("\"", "");
        } catch (IOException e) {
            return "";
        }
    }

    /** Runs {@code java jvmArgs -cp <test class path> mainClass args}, at most {@code timeoutSeconds}. */
    public static Result run(
            List<String> jvmArgs, String mainClass, List<String> args, Path workDir, long timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args);
        return exec(cmd, workDir, timeoutSeconds);
    }

    /** Runs any command; the child is killed (and the test fails) past the timeout. */
    public static Result exec(List<String> cmd, Path workDir, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("child", ".out");
        Path err = Files.createTempFile("child", ".err");
        try {
            Process p = new ProcessBuilder(cmd)
                    .directory(workDir.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
                throw new AssertionError("child timed out after " + timeoutSeconds + " s: " + cmd + "\nstderr: "
                        + Files.readString(err));
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * Waits until {@code log}, where {@code child} writes, says {@code text}, the child ends, or {@code seconds} pass;
     * returns whether it said it (the caller's assertions then say what went wrong).
     */
    public static boolean awaitOutput(Process child, Path log, String text, long seconds)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!said(log, text) && child.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        return said(log, text);
    }

    private static boolean said(Path log, String text) throws IOException {
        return Files.exists(log) && Files.readString(log).contains(text);
    }
}
