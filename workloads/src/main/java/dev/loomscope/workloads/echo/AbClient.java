package dev.loomscope.workloads.echo;

import dev.loomscope.workloads.core.BadArgumentException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Drives the real ApacheBench ({@code ab}, Debian package apache2-utils) against the echo server. */
public final class AbClient {
    private static final Pattern TIME = Pattern.compile("Time taken for tests:\\s+([0-9.]+) seconds");
    private static final Pattern FAILED = Pattern.compile("Failed requests:\\s+(\\d+)");
    private static final Pattern COMPLETE = Pattern.compile("Complete requests:\\s+(\\d+)");

    /** ab's figures: total time, completed requests, p50 and p99 of its "time per request" table. */
    public record Result(double seconds, long complete, double p50Ms, double p99Ms) {}

    private AbClient() {}

    public static boolean available() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (new File(dir, "ab").canExecute()) {
                return true;
            }
        }
        return false;
    }

    public static Result run(int port, int requests, int concurrency, boolean keepAlive)
            throws IOException, InterruptedException {
        if (!available()) {
            throw new BadArgumentException(
                    "--client ab: ab not found on the PATH (install apache2-utils, or use --client builtin)");
        }
        List<String> cmd = new ArrayList<>(
                List.of("ab", "-q", "-n", Integer.toString(requests), "-c", Integer.toString(concurrency)));
        if (keepAlive) {
            cmd.add("-k");
        }
        cmd.add("http://127.0.0.1:" + port + "/echo");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException(
                    "ab failed: " + out.lines().reduce((a, b) -> b).orElse("no output"));
        }
        return parse(out);
    }

    public static Result parse(String out) throws IOException {
        Matcher t = TIME.matcher(out);
        Matcher c = COMPLETE.matcher(out);
        Matcher f = FAILED.matcher(out);
        if (!t.find() || !c.find() || !f.find()) {
            throw new IOException("cannot read ab's output");
        }
        if (Long.parseLong(f.group(1)) > 0) {
            throw new IOException("ab reports " + f.group(1) + " failed requests");
        }
        return new Result(
                Double.parseDouble(t.group(1)), Long.parseLong(c.group(1)), percentile(out, 50), percentile(out, 99));
    }

    private static double percentile(String out, int p) throws IOException {
        Matcher m = Pattern.compile("(?m)^\\s*" + p + "%\\s+(\\d+)").matcher(out);
        if (!m.find()) {
            throw new IOException("ab's output has no " + p + "% line");
        }
        return Double.parseDouble(m.group(1));
    }
}
