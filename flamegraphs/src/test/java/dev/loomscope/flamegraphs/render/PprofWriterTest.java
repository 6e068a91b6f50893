package dev.loomscope.flamegraphs.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pprof profile as Go's own pprof reads it (go tool pprof, where Go is installed). */
class PprofWriterTest {
    @TempDir
    Path dir;

    static SampleGraph graph() {
        SampleGraph g = new SampleGraph();
        byte[] three = {SampleGraph.JIT_COMPILED, SampleGraph.JIT_COMPILED, SampleGraph.INLINED};
        g.add(new String[] {"java.lang.VirtualThread.run", "app.Cell.run", "app.Cell.step"}, three, 7, true);
        g.add(new String[] {"java.lang.Thread.run", "app.Cell.run", "app.Cell.step"}, three, 3, false);
        g.add(
                new String[] {"java.lang.Thread.run", "app.Other.work"},
                new byte[] {SampleGraph.JIT_COMPILED, SampleGraph.NATIVE},
                5,
                false);
        return g;
    }

    /** {@code go tool pprof ARGS FILE}'s output; the test is skipped where Go is not installed. */
    String pprof(Path profile, String... args) throws Exception {
        Path go = Path.of("/usr/local/go/bin/go");
        String goCmd = Files.isExecutable(go) ? go.toString() : "go";
        List<String> cmd = new ArrayList<>(List.of(goCmd, "tool", "pprof"));
        cmd.addAll(List.of(args));
        cmd.add(profile.toString());
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException noGo) {
            Assumptions.abort("Go's pprof is not installed here: " + noGo.getMessage());
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void goToolPprofReadsTheSamplesTheirStacksAndTheThreadKind() throws Exception {
        Path profile = dir.resolve("cpu.pb.gz");
        try (OutputStream out = Files.newOutputStream(profile)) {
            PprofWriter.write(graph(), "cpu", 10_000_000, null, null, out);
        }
        String traces = pprof(profile, "-traces");
        // each stack leaf first, with its count and label
        assertThat(traces)
                .contains("Type: cpu")
                .containsPattern("thread_kind:\\s+virtual")
                .containsPattern("thread_kind:\\s+platform");
        assertThat(traces)
                .containsPattern("(?s)7 +app\\.Cell\\.step\\s+app\\.Cell\\.run\\s+java\\.lang\\.VirtualThread\\.run");
        assertThat(traces).containsPattern("(?s)5 +app\\.Other\\.work\\s+java\\.lang\\.Thread\\.run");
        String top = pprof(profile, "-top", "-nodecount=10");
        assertThat(top).containsPattern("10 +66\\.67% +66\\.67% +10 +66\\.67% +app\\.Cell\\.step");
        // the samples of one kind, by pprof's own label filter
        String virtualOnly = pprof(profile, "-top", "-tagfocus=thread_kind=virtual");
        assertThat(virtualOnly).contains("app.Cell.step").doesNotContain("app.Other.work");
    }

    @Test
    void aVirtualThreadJfrRecordedCarriesItsIdAsANumberLabel() throws Exception {
        SampleGraph g = graph();
        g.add(
                new String[] {"java.lang.VirtualThread.run", "app.Cell.run"},
                new byte[] {SampleGraph.JIT_COMPILED, SampleGraph.JIT_COMPILED},
                4,
                true,
                42);
        Path profile = dir.resolve("ids.pb.gz");
        try (OutputStream out = Files.newOutputStream(profile)) {
            PprofWriter.write(g, "cpu", 0, null, null, out);
        }
        String traces = pprof(profile, "-traces");
        assertThat(traces).containsPattern("virtual_thread_id:\\s+42");
        // pprof's own filter on the number label: that thread's samples only
        assertThat(pprof(profile, "-top", "-tagfocus=virtual_thread_id=42"))
                .contains("app.Cell.run")
                .doesNotContain("app.Cell.step");
    }

    @Test
    void includeAndExcludeKeepTheStacksTheHtmlGraphKeeps() throws Exception {
        Path profile = dir.resolve("kept.pb.gz");
        try (OutputStream out = Files.newOutputStream(profile)) {
            PprofWriter.write(
                    graph(), "cpu", 0, Pattern.compile("app\\.Cell\\..*"), Pattern.compile(".*VirtualThread.*"), out);
        }
        String traces = pprof(profile, "-traces");
        assertThat(traces)
                .contains("app.Cell.step")
                .doesNotContain("app.Other.work")
                .doesNotContain("VirtualThread");
        assertThat(PprofWriter.kept(new String[] {"a.B.c"}, Pattern.compile("B"), null))
                .as("a whole name must match")
                .isFalse();
    }
}
