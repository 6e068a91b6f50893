package dev.loomscope.analyzer.it;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * What {@code watch} must see in a running JVM, one way each, until killed: {@code pin} (virtual
 * threads sleeping inside synchronized, which pins on JDK 21-23), {@code spin} (virtual threads
 * on every carrier looping in Thread.yield, as a pool that spins for a free connection does) and
 * {@code pool} (thousands of virtual threads parked on a pool of 16). Prints "ready" once running.
 */
public final class WatchedApp {
    private static final Object LOCK = new Object();
    private static volatile boolean free;

    public static void main(String[] args) throws Exception {
        ExecutorService vts = Executors.newVirtualThreadPerTaskExecutor();
        switch (args[0]) {
            case "pin" -> {
                for (int i = 0; i < 4; i++) {
                    vts.submit(() -> {
                        while (true) {
                            synchronized (LOCK) {
                                Thread.sleep(5);
                            }
                        }
                    });
                }
            }
            case "spin" -> {
                for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
                    vts.submit(WatchedApp::waitForAConnection);
                }
            }
            case "pool" -> {
                Semaphore connections = new Semaphore(16);
                for (int i = 0; i < 3000; i++) {
                    vts.submit(() -> {
                        connections.acquire();
                        try {
                            Thread.sleep(60_000);
                        } finally {
                            connections.release();
                        }
                        return null;
                    });
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Spins until a connection is free, yielding each time round: it never is. */
    static void waitForAConnection() {
        while (!free) {
            Thread.yield();
        }
    }
}
