package dev.loomscope.analyzer.it;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * An app whose platform threads wait in native code: {@code THREADS} of them blocked in socket reads that never return,
 * and one thread computing for {@code SECONDS}, a virtual one with {@code virtual} (Args: THREADS SECONDS [virtual]).
 * What a CPU profile must not count as CPU: JFR's native method samples of the readers; and a carrier that computes.
 */
public final class BlockedIoApp {
    static volatile double sink;

    private BlockedIoApp() {}

    /** The method that burns the CPU: a CPU profile's top frame. */
    static double compute(double x) {
        for (int i = 0; i < 1_000_000; i++) {
            x += Math.sqrt(x + i);
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        long end = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
        try (ServerSocket server = new ServerSocket(0, threads, InetAddress.getLoopbackAddress())) {
            List<Socket> open = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                open.add(client);
                open.add(server.accept()); // never writes: the client's read waits
                Thread.ofPlatform().daemon().name("reader-" + i).start(() -> {
                    try (InputStream in = client.getInputStream()) {
                        in.read();
                    } catch (Exception closed) {
                        // the app ends
                    }
                });
            }
            Runnable computing = () -> {
                double x = 0;
                while (System.nanoTime() < end) {
                    x = compute(x);
                }
                sink = x;
            };
            if (args.length > 2 && args[2].equals("virtual")) {
                Thread.ofVirtual().start(computing).join();
            } else {
                computing.run();
            }
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
