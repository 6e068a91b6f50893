package dev.loomscope.analyzer.cli;

import picocli.CommandLine.IVersionProvider;

/** Prints the loomscope version and the JDK it runs on. */
public final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {
            "loomscope " + version(),
            "JDK " + Runtime.version() + " (" + System.getProperty("java.vendor") + ") at "
                    + System.getProperty("java.home"),
        };
    }

    /** The version from the jar manifest, or "dev" when run from classes. */
    public static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
