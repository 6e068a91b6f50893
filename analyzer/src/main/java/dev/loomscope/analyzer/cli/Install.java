package dev.loomscope.analyzer.cli;

import dev.loomscope.options.BadDataException;
import dev.loomscope.options.Launch;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where this loomscope's jars are. Two layouts: an extracted release ({@code bin/loomscope}, {@code lib/NAME.jar}) and
 * a checkout's build ({@code MODULE/target/NAME.jar}); the release's {@code lib/} is looked in first.
 */
enum Install {
    AGENT("agent", "loomscope-agent.jar"),
    WORKLOADS("workloads", "loomscope-workloads.jar");

    private final String module;
    private final String name;

    Install(String module, String name) {
        this.module = module;
        this.name = name;
    }

    /** This jar: in the release's {@code lib/} when it is there, else in the checkout's build. */
    Path jar() {
        Path home = home();
        Path released = home.resolve("lib").resolve(name);
        return (Files.isRegularFile(released)
                        ? released
                        : home.resolve(module).resolve("target").resolve(name))
                .toAbsolutePath();
    }

    /** {@link #jar()}, which must be there. */
    Path required() {
        Path jar = jar();
        if (!Files.isRegularFile(jar)) {
            throw new BadDataException(
                    jar + ": missing (build it with ./mvnw -B package, or run ./loomscope which builds it; from a"
                            + " release, extract its archive again)");
        }
        return jar;
    }

    /**
     * The directory this loomscope is installed in: the launcher's {@code loomscope.home}, else found from where the
     * CLI's jar sits ({@code lib/} of a release, {@code analyzer/target/} of a checkout), else the current directory.
     */
    static Path home() {
        String h = System.getProperty("loomscope.home");
        if (h != null) {
            return Path.of(h);
        }
        try {
            Path dir =
                    Launch.codeSource(Install.class).toPath().toAbsolutePath().getParent();
            if (dir != null
                    && dir.getFileName() != null
                    && dir.getFileName().toString().equals("lib")
                    && dir.getParent() != null) {
                return dir.getParent();
            }
            return Launch.checkout(Install.class).toPath();
        } catch (Exception e) {
            return Path.of(".").toAbsolutePath();
        }
    }
}
