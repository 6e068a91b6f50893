package dev.loomscope.release;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * A small HTTP service: every request sleeps 2 ms and answers "ok". {@code --port N} (0: any free port, printed as
 * "port N"), {@code --threads platform|virtual}.
 */
public final class Service {
    private Service() {}

    public static void main(String[] args) throws IOException {
        int port = 0;
        boolean virtual = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--threads" -> virtual = args[i + 1].equals("virtual");
                default -> throw new IllegalArgumentException(args[i] + ": not an option (--port, --threads)");
            }
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("localhost", port), 200);
        server.setExecutor(virtual ? Executors.newVirtualThreadPerTaskExecutor() : Executors.newFixedThreadPool(50));
        byte[] ok = "ok\n".getBytes(StandardCharsets.UTF_8);
        server.createContext("/", exchange -> {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(200, ok.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(ok);
            }
        });
        server.start();
        System.out.println("port " + server.getAddress().getPort());
        System.out.flush();
    }
}
