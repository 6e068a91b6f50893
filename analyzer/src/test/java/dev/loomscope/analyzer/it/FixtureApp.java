package dev.loomscope.analyzer.it;

import java.util.ArrayList;
import java.util.List;

/**
 * Fixture with known truth for the analyzer tests: {@code pins} virtual threads each pin once for 40 ms (blocking in a
 * class initializer, which pins on every JDK), {@code gcs} System.gc() calls, then some CPU; with "wait" it then waits
 * to be killed.
 */
public final class FixtureApp {
    static volatile Object sink;

    static final class P1 {
        static {
            pause();
        }
    }

    static final class P2 {
        static {
            pause();
        }
    }

    static final class P3 {
        static {
            pause();
        }
    }

    static final class P4 {
        static {
            pause();
        }
    }

    static final class P5 {
        static {
            pause();
        }
    }

    static void pause() {
        try {
            Thread.sleep(40);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws Exception {
        int pins = Integer.parseInt(args[0]);
        int gcs = Integer.parseInt(args[1]);
        boolean wait = args.length > 2 && args[2].equals("wait");
        List<Runnable> inits = List.of(
                () -> sink = new P1(),
                () -> sink = new P2(),
                () -> sink = new P3(),
                () -> sink = new P4(),
                () -> sink = new P5());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < pins; i++) {
            threads.add(Thread.ofVirtual().start(inits.get(i)));
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < gcs; i++) {
            sink = new byte[1 << 20];
            System.gc();
        }
        long end = System.nanoTime() + 800_000_000L;
        double x = 0;
        while (System.nanoTime() < end) {
            x += Math.sqrt(x + 1);
        }
        sink = x;
        if (wait) {
            System.out.println("waiting");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }
}
