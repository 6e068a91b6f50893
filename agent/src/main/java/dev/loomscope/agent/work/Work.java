package dev.loomscope.agent.work;

/**
 * What the instrumented methods call ({@link WorkTransformer}): {@link #begin} as a method starts, {@link #end} as it
 * returns or throws; the call is counted and, when timed, its duration goes to the method's histogram
 * ({@link WorkWindows}), not to an event of its own. Never throws into the application.
 */
public final class Work {
    /** What {@link #beginOnce} returns for a call inside one already counted with the same request. */
    private static final long NESTED = Long.MIN_VALUE;
    /**
     * The request each thread is in, from {@link #beginOnce} to {@link #endOnce}. A call that ends by an exception from
     * a method it called leaves it set until the thread's next request, which is another object: never a request left
     * uncounted.
     */
    private static final ThreadLocal<Object> REQUEST = new ThreadLocal<>();

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

    /** {@link #begin} for a request passed from handler to handler: counted by the outermost handler only. */
    public static long beginOnce(int id, Object request) {
        try {
            if (request != null && REQUEST.get() == request) {
                return NESTED;
            }
            REQUEST.set(request);
            return WorkWindows.begin(id);
        } catch (Throwable t) {
            return -1;
        }
    }

    /** {@link #end} of a {@link #beginOnce}. */
    public static void endOnce(long start, int id, Object request) {
        if (start == NESTED) {
            return;
        }
        try {
            if (REQUEST.get() == request) {
                REQUEST.remove();
            }
        } catch (Throwable ignored) {
            // as end
        }
        end(start, id);
    }
}
