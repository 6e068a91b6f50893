package dev.loomscope.analyzer.cli;

import dev.loomscope.options.Launch;
import java.util.jar.Attributes;
import picocli.CommandLine.IVersionProvider;

/** Prints the loomscope version and the JDK it runs on. */
public final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {
            "loomscope " + version() + " (commit " + commit() + ")",
            "JDK " + Runtime.version() + " (" + System.getProperty("java.vendor") + ") at "
                    + System.getProperty("java.home"),
        };
    }

    /**
     * The commit the jar was built from, as its manifest says (git's short hash, "-dirty" with uncommitted changes), or
     * "unknown".
     */
    static String commit() {
        Attributes manifest = Launch.manifest();
        String c = manifest == null ? null : manifest.getValue("Loomscope-Commit");
        return c == null || c.isBlank() ? "unknown" : c;
    }

    /** The version from the jar manifest, or "dev" when run from classes. */
    public static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
