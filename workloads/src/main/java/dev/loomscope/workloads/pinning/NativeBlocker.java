package dev.loomscope.workloads.pinning;

/**
 * Blocks inside a native frame: a Java upcall from native code (qsort's comparator through the FFM API). This JDK 21
 * variant cannot (the FFM API is final from JDK 22); the JDK 22+ variant of this class in the multi-release jar does.
 */
final class NativeBlocker {
    private NativeBlocker() {}

    static boolean available() {
        return false;
    }

    static void blockInNativeFrame(Runnable blocking) {
        throw new UnsupportedOperationException("blocking inside a native frame needs JDK 22+ (the FFM API)");
    }
}
