package dev.loomscope.analyzer.study;

import dev.loomscope.probes.MachineCpu;
import dev.loomscope.recording.TempFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What starting and joining one thread costs, a platform thread and a virtual one, measured on the JVM the study's
 * workloads run on ({@code --java}: {@code loomscope-workloads.jar thread-start}), never in the CLI's own: it is what a
 * thread-per-request workload pays per request there. Null figures and {@code failure} when it could not be measured.
 */
public record ThreadStartCalibration(
        double platformMicros, double virtualMicros, int jdk, int cpus, double others, double steal, String failure) {

    /** Runs the measurement on {@code java} with the workloads jar; a failure is kept, said in the line, not thrown. */
    public static ThreadStartCalibration measure(Path java, Path workloads) {
        Path log = null;
        try {
            // the output goes to a file, so that the time limit holds even if the JVM never closes its stdout
            log = TempFiles.create("loomscope-thread-start-", ".log");
            Process p = new ProcessBuilder(List.of(java.toString(), "-jar", workloads.toString(), "thread-start"))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            p.getOutputStream().close();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return failed("it took more than 120 s");
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            String line = out.lines()
                    .filter(l -> l.startsWith("thread-start "))
                    .findFirst()
                    .orElse(null);
            if (p.exitValue() != 0 || line == null) {
                return failed("the JVM exited with " + p.exitValue()
                        + (out.isBlank()
                                ? ""
                                : ": " + out.lines().findFirst().orElse("").strip()));
            }
            Map<String, String> v = new HashMap<>();
            for (String kv : line.substring("thread-start ".length()).split(" ")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    v.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            return new ThreadStartCalibration(
                    Double.parseDouble(v.get("platform-us")),
                    Double.parseDouble(v.get("virtual-us")),
                    Integer.parseInt(v.get("jdk")),
                    Integer.parseInt(v.get("cpus")),
                    Double.parseDouble(v.get("others")),
                    Double.parseDouble(v.get("steal")),
                    null);
        } catch (IOException | RuntimeException e) {
            return failed(e.getMessage() == null ? e.toString() : e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed("interrupted");
        } finally {
            if (log != null) {
                TempFiles.delete(log);
            }
        }
    }

    private static ThreadStartCalibration failed(String why) {
        return new ThreadStartCalibration(Double.NaN, Double.NaN, 0, 0, Double.NaN, Double.NaN, why);
    }

    /**
     * The line beside the verdicts, naming the JDK it was measured on; when it failed, when other processes kept the
     * machine busy, or when a virtual thread came out no cheaper than a platform thread (which a quiet machine does not
     * show), it says the figures are not this machine's cost.
     */
    public String line() {
        if (failure != null) {
            return "this machine: thread start not measured on the study's JVM: " + failure;
        }
        double busy = (Double.isNaN(others) ? 0 : others) + (Double.isNaN(steal) ? 0 : steal);
        if (busy > MachineCpu.DISTURBED || !(platformMicros > virtualMicros * 1.5)) {
            // the figures of a disturbed calibration are not shown: they are the other processes' as much as the
            // machine's
            return String.format(
                    Locale.ROOT,
                    "this machine (%d cores, JDK %d): thread start not measured: %s",
                    cpus,
                    jdk,
                    busy > MachineCpu.DISTURBED
                            ? String.format(
                                    Locale.ROOT, "other processes took %.0f%% of the CPU while it ran", 100 * busy)
                            : "a virtual thread came out no cheaper than a platform one, which a quiet machine does not"
                                    + " show: something else ran meanwhile");
        }
        return String.format(
                Locale.ROOT,
                "this machine (%d cores, JDK %d, the JVM the workloads ran on): starting and joining a platform thread"
                        + " takes %.1f µs, a virtual thread %.1f µs (%.0fx): a thread-per-request workload pays this"
                        + " per request, so its platform-vs-virtual gap grows with the first figure; compare results"
                        + " across machines with this line",
                cpus,
                jdk,
                platformMicros,
                virtualMicros,
                platformMicros / virtualMicros);
    }
}
