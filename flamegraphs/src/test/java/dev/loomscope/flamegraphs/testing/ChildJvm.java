package dev.loomscope.flamegraphs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a class of the test class path in a child JVM of the same JDK; used by tests of every module. */
public final class ChildJvm {

    /** What the child did. */
    public record Result(int exitCode, String stdout, String stderr) {}

    private ChildJvm() {}

    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code java jvmArgs -cp <test class path> mainClass args}, at most {@code timeoutSeconds}. */
    public static Result run(List<String> jvmArgs, String mainClass, List<String> args, Path workDir, long timeoutSeconds)
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
    public static Result exec(List<String> cmd, Path workDir, long timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("child", ".out");
        Path err = Files.createTempFile("child", ".err");
        try {
            Process p = new ProcessBuilder(cmd).directory(workDir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
                throw new AssertionError("child timed out after " + timeoutSeconds + " s: " + cmd
                        + "\nstderr: " + Files.readString(err));
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
