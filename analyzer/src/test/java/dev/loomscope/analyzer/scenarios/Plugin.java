package dev.loomscope.analyzer.scenarios;

/**
 * The class-init scenario's plugin: loaded anew a request in a class loader of its own, its static initializer waits 5
 * ms (reading its configuration, say): a virtual thread there pins its carrier on every JDK.
 */
public final class Plugin {
    /** What the initializer read. */
    public static final long LOADED;

    static {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOADED = System.nanoTime();
    }

    private Plugin() {}
}
