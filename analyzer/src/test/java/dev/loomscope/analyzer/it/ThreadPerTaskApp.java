package dev.loomscope.analyzer.it;

/**
 * A platform thread per task, each allocating {@code BYTES_PER_TASK} and ending: what JFR's allocation sampler misses
 * (threads that end before it sees them) and what wastes the rest of each thread's TLAB. Prints the bytes its tasks
 * allocated.
 */
public final class ThreadPerTaskApp {
    static final int TASKS = 20_000;
    static final int ARRAYS = 10;
    static final int ARRAY = 10_000;
    static volatile Object sink;

    private ThreadPerTaskApp() {}

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < TASKS; i++) {
            Thread t = Thread.ofPlatform().start(() -> {
                for (int k = 0; k < ARRAYS; k++) {
                    sink = new byte[ARRAY];
                }
            });
            t.join();
        }
        System.out.println("allocated by tasks " + (long) TASKS * ARRAYS * ARRAY);
    }
}
