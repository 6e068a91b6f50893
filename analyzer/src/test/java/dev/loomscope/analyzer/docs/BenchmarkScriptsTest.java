package dev.loomscope.analyzer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The benchmark scripts docs/benchmarks.md names start as written: each runs under bash, the shell benchmarks/setup.sh
 * (which they source) is written for, and bash reads each without a syntax error. A script under sh that sourced it
 * stopped at its first array.
 */
class BenchmarkScriptsTest {
    @Test
    void everyScriptIsBashAndParses() throws Exception {
        List<Path> scripts;
        try (Stream<Path> files = Files.list(DocsLinksTest.ROOT.resolve("benchmarks"))) {
            scripts = files.filter(p -> p.toString().endsWith(".sh")).sorted().toList();
        }
        assertThat(scripts).hasSizeGreaterThan(10);
        for (Path script : scripts) {
            String text = Files.readString(script);
            if (!script.getFileName().toString().equals("setup.sh")) {
                assertThat(text.lines().findFirst().orElse(""))
                        .as(script.getFileName() + "'s first line")
                        .isEqualTo("#!/usr/bin/env bash");
            }
            ChildJvm.Result r = ChildJvm.exec(List.of("bash", "-n", script.toString()), DocsLinksTest.ROOT, 60);
            assertThat(r.exitCode())
                    .as(script.getFileName() + ": " + r.stderr())
                    .isZero();
        }
    }
}
