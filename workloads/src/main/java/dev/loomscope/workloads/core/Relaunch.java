package dev.loomscope.workloads.core;

import dev.loomscope.options.Launch;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Some settings only take effect at JVM start (the virtual-thread scheduler's parallelism): when this JVM lacks them,
 * the same command runs again in a child JVM that has them, with the same JVM options (an agent included), sharing
 * stdout and stderr.
 */
public final class Relaunch {
    private Relaunch() {}

    /** True when every property already has its value in this JVM. */
    public static boolean has(Map<String, String> props) {
        return props.entrySet().stream().allMatch(e -> e.getValue().equals(System.getProperty(e.getKey())));
    }

    /** Runs {@code mainClass args} in a child JVM with {@code props} added; returns its exit code. */
    public static int inChild(Map<String, String> props, String mainClass, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Launch.thisJava());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        props.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args);
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }
}
