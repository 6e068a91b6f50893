package dev.loomscope.analyzer.it;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * What {@code watch} must see in a running JVM, one way each, until killed: {@code pin} (virtual threads sleeping
 * inside synchronized, which pins on JDK 21-23), {@code spin} (virtual threads on every carrier looping in
 * Thread.yield, as a pool that spins for a free connection does) and {@code pool} (thousands of virtual threads parked
 * on a pool of 16) and {@code queue} (a virtual thread computing on every carrier while a thousand more a second are
 * started: the scheduler's queue grows), and {@code churn} (pins as {@code pin}, 200 virtual threads started a second
 * and garbage that keeps the collector busy: every figure {@code watch} and {@code summary} both count moves). Prints
 * "ready" once running; runs until killed, or for SECONDS (Args: WHAT [SECONDS]).
 */
public final class WatchedApp {
    private static final Object LOCK = new Object();
    private static volatile boolean free;

    public static void main(String[] args) throws Exception {
        ExecutorService vts = Executors.newVirtualThreadPerTaskExecutor();
        switch (args[0]) {
            case "pin" -> {
                for (int i = 0; i < 4; i++) {
                    vts.submit(WatchedApp::sleepHoldingTheLock);
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
            case "queue" -> {
                for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                    vts.submit(WatchedApp::compute);
                }
                Thread.ofPlatform().daemon().start(() -> {
                    for (int i = 0; i < 200; i++) {
                        for (int j = 0; j < 100; j++) {
                            vts.submit(() -> {
                                Thread.sleep(1);
                                return null;
                            });
                        }
                        if (!pause(100)) {
                            return;
                        }
                    }
                });
            }
            case "churn" -> {
                // one: two would hold both carriers of a 2-CPU machine (one pinned, one blocked entering), and none
                // would start
                vts.submit(WatchedApp::sleepHoldingTheLock);
                Thread.ofPlatform().daemon().start(() -> {
                    byte[][] kept = new byte[64][];
                    for (long i = 0; true; i++) {
                        kept[(int) (i % kept.length)] = new byte[64 * 1024];
                        if (i % 200 == 0) {
                            for (int j = 0; j < 4; j++) {
                                vts.submit(() -> null);
                            }
                            if (!pause(20)) {
                                return;
                            }
                        }
                    }
                });
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("ready");
        System.out.flush();
        if (args.length > 1) {
            Thread.sleep(Long.parseLong(args[1]) * 1000);
            System.exit(0); // a recording started with the JVM is written as it exits
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Sleeps 5 ms at a time inside synchronized, without end: pins its carrier at each sleep on JDK 21-23. */
    static Void sleepHoldingTheLock() throws InterruptedException {
        while (true) {
            synchronized (LOCK) {
                Thread.sleep(5);
            }
        }
    }

    /** Sleeps {@code millis}; false when interrupted. */
    static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /** Computes without end and never blocks: a virtual thread that keeps its carrier. */
    static void compute() {
        long x = 1;
        while (!free) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        System.out.println(x);
    }

    /** Spins until a connection is free, yielding each time round: it never is. */
    static void waitForAConnection() {
        while (!free) {
            Thread.yield();
        }
    }
}
