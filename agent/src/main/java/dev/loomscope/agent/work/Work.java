package dev.loomscope.agent.work;

import dev.loomscope.events.WorkEvent;

/**
 * What the instrumented methods call (JDK 21-24, {@link WorkTransformer}): {@link #begin} as a
 * method starts, {@link #end} as it returns or throws. Never throws into the application.
 */
public final class Work {
    private Work() {}

    /** The call's event, begun; null when it cannot be. */
    public static Object begin() {
        try {
            WorkEvent e = new WorkEvent();
            e.begin();
            return e;
        } catch (Throwable t) {
            return null;
        }
    }

    /** Ends and commits the call's event. */
    public static void end(Object call, String method) {
        try {
            if (call instanceof WorkEvent e) {
                e.end();
                if (e.shouldCommit()) {
                    e.method = method;
                    e.commit();
                }
            }
        } catch (Throwable ignored) {
            // the application's call goes on whatever happens here
        }
    }
}
