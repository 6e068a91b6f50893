package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./loomscope} launcher on a checkout built by Maven alone: the jars in place, no {@code target} directory
 * at the root (where the launcher keeps the CLI's class-data archive, made by the first command that reads a recording
 * and made again when the jar is newer).
 */
class LauncherIT {
    @TempDir
    Path dir;

    /** The launcher and the built jars, alone in a checkout of their own. */
    private Path checkout() throws IOException {
        Path root = dir.resolve("checkout");
        Files.createDirectories(root.resolve(".mvn"));
        Files.copy(Fixtures.ROOT.resolve("loomscope"), root.resolve("loomscope"));
        Files.copy(Fixtures.ROOT.resolve(".mvn/find-jdk.sh"), root.resolve(".mvn/find-jdk.sh"));
        for (String jar : List.of(
                "analyzer/target/loomscope.jar",
                "agent/target/loomscope-agent.jar",
                "workloads/target/loomscope-workloads.jar")) {
            Files.createDirectories(root.resolve(jar).getParent());
            Files.createSymbolicLink(root.resolve(jar), Fixtures.ROOT.resolve(jar));
        }
        return root;
    }

    @Test
    void aCheckoutWithoutARootTargetDirectoryRunsAndKeepsItsArchiveCurrent() throws Exception {
        Path root = checkout();
        Path recording = Fixtures.ROOT.resolve("analyzer/src/test/resources/corpus/jmc/io_test.jfr");
        // the smallest answers load a hundred classes: they make no archive (the JVM would keep using one so small),
        // nor does a
        // reading command's help or one that fails before it reads; the first command that reads makes it, the next
        // reads it
        run(root, "--version");
        run(root, "summary", "--help");
        assertThat(archives(root)).isEmpty();
        fail(root, "sumary", recording.toString());
        fail(root, "summary", dir.resolve("no-such.jfr").toString());
        assertThat(archives(root)).isEmpty();
        String first = run(root, "summary", recording.toString());
        List<Path> made = archives(root);
        assertThat(made).hasSize(1);
        Path archive = made.get(0);
        // JDK 25's cache is written from the run's record aside and renamed: neither is left
        assertThat(root.resolve("target"))
                .isDirectoryNotContaining(p -> p.getFileName().toString().matches(".*\\.(config|part)"));
        // the run that made the archive printed what a run with it prints, and nothing of the JVM's own
        assertThat(run(root, "summary", recording.toString())).isEqualTo(first);
        // and it holds the classes of what summary does not run: flame's renderer comes from it too
        Path loaded = dir.resolve("flame-classes.log");
        ChildJvm.Result flame = ChildJvm.exec(
                List.of(
                        "env",
                        "LOOMSCOPE_JAVA_OPTS=-Xlog:class+load:file=" + loaded,
                        "sh",
                        root.resolve("loomscope").toString(),
                        "flame",
                        "--collapsed",
                        Fixtures.ROOT
                                .resolve("analyzer/src/test/resources/corpus/peers/async-profiler.jfr.gz")
                                .toString()),
                dir,
                120);
        assertThat(flame.exitCode()).as(flame.toString()).isZero();
        assertThat(Files.readAllLines(loaded))
                .as(loaded.toString())
                .anyMatch(
                        l -> l.contains(" dev.loomscope.flamegraphs.render.FlameRenderer source: shared objects file"));
        // an archive older than the jar (the JVM would run without it from then on and never make it again) is removed,
        // and made anew
        Files.setLastModifiedTime(
                archive,
                FileTime.fromMillis(Files.getLastModifiedTime(Fixtures.ROOT.resolve("analyzer/target/loomscope.jar"))
                                .toMillis()
                        - 3_600_000));
        run(root, "--version");
        assertThat(archive).doesNotExist();
        run(root, "summary", recording.toString());
        assertThat(archives(root)).containsExactly(archive);
    }

    /**
     * A reading command's heap in transparent huge pages where the kernel gives them on request (THP "madvise"), and
     * its output as without them (no word of the JVM's among it); a command that runs for long beside a service (load)
     * asks for none.
     */
    @Test
    void aReadingCommandAsksForHugePagesWhereTheKernelGivesThemOnRequest() throws Exception {
        Path root = checkout();
        Path thp = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        boolean onRequest = Files.isReadable(thp) && Files.readString(thp).contains("[madvise]");
        Path recording = Fixtures.ROOT.resolve("analyzer/src/test/resources/corpus/jmc/io_test.jfr");
        Path summaryPages = dir.resolve("summary-pages.log");
        ChildJvm.Result summary = ChildJvm.exec(
                List.of(
                        "env",
                        "LOOMSCOPE_JAVA_OPTS=-Xlog:pagesize:file=" + summaryPages,
                        "sh",
                        root.resolve("loomscope").toString(),
                        "summary",
                        "--format",
                        "json",
                        recording.toString()),
                dir,
                120);
        assertThat(summary.exitCode()).as(summary.toString()).isZero();
        assertThat(new ObjectMapper().readTree(summary.stdout()).isObject()).isTrue();
        assertThat(Files.readString(summaryPages).contains("UseTransparentHugePages=1"))
                .as(summaryPages + ", THP on request: " + onRequest)
                .isEqualTo(onRequest);
        Path loadPages = dir.resolve("load-pages.log");
        ChildJvm.Result load = ChildJvm.exec(
                List.of(
                        "env",
                        "LOOMSCOPE_JAVA_OPTS=-Xlog:pagesize:file=" + loadPages,
                        "sh",
                        root.resolve("loomscope").toString(),
                        "load",
                        "--help"),
                dir,
                120);
        assertThat(load.exitCode()).as(load.toString()).isZero();
        assertThat(Files.readString(loadPages)).doesNotContain("UseTransparentHugePages=1");
    }

    /** The launcher's archives: JDK 21-24's dynamic one, JDK 25's ahead-of-time cache named by the JDK's version. */
    private static List<Path> archives(Path root) throws IOException {
        if (!Files.isDirectory(root.resolve("target"))) {
            return List.of();
        }
        try (var files = Files.list(root.resolve("target"))) {
            return files.filter(p -> p.getFileName().toString().matches("loomscope-cli(-.+)?\\.(jsa|aot)"))
                    .toList();
        }
    }

    /** A usage error or bad input: exit 2, its one line said. */
    private void fail(Path root, String... args) throws Exception {
        List<String> command =
                new ArrayList<>(List.of("sh", root.resolve("loomscope").toString()));
        command.addAll(List.of(args));
        ChildJvm.Result r = ChildJvm.exec(command, dir, 120);
        assertThat(r.exitCode()).as(String.join(" ", args) + ": " + r).isEqualTo(2);
        assertThat(r.stderr()).as(String.join(" ", args)).startsWith("loomscope");
    }

    /** A run that succeeds, saying nothing of the JVM's own: its standard output. */
    private String run(Path root, String... args) throws Exception {
        List<String> command =
                new ArrayList<>(List.of("sh", root.resolve("loomscope").toString()));
        command.addAll(List.of(args));
        ChildJvm.Result r = ChildJvm.exec(command, dir, 120);
        assertThat(r.exitCode()).as(String.join(" ", args) + ": " + r).isZero();
        assertThat(r.stdout()).as(String.join(" ", args)).isNotEmpty();
        assertThat(r.stderr())
                .as(String.join(" ", args))
                .doesNotContain("Error occurred during initialization of VM")
                .doesNotContain("[aot]")
                .doesNotContain("AOTCache");
        return r.stdout();
    }
}
