package dev.loomscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent and workloads jars on a JVM older than 21 (the machine's default java, when it is one): one line, never a raw error. */
class OldJdkIT {
    static final Path WORKLOADS = Path.of("../workloads/target/loomscope-workloads.jar").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    static Path oldJava;

    @BeforeAll
    static void findOldJava() throws IOException {
        oldJava = olderJdk().orElse(null);
    }

    /** A JDK below 21 among the usual install locations. */
    static Optional<Path> olderJdk() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(jvms)) {
            return s.filter(h -> Files.isExecutable(h.resolve("bin/java")) && Files.isRegularFile(h.resolve("release")))
                    .filter(h -> feature(h) > 0 && feature(h) < 21).map(h -> h.resolve("bin/java")).findFirst();
        }
    }

    static int feature(Path home) {
        try {
            String v = Files.readAllLines(home.resolve("release")).stream().filter(l -> l.startsWith("JAVA_VERSION=")).findFirst().orElse("")
                    .replaceAll("JAVA_VERSION=\"(1\\.)?(\\d+).*", "$2");
            return Integer.parseInt(v);
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    @Test
    void theAgentSaysItNeedsJdk21AndTheAppRunsOn() throws Exception {
        Assumptions.assumeTrue(oldJava != null, "no JDK older than 21 on this machine");
        Path app = Files.writeString(dir.resolve("Hello.java"), "public class Hello { public static void main(String[] a) { System.out.println(\"hello\"); } }");
        ChildJvm.Result r = ChildJvm.exec(List.of(oldJava.toString(), "-javaagent:" + AgentIT.AGENT + "=out=rec", app.toString()), dir, 60);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.stdout()).contains("hello");
        assertThat(r.stderr().strip()).startsWith("loomscope-agent: needs JDK 21 or newer, and this JVM is JDK ")
                .endsWith("; nothing is recorded, the app runs on").doesNotContain("Exception").doesNotContain("Error");
        assertThat(dir.resolve("rec")).doesNotExist();
    }

    @Test
    void theWorkloadsJarSaysItNeedsJdk21AndWhereOneIs() throws Exception {
        Assumptions.assumeTrue(oldJava != null, "no JDK older than 21 on this machine");
        ChildJvm.Result r = ChildJvm.exec(List.of(oldJava.toString(), "-jar", WORKLOADS.toString(), "sleep", "--threads", "virtual"), dir, 60);
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr().strip().lines()).as(r.stderr()).hasSize(1);
        // the launcher's search finds the JDK 21+ these tests run on
        assertThat(r.stderr()).startsWith("loomscope-workloads: needs JDK 21 or newer, and this java is JDK ").contains("the loomscope launcher finds one at ")
                .doesNotContain("UnsupportedClassVersionError");
        ChildJvm.Result help = ChildJvm.exec(List.of(oldJava.toString(), "-jar", AgentIT.AGENT.toString()), dir, 60);
        assertThat(help.exitCode()).isEqualTo(2);
        assertThat(help.stderr()).startsWith("loomscope-agent: needs JDK 21 or newer");
    }
}
