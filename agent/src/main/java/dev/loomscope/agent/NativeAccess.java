package dev.loomscope.agent;

import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Native access for the agent on JDK 22+ without the JVM's four warning lines in the host's output. The agent calls two
 * restricted methods: getrusage through the FFM linker (the process's context switches) and System.load
 * (async-profiler). All code on the class path, the agent's included, shares one native-access flag (the JVM's
 * ALL-UNNAMED), and the JVM sets that flag at the first restricted call from it, printing the warning once. The agent
 * sets the flag first, as {@code --enable-native-access=ALL-UNNAMED} does, through the JDK's own entry point for that
 * option ({@code JavaLangAccess.addEnableNativeAccessToAllUnnamed}), which it reaches the way Instrumentation allows:
 * the package is exported to a class of the agent's in a class loader of its own (so to no code of the application's).
 * Where the JVM was started with {@code --illegal-native-access} other than warn, or (JDK 22-23) with
 * {@code --enable-native-access} naming modules, the choice is the user's and nothing is changed.
 */
final class NativeAccess {
    private NativeAccess() {}

    /**
     * Enables native access for the class path unless it is enabled or the user chose. Where it cannot (a JDK whose
     * internals differ), the JVM warns at the agent's first restricted call, as it would without this.
     */
    static void enable(Instrumentation inst) {
        int feature = Runtime.version().feature();
        if (feature < 22) {
            return; // nothing is restricted
        }
        try {
            if (enabled()
                    || !chosenByUser(ManagementFactory.getRuntimeMXBean().getInputArguments(), feature)
                            .isEmpty()) {
                return;
            }
            Class<?> grant = new IsolatedLoader("loomscope-native-access").define(NativeAccessGrant.class.getName());
            inst.redefineModule(
                    Object.class.getModule(),
                    Set.of(),
                    Map.of("jdk.internal.access", Set.of(grant.getModule())),
                    Map.of(),
                    Set.of(),
                    Map.of());
            grant.getMethod("run").invoke(null);
        } catch (Throwable t) {
            // the JVM's warning stands
        }
    }

    /** Whether code on the class path may call restricted methods (Module.isNativeAccessEnabled, JDK 22+). */
    private static boolean enabled() throws ReflectiveOperationException {
        return (boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(NativeAccess.class.getModule());
    }

    /** The JVM options by which the user decided about native access themselves; empty when they did not. */
    static List<String> chosenByUser(List<String> jvmOptions, int feature) {
        return jvmOptions.stream()
                .filter(o -> o.startsWith("--illegal-native-access") && !o.equals("--illegal-native-access=warn")
                        || o.startsWith("-Djdk.module.illegal.native.access=") && !o.endsWith("=warn")
                        || feature < 24 && o.startsWith("--enable-native-access"))
                .toList();
    }
}
