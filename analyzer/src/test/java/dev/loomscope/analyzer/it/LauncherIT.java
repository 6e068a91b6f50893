package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./loomscope} launcher on a checkout built by Maven alone: the jars in place, no
 * {@code target} directory at the root (where the launcher keeps the CLI's class-data archive).
 */
class LauncherIT {
    @TempDir
    Path dir;

    @Test
    void aCheckoutWithoutARootTargetDirectoryRunsAndExitsZero() throws Exception {
        Path root = dir.resolve("checkout");
        Files.createDirectories(root.resolve(".mvn"));
        Files.copy(Fixtures.ROOT.resolve("loomscope"), root.resolve("loomscope"));
        Files.copy(Fixtures.ROOT.resolve(".mvn/find-jdk.sh"), root.resolve(".mvn/find-jdk.sh"));
        for (String jar : List.of("analyzer/target/loomscope.jar", "agent/target/loomscope-agent.jar", "workloads/target/loomscope-workloads.jar")) {
            Files.createDirectories(root.resolve(jar).getParent());
            Files.createSymbolicLink(root.resolve(jar), Fixtures.ROOT.resolve(jar));
        }
        for (int run = 1; run <= 2; run++) { // the first run writes the archive at its exit, the second reads it
            ChildJvm.Result r = ChildJvm.exec(List.of("sh", root.resolve("loomscope").toString(), "--version"), dir, 120);
            assertThat(r.exitCode()).as("run " + run + ": " + r).isZero();
            assertThat(r.stdout()).startsWith("loomscope ");
            assertThat(r.stderr()).as("run " + run).doesNotContain("Error occurred during initialization of VM");
        }
        assertThat(root.resolve("target/loomscope-cli.jsa")).isRegularFile();
    }
}
