package dev.loomscope.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A known library's version told from where its jar was loaded, as the JVM names the places: a file, a Spring Boot
 * nested jar, a Windows path.
 */
class KnownLibraryTest {
    @Test
    void theVersionComesFromTheJarsNameWhereverItLies() {
        assertThat(KnownLibrary.HIKARICP.versionIn(
                        "file:/home/u/.m2/repository/com/zaxxer/HikariCP/7.0.2/HikariCP-7.0.2.jar"))
                .isEqualTo("7.0.2");
        assertThat(KnownLibrary.HIKARICP.versionIn("jar:nested:/srv/app.jar/!BOOT-INF/lib/HikariCP-6.3.0.jar!/"))
                .isEqualTo("6.3.0");
        assertThat(KnownLibrary.CONNECTOR_J.versionIn("file:/C:/lib/mysql-connector-java-8.0.33.jar"))
                .isEqualTo("8.0.33");
        assertThat(KnownLibrary.CONNECTOR_J.versionIn("file:/opt/app/lib/mysql-connector-j-9.1.0.jar"))
                .isEqualTo("9.1.0");
        // a shaded copy, an unpacked one, a name that only starts like it: not told
        assertThat(KnownLibrary.HIKARICP.versionIn("file:/opt/app/lib/app-all.jar"))
                .isEmpty();
        assertThat(KnownLibrary.HIKARICP.versionIn("file:/opt/app/classes/")).isEmpty();
        assertThat(KnownLibrary.HIKARICP.versionIn("file:/opt/lib/MyHikariCP-7.0.2.jar"))
                .isEmpty();
        assertThat(KnownLibrary.HIKARICP.versionIn("")).isEmpty();
        assertThat(KnownLibrary.byMarker("com/zaxxer/hikari/HikariDataSource")).isEqualTo(KnownLibrary.HIKARICP);
        assertThat(KnownLibrary.byMarker("com/zaxxer/hikari/HikariConfig")).isNull();
        assertThat(KnownLibrary.named("MySQL Connector/J")).isEqualTo(KnownLibrary.CONNECTOR_J);
    }

    @Test
    void versionsCompareByTheirNumbers() {
        assertThat(KnownLibrary.compareVersions("7.0.2", "7.1.0")).isNegative();
        assertThat(KnownLibrary.compareVersions("7.0.10", "7.0.9")).isPositive();
        assertThat(KnownLibrary.compareVersions("9.0.0-rc", "9.0.0")).isZero();
        assertThat(KnownLibrary.compareVersions("26.10.0", "9.0.0")).isPositive();
        assertThat(KnownLibrary.compareVersions("7.1", "7.1.0")).isZero();
    }
}
