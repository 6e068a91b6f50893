package dev.loomscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent and workloads jars on a JVM older than 21 (the machine's default java, when it is one): one line, never a
 * raw error.
 */
class OldJdkIT {
    static final Path WORKLOADS = Path.of("../workloads/target/loomscope-workloads.jar")
            .toAbsolutePath()
            .normalize();

    @TempDir
    Path dir;

    static Path oldJava;

    @BeforeAll
    static void findOldJava() {
        oldJava = ChildJvm.olderJdk().map(Path::of).orElse(null);
    }

    @Test
    void theAgentSaysItNeedsJdk21AndTheAppRunsOn() throws Exception {
        Assumptions.assumeTrue(oldJava != null, "no JDK older than 21 on this machine");
        Path app = Files.writeString(
                dir.resolve("Hello.java"),
                "public class Hello { public static void main(String[] a) { System.out.println(\"hello\"); } }");
        ChildJvm.Result r = ChildJvm.exec(
                List.of(oldJava.toString(), "-javaagent:" + AgentIT.AGENT + "=out=rec", app.toString()), dir, 60);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).contains("hello");
        assertThat(r.stderr().strip())
                .startsWith("loomscope-agent: needs JDK 21 or newer, and this JVM is JDK ")
                .endsWith("; nothing is recorded, the app runs on")
                .doesNotContain("Exception")
                .doesNotContain("Error");
        assertThat(dir.resolve("rec")).doesNotExist();
    }

    @Test
    void theWorkloadsJarSaysItNeedsJdk21AndWhereOneIs() throws Exception {
        Assumptions.assumeTrue(oldJava != null, "no JDK older than 21 on this machine");
        ChildJvm.Result r = ChildJvm.exec(
                List.of(oldJava.toString(), "-jar", WORKLOADS.toString(), "sleep", "--threads", "virtual"), dir, 60);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr().strip().lines()).as(r.stderr()).hasSize(1);
        // the launcher's search finds the JDK 21+ these tests run on
        assertThat(r.stderr())
                .startsWith("loomscope-workloads: needs JDK 21 or newer, and this java is JDK ")
                .contains("the loomscope launcher finds one at ")
                .doesNotContain("UnsupportedClassVersionError");
        ChildJvm.Result help = ChildJvm.exec(List.of(oldJava.toString(), "-jar", AgentIT.AGENT.toString()), dir, 60);
        assertThat(help.exitCode()).isEqualTo(2);
        assertThat(help.stderr()).startsWith("loomscope-agent: needs JDK 21 or newer");
    }
}
