package dev.loomscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged job as spark-submit runs it: {@code loomscope-spark.jar} on a class path that has Spark and Hadoop
 * (provided) and nothing else of loomscope's, so every class the job needs from loomscope's modules must be inside the
 * jar.
 */
class SparkJarIT {
    @TempDir
    Path dir;

    @Test
    void theShadedJarRunsTheJobWithSparkAlone() throws Exception {
        Path jar = Path.of("target/loomscope-spark.jar").toAbsolutePath();
        assertThat(jar).exists();
        Path in = Files.createDirectories(dir.resolve("in"));
        for (int i = 0; i < 2; i++) {
            try (Recording r = new Recording()) {
                r.enable("jdk.GarbageCollection");
                r.start();
                System.gc();
                r.stop();
                r.dump(in.resolve("r" + i + ".jfr"));
            }
        }
        List<String> classPath = new ArrayList<>(List.of(jar.toString()));
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            boolean ours = entry.contains("loomscope-") || entry.contains(File.separator + "target" + File.separator);
            if (!ours) {
                classPath.add(entry); // Spark, Hadoop and what they bring: what spark-submit provides
            }
        }
        List<String> cmd = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g"));
        cmd.addAll(List.of(System.getProperty("loomscope.spark.jvm", "").strip().split("\\s+")));
        cmd.addAll(List.of(
                "-Dspark.master=local[1]",
                "-Dspark.ui.enabled=false",
                "-cp",
                String.join(File.pathSeparator, classPath),
                "dev.loomscope.spark.FleetJob",
                in + "/*.jfr",
                dir.resolve("out").toString()));
        Path log = dir.resolve("job.log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(output).isZero();
        assertThat(output)
                .contains("2 recordings exported, 0 in the problems table")
                .doesNotContain("NoClassDefFoundError");
        try (Stream<Path> parts = Files.list(dir.resolve("out/recordings"))) {
            assertThat(parts.filter(f -> f.toString().endsWith(".parquet"))).isNotEmpty();
        }
    }
}
