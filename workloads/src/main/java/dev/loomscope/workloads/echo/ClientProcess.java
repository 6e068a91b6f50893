package dev.loomscope.workloads.echo;

import dev.loomscope.options.Launch;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The built-in load generator in a JVM of its own ({@code --client process}), as the thesis drove its servers with ab
 * from another process: the server's JVM then counts only the server's context switches, CPU and thread starts, not the
 * client's. The child starts once with the workload, without the agent, and runs one load a line asked on its stdin
 * ({@code run PORT N C KEEPALIVE}), answering {@code done REQUESTS NANOS P50_MS P99_MS}.
 */
final class ClientProcess implements AutoCloseable {
    private final Process process;
    private final Writer in;
    private final BufferedReader out;

    ClientProcess() throws IOException {
        String java = Launch.thisJava();
        process = new ProcessBuilder(
                        List.of(java, "-cp", System.getProperty("java.class.path"), ClientProcess.class.getName()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        process.pid(); // started
        in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    long pid() {
        return process.pid();
    }

    /** One load against the server; what the client measured. */
    double[] run(int port, int requests, int concurrency, boolean keepAlive) throws IOException {
        in.write(String.format(Locale.ROOT, "run %d %d %d %b%n", port, requests, concurrency, keepAlive));
        in.flush();
        String line = out.readLine();
        if (line == null || !line.startsWith("done ")) {
            throw new IOException("the client process " + (line == null ? "ended" : "failed: " + line));
        }
        String[] v = line.split(" ");
        return new double[] {
            Double.parseDouble(v[1]), Double.parseDouble(v[2]), Double.parseDouble(v[3]), Double.parseDouble(v[4])
        };
    }

    @Override
    public void close() throws Exception {
        in.close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** The child: a load a line, until stdin ends. */
    public static void main(String[] args) throws Exception {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream answers = System.out;
        for (String line = commands.readLine(); line != null; line = commands.readLine()) {
            String[] v = line.strip().split(" ");
            try {
                LoadGenerator.Result r = LoadGenerator.run(
                        Integer.parseInt(v[1]),
                        Integer.parseInt(v[2]),
                        Integer.parseInt(v[3]),
                        Boolean.parseBoolean(v[4]));
                answers.printf(
                        Locale.ROOT,
                        "done %d %d %s %s%n",
                        r.requests(),
                        r.nanos(),
                        r.percentileMs(50),
                        r.percentileMs(99));
            } catch (Exception e) {
                answers.println("error " + (e.getMessage() == null ? e.toString() : e.getMessage()).replace('\n', ' '));
            }
            answers.flush();
        }
    }
}
