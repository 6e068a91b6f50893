package dev.loomscope.analyzer.it;

/**
 * An app whose names are an attack on whoever reads its recording: a platform and a virtual thread named by the first
 * argument burn CPU (so the profile's samples carry the names), and a virtual thread pins in a class initializer (so
 * the pinning view and report carry them too); with a second argument, a thread of that name then sleeps that many ms
 * (for thread dumps of it).
 */
public final class HostileApp {
    static volatile double sink;

    static final class Pin {
        static {
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        Runnable burn = () -> {
            long end = System.nanoTime() + 1_500_000_000L;
            double x = 0;
            while (System.nanoTime() < end) {
                x += Math.sqrt(x + 1);
            }
            sink = x;
        };
        Thread p = Thread.ofPlatform().name(name).start(burn);
        Thread v = Thread.ofVirtual().name(name + " (virtual)").start(() -> {
            sink = new Pin().hashCode();
            burn.run();
        });
        p.join();
        v.join();
        if (args.length > 1) { // then a thread of that name sleeps this many ms, for a thread dump of it
            Thread.ofPlatform()
                    .name(name)
                    .start(() -> {
                        try {
                            Thread.sleep(Long.parseLong(args[1]));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    })
                    .join();
        }
    }
}
