package dev.loomscope.agent;

/**
 * Defined by {@link NativeAccess} in a class loader of its own, the only code that {@code jdk.internal.access} is
 * exported to: enables native access for the class path as the launcher's {@code --enable-native-access=ALL-UNNAMED}
 * does. Not used from the agent's own loader.
 */
public final class NativeAccessGrant {
    private NativeAccessGrant() {}

    public static void run() throws ReflectiveOperationException {
        Object access = Class.forName("jdk.internal.access.SharedSecrets")
                .getMethod("getJavaLangAccess")
                .invoke(null);
        Class.forName("jdk.internal.access.JavaLangAccess")
                .getMethod("addEnableNativeAccessToAllUnnamed")
                .invoke(access);
    }
}
