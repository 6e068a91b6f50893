package dev.loomscope.analyzer.it;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;

/**
 * A service written without loomscope in mind (no loomscope.WorkloadRun events): {@code requests} requests, each
 * handled by a new thread of the given kind, at most {@code concurrency} at once; a request ({@link #handle}) computes
 * a little and waits {@code waitMs} in synchronized code (where a virtual thread pins on JDK 21-23). Args: KIND
 * REQUESTS CONCURRENCY WAIT_MS.
 */
public final class ServiceApp {
    private static final Object[] LOCKS = new Object[64];

    static {
        for (int i = 0; i < LOCKS.length; i++) {
            LOCKS[i] = new Object();
        }
    }

    private ServiceApp() {}

    public static void main(String[] args) throws Exception {
        ThreadFactory threads = args[0].equals("virtual")
                ? Thread.ofVirtual().factory()
                : Thread.ofPlatform().factory();
        int requests = Integer.parseInt(args[1]);
        Semaphore slots = new Semaphore(Integer.parseInt(args[2]));
        int waitMs = Integer.parseInt(args[3]);
        CountDownLatch done = new CountDownLatch(requests);
        for (int i = 0; i < requests; i++) {
            slots.acquire();
            int id = i;
            threads.newThread(() -> {
                        try {
                            handle(id, waitMs);
                        } finally {
                            slots.release();
                            done.countDown();
                        }
                    })
                    .start();
        }
        done.await();
    }

    /** One request: the unit of work the agent's work= option names. */
    static long handle(int id, int waitMs) {
        long h = id;
        for (int i = 0; i < 20_000; i++) {
            h = h * 31 + i;
        }
        synchronized (LOCKS[id % LOCKS.length]) {
            try {
                Thread.sleep(waitMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return h;
    }
}
