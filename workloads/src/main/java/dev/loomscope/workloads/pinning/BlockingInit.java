package dev.loomscope.workloads.pinning;

import java.util.concurrent.atomic.AtomicInteger;

/** Blocks in its class initializer; the pinning workload defines it afresh for every task. */
public final class BlockingInit {
    /** Read through the parent loader's copy of this class (the fresh copies read their own). */
    public static final AtomicInteger millis = new AtomicInteger(50);

    static {
        try {
            Thread.sleep(parentMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private BlockingInit() {}

    private static int parentMillis() {
        try {
            ClassLoader parent = BlockingInit.class.getClassLoader().getParent();
            if (parent != null && BlockingInit.class.getClassLoader() != PinningWorkload.class.getClassLoader()) {
                return ((AtomicInteger) Class.forName(BlockingInit.class.getName(), false, parent)
                                .getField("millis")
                                .get(null))
                        .get();
            }
        } catch (ReflectiveOperationException e) {
            // fall back to the default
        }
        return millis.get();
    }
}
