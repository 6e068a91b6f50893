package dev.loomscope.recording;

/**
 * Which frames are the JDK's and which the application's, and which of the JDK's are the virtual thread machinery or a
 * spin: the one set of rules the agent's looks and pin trace, the analyzer's pinning groups, CPU profile and
 * {@code watch} use (the application frame is the topmost frame whose class is not the JDK's). Class names are binary
 * names, with dots ({@code java.lang.Thread}) as a stack trace and JFR's API write them, or with slashes
 * ({@code java/lang/Thread}) as a recording's constant pool does: every rule takes both.
 */
public final class JdkFrames {
    private JdkFrames() {}

    private static final String[] JDK = {"java.", "javax.", "jdk.", "sun.", "com.sun."};

    /** The thread group of the virtual thread scheduler's carriers (JDK 21+). */
    public static final String CARRIER_THREAD_GROUP = "CarrierThreads";

    /**
     * Whether {@code className} belongs to the JDK. JNA ({@code com.sun.jna}) is a library of its own in the JDK's
     * namespace: an application's native calls go through it.
     */
    public static boolean isJdk(String className) {
        for (String p : JDK) {
            if (inPackage(className, p)) {
                return !inPackage(className, "com.sun.jna.");
            }
        }
        return false;
    }

    /**
     * The virtual thread machinery: {@code java.lang.VirtualThread} (and its nested classes) and
     * {@code jdk.internal.vm.Continuation}.
     */
    public static boolean isVirtualThreadMachinery(String className) {
        return inPackage(className, "java.lang.VirtualThread") || inPackage(className, "jdk.internal.vm.Continuation");
    }

    /**
     * The scheduler's own code, on a carrier between virtual threads: the virtual thread machinery, or its
     * ForkJoinPool's.
     */
    public static boolean isSchedulerCode(String className) {
        return isVirtualThreadMachinery(className) || inPackage(className, "java.util.concurrent.ForkJoin");
    }

    /**
     * A thread of the virtual thread scheduler, by the class at its stack's root: a ForkJoinPool worker or the JDK's
     * CarrierThread.
     */
    public static boolean isSchedulerWorker(String className) {
        return same(className, "java.util.concurrent.ForkJoinWorkerThread")
                || same(className, "jdk.internal.misc.CarrierThread");
    }

    /**
     * A spin: {@code Thread.yield} (and its native {@code yield0}) or {@code Thread.onSpinWait}, a loop's turn that
     * gives up nothing it waits for.
     */
    public static boolean isSpin(String className, String methodName) {
        return same(className, "java.lang.Thread")
                && (methodName.startsWith("yield") || methodName.equals("onSpinWait"));
    }

    /** {@code name} equals {@code dotted}, written with dots or slashes. */
    private static boolean same(String name, String dotted) {
        return name.length() == dotted.length() && inPackage(name, dotted);
    }

    /**
     * {@code name} begins with {@code dotted}, written with dots or slashes (no copy made: this runs for every frame of
     * every sample).
     */
    private static boolean inPackage(String name, String dotted) {
        if (name.length() < dotted.length()) {
            return false;
        }
        for (int i = 0; i < dotted.length(); i++) {
            char c = name.charAt(i);
            char d = dotted.charAt(i);
            if (c != d && !(d == '.' && c == '/')) {
                return false;
            }
        }
        return true;
    }
}
