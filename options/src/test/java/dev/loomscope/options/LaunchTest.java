package dev.loomscope.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The runnable jars' entry: Java 8's and 21's version strings read, the child JVM's java is this JDK's, the checkout
 * found.
 */
class LaunchTest {
    @Test
    void theFeatureOfEitherNumbering() {
        assertThat(Launch.feature("1.8")).isEqualTo(8);
        assertThat(Launch.feature("21")).isEqualTo(21);
        assertThat(Launch.feature("25.0.1")).isEqualTo(25);
    }

    @Test
    void thisJavaRunsAsThisJdk() throws Exception {
        Process p = new ProcessBuilder(Launch.thisJava(), "-XshowSettings:properties", "-version")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(out).contains("java.home = " + System.getProperty("java.home"));
    }

    @Test
    void theCheckoutIsWhereTheLauncherIs() throws Exception {
        // this class runs from options/target/classes (or the module's jar beside it): three levels below the checkout
        assertThat(new File(Launch.checkout(Launch.class), ".mvn/find-jdk.sh")).isFile();
        assertThat(new File(Launch.checkout(Launch.class), "loomscope")).isFile();
    }
}
