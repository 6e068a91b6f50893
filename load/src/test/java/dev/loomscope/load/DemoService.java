package dev.loomscope.load;

import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * A small real service on Jetty, run both ways by the study's tests: {@code /io} waits 20 ms as a call to a remote
 * service would, {@code /legacy} holds one of 64 monitors around a 10 ms wait, as old client libraries do (on JDK 21 a
 * virtual thread pins its carrier there), {@code /} answers at once, {@code /held} how many {@code /legacy} requests
 * held their monitor and for how long in all, measured inside it ("count nanos"). {@code --threads platform} serves on
 * 200 pooled platform threads, {@code virtual} on a virtual thread a request (Jetty's selector and acceptor on platform
 * threads, as in production).
 */
public final class DemoService {
    private static final Object[] LOCKS = new Object[64];
    /**
     * The /legacy requests that held a monitor, and their time held (ns): the known answer /held gives, as "count
     * nanos".
     */
    private static final LongAdder HELD = new LongAdder();

    private static final LongAdder HELD_NANOS = new LongAdder();

    static {
        for (int i = 0; i < LOCKS.length; i++) {
            LOCKS[i] = new Object();
        }
    }

    private DemoService() {}

    public static void main(String[] args) throws Exception {
        int port = 8080;
        String threads = "platform";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--threads" -> threads = args[i + 1];
                default ->
                    throw new IllegalArgumentException(
                            "unknown option " + args[i] + " (use --port N --threads platform|virtual)");
            }
        }
        ThreadPool pool = switch (threads) {
            case "platform" -> new QueuedThreadPool(200, 8);
            case "virtual" -> {
                // as Jetty runs virtual threads in production: the selector and acceptor on platform threads, each
                // request on a virtual thread
                QueuedThreadPool virtual = new QueuedThreadPool(200, 8);
                virtual.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
                yield virtual;
            }
            default -> throw new IllegalArgumentException("--threads " + threads + ": platform or virtual");
        };
        Server server = new Server(pool);
        ServerConnector http = new ServerConnector(server);
        http.setPort(port);
        http.setAcceptQueueSize(1024);
        server.addConnector(http);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = Request.getPathInContext(request);
                switch (path) {
                    case "/io" -> Thread.sleep(20);
                    case "/legacy" -> {
                        synchronized (LOCKS[ThreadLocalRandom.current().nextInt(LOCKS.length)]) {
                            long entered = System.nanoTime();
                            Thread.sleep(10);
                            HELD_NANOS.add(System.nanoTime() - entered);
                            HELD.increment();
                        }
                    }
                    default -> {}
                }
                response.getHeaders().put("Content-Type", "text/plain");
                String answer = path.equals("/held")
                        ? HELD.sum() + " " + HELD_NANOS.sum()
                        : path + " on " + Thread.currentThread();
                Content.Sink.write(response, true, answer + "\n", callback);
                return true;
            }
        });
        server.setStopAtShutdown(true);
        server.start();
        server.join();
    }
}
