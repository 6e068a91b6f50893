package dev.loomscope.workloads.echo;

import dev.loomscope.options.WorkloadOptions.Echo;
import dev.loomscope.workloads.core.Args;
import dev.loomscope.workloads.core.ThreadKind;
import dev.loomscope.workloads.core.Workload;
import java.util.Locale;

/**
 * The thesis's echo experiment: an HTTP/1.1 echo server with a thread per connection, platform or virtual, under
 * {@code ab -n N -c C [-k]}-style load (built-in client, or the real ab with {@code --client ab}; the built-in client
 * in a JVM of its own with {@code --client process}). One run = N requests; the run's time and per-request latency are
 * recorded.
 *
 * <p>{@code java -jar loomscope-workloads.jar echo --threads virtual|platform [--n 10000] [--c 100] [-k] [--client
 * builtin|ab] [--port 0]}
 */
public final class EchoWorkload implements Workload {
    private final ThreadKind kind;
    private final int n;
    private final int c;
    private final boolean keepAlive;
    private final String client;
    private final EchoServer server;
    private final ClientProcess clientProcess;

    public EchoWorkload(ThreadKind kind, int n, int c, boolean keepAlive, String client, int port) throws Exception {
        this.kind = kind;
        this.n = n;
        this.c = c;
        this.keepAlive = keepAlive;
        this.client = client;
        this.server = new EchoServer(kind, port, Math.max(c * 2, 512));
        this.clientProcess = client.equals("process") ? new ClientProcess() : null;
    }

    public static EchoWorkload of(Args a) throws Exception {
        ThreadKind kind = ThreadKind.of(a);
        int n = a.integer(Echo.N);
        int c = a.integer(Echo.C);
        boolean k = a.flag(Echo.K);
        String client = a.choice(Echo.CLIENT);
        int port = a.integer(Echo.PORT);
        return new EchoWorkload(kind, n, c, k, client, port);
    }

    public int port() {
        return server.port();
    }

    @Override
    public About about() {
        return new About(kind.label(), "requests", "n=" + n + " c=" + c + " k=" + keepAlive + " client=" + client);
    }

    @Override
    public Run run() throws Exception {
        if (client.equals("ab")) {
            AbClient.Result r = AbClient.run(server.port(), n, c, keepAlive);
            return new Run(r.complete(), r.p50Ms(), r.p99Ms(), String.format(Locale.ROOT, "ab: %.3f s", r.seconds()));
        }
        if (clientProcess != null) {
            double[] r = clientProcess.run(server.port(), n, c, keepAlive);
            return new Run((long) r[0], r[2], r[3], null);
        }
        LoadGenerator.Result r = LoadGenerator.run(server.port(), n, c, keepAlive);
        return new Run(r.requests(), r.percentileMs(50), r.percentileMs(99), null);
    }

    @Override
    public long[] helperPids() {
        return clientProcess == null ? new long[0] : new long[] {clientProcess.pid()};
    }

    @Override
    public void close() throws Exception {
        if (clientProcess != null) {
            clientProcess.close();
        }
        server.close();
    }
}
