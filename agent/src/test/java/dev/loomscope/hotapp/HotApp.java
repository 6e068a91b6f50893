package dev.loomscope.hotapp;

/**
 * Fixture app for work= on a hot method: calls {@link #step}, a method far too small to be a unit of work,
 * {@link #CALLS} times in a tight loop. (A package of its own: the agent never changes its own classes,
 * dev.loomscope.agent.)
 */
public final class HotApp {
    public static final long CALLS = 50_000_000;
    static volatile long sink;

    private HotApp() {}

    static long step(long i) {
        return i * 31 + 7;
    }

    public static void main(String[] args) {
        long x = 0;
        for (long i = 0; i < CALLS; i++) {
            x += step(i);
        }
        sink = x;
    }
}
