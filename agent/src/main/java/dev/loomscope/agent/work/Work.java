package dev.loomscope.agent.work;

/**
 * What the instrumented methods call ({@link WorkTransformer}): {@link #begin} as a method starts,
 * {@link #end} as it returns or throws; the call is counted and, when timed, its duration goes to
 * the method's histogram ({@link WorkWindows}), not to an event of its own. Never throws into the
 * application.
 */
public final class Work {
    private Work() {}

    /** Counts a call of the method numbered {@code id}; returns its start when it is timed, else -1. */
    public static long begin(int id) {
        try {
            return WorkWindows.begin(id);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** Ends the call of the method numbered {@code id} begun at {@code start}. */
    public static void end(long start, int id) {
        if (start < 0) {
            return;
        }
        try {
            WorkWindows.end(start, id);
        } catch (Throwable ignored) {
            // the application's call goes on whatever happens here
        }
    }
}
