package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI jar on a JVM older than 21 (the machine's default java, when it is one): one line, never
 * UnsupportedClassVersionError.
 */
class OldJdkCliIT {
    @TempDir
    Path dir;

    @Test
    void theCliJarSaysItNeedsJdk21AndWhereOneIs() throws Exception {
        String old = ChildJvm.olderJdk().orElse(null);
        Assumptions.assumeTrue(old != null, "no JDK older than 21 on this machine");
        ChildJvm.Result r = ChildJvm.exec(List.of(old, "-jar", Fixtures.CLI.toString(), "summary", "x.jfr"), dir, 60);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr().strip().lines()).as(r.stderr()).hasSize(1);
        assertThat(r.stderr())
                .startsWith("loomscope: needs JDK 21 or newer, and this java is JDK ")
                .doesNotContain("UnsupportedClassVersionError");
    }
}
