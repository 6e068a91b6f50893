package dev.loomscope.analyzer.watch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The feature version that watch and attach read from a JVM's java.specification.version. */
class RunningJvmTest {
    @Test
    void featureVersionFromTheSpecificationVersion() {
        assertThat(RunningJvm.feature("1.8")).isEqualTo(8);
        assertThat(RunningJvm.feature("17")).isEqualTo(17);
        assertThat(RunningJvm.feature("21")).isEqualTo(21);
        assertThat(RunningJvm.feature("25")).isEqualTo(25);
    }

    @Test
    void noFeatureVersionWhereNoneIsNamed() {
        assertThat(RunningJvm.feature("")).isZero();
        assertThat(RunningJvm.feature("0")).isZero();
        assertThat(RunningJvm.feature("early")).isZero();
        assertThat(RunningJvm.feature("99999999999")).isZero();
    }
}
