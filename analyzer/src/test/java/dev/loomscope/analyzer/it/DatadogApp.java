package dev.loomscope.analyzer.it;

import com.datadoghq.profiler.JavaProfiler;

/**
 * Records itself with Datadog's Java profiler (ddprof: CPU and wall-clock samples, its own JFR writer) into the file
 * its first argument names, while four virtual threads and the main thread compute for two seconds.
 */
public final class DatadogApp {
    static volatile double sink;

    private DatadogApp() {}

    public static void main(String[] args) throws Exception {
        JavaProfiler profiler = JavaProfiler.getInstance();
        profiler.execute("start,cpu=10ms,wall=10ms,file=" + args[0]);
        long end = System.nanoTime() + 2_000_000_000L;
        Thread[] threads = new Thread[4];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = Thread.ofVirtual().start(() -> spin(end));
        }
        spin(end);
        for (Thread t : threads) {
            t.join();
        }
        profiler.stop();
    }

    static void spin(long end) {
        double x = 0;
        while (System.nanoTime() < end) {
            x += Math.sqrt(x + 1);
        }
        sink = x;
    }
}
