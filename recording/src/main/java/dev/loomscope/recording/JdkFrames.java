package dev.loomscope.recording;

/**
 * Which frames are the JDK's and which the application's: the one rule the agent's pinned-thread
 * trace and the analyzer's pinning groups both use (the application frame is the topmost frame
 * whose class is not the JDK's).
 */
public final class JdkFrames {
    private JdkFrames() {}

    /**
     * Whether {@code className} (binary name, with dots) belongs to the JDK. JNA ({@code com.sun.jna})
     * is a library of its own in the JDK's namespace: an application's native calls go through it.
     */
    public static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.") || className.startsWith("sun.")
                || className.startsWith("com.sun.") && !className.startsWith("com.sun.jna.");
    }
}
