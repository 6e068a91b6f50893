package dev.loomscope.flamegraphs.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.flamegraphs.testing.Recordings;
import dev.loomscope.recording.BadRecordingException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import one.jfr.JfrReader;
import one.jfr.event.ExecutionSample;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlameRendererTest {
    @TempDir
    static Path dir;

    static Path profiled;
    static Path jdkOnly;

    @BeforeAll
    static void record() throws Exception {
        profiled = Recordings.asyncProfilerCpu(dir);
        jdkOnly = Recordings.jdkOnly(dir);
    }

    static String render(List<Path> in, FlameOptions o, boolean collapsed) throws Exception {
        var out = new ByteArrayOutputStream();
        FlameRenderer.render(in, o, collapsed, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    static long collapsedTotal(String collapsed) {
        return collapsed
                .lines()
                .filter(l -> !l.isBlank())
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void htmlNamesTheBurningMethodInAsyncProfilersFormat() throws Exception {
        String html = render(List.of(profiled), FlameOptions.of(SampleKind.CPU), false);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("burnCpu").contains("loomscope cpu flame graph");
    }

    @Test
    void collapsedTotalsEqualTheSamplesRead() throws Exception {
        long samples;
        try (JfrReader jfr = new JfrReader(profiled.toString())) {
            samples = jfr.readAllEvents(ExecutionSample.class).size(); // async-profiler's own reader counts them
        }
        var out = new ByteArrayOutputStream();
        var drawn = FlameRenderer.render(List.of(profiled), FlameOptions.of(SampleKind.CPU), true, out);
        assertThat(samples).isGreaterThan(50);
        assertThat(collapsedTotal(out.toString(StandardCharsets.UTF_8))).isEqualTo(samples);
        assertThat(drawn.total()).isEqualTo(samples);
    }

    @Test
    void severalInputsMergeIntoOneGraph() throws Exception {
        long one = collapsedTotal(render(List.of(profiled), FlameOptions.of(SampleKind.CPU), true));
        long two = collapsedTotal(render(List.of(profiled, profiled), FlameOptions.of(SampleKind.CPU), true));
        assertThat(two).isEqualTo(2 * one);
    }

    @Test
    void jdkOnlyRecordingRendersANonEmptyGraph() throws Exception {
        String collapsed = render(List.of(jdkOnly), FlameOptions.of(SampleKind.CPU), true);
        assertThat(collapsedTotal(collapsed)).isGreaterThan(10);
        assertThat(collapsed).contains("burnCpu");
    }

    @Test
    void splitKindPutsTheVirtualBurnerUnderTheVirtualRoot() throws Exception {
        String collapsed =
                render(List.of(profiled), FlameOptions.of(SampleKind.CPU).withSplitKind(true), true);
        List<String> virtual = collapsed
                .lines()
                .filter(l -> l.startsWith("virtual (on carrier);"))
                .toList();
        List<String> platform =
                collapsed.lines().filter(l -> l.startsWith("platform;")).toList();
        assertThat(virtual).anyMatch(l -> l.contains("burnCpuVirtual"));
        assertThat(platform).anyMatch(l -> l.contains("BurnCpu.burnCpu;") || l.contains("BurnCpu.burnCpu_["));
        assertThat(platform).noneMatch(l -> l.contains("burnCpuVirtual"));
        assertThat(collapsed.lines()).allMatch(l -> l.startsWith("virtual (on carrier);") || l.startsWith("platform;"));
    }

    @Test
    void diffOfARecordingAgainstItselfShowsNoChange() throws Exception {
        var out = new ByteArrayOutputStream();
        FlameRenderer.diff(List.of(profiled), List.of(profiled), FlameOptions.of(SampleKind.CPU), true, out);
        String collapsed = out.toString(StandardCharsets.UTF_8);
        assertThat(collapsed.lines()).isNotEmpty().allSatisfy(FlameRendererTest::beforeEqualsAfter);
    }

    @Test
    void diffNormalisesRunsOfDifferentLengths() throws Exception {
        // The same profile twice has twice the samples but the same shape: no change once normalised.
        var out = new ByteArrayOutputStream();
        FlameRenderer.diff(List.of(profiled), List.of(profiled, profiled), FlameOptions.of(SampleKind.CPU), true, out);
        assertThat(out.toString(StandardCharsets.UTF_8).lines())
                .isNotEmpty()
                .allSatisfy(FlameRendererTest::beforeEqualsAfter);
    }

    /** Collapsed differential lines end with two counts: before and after. */
    static void beforeEqualsAfter(String line) {
        String[] f = line.split(" ");
        assertThat(f[f.length - 2]).as(line).isEqualTo(f[f.length - 1]);
    }

    @Test
    void diffShowsAChange() throws Exception {
        var out = new ByteArrayOutputStream();
        FlameRenderer.diff(List.of(profiled), List.of(jdkOnly), FlameOptions.of(SampleKind.CPU), true, out);
        assertThat(out.toString(StandardCharsets.UTF_8).lines()).anyMatch(l -> {
            String[] f = l.split(" ");
            return !f[f.length - 2].equals(f[f.length - 1]);
        });
    }

    @Test
    void aDifferentialPageSaysWhatItsColoursMeanAndAPlainOneDoesNot() throws Exception {
        var out = new ByteArrayOutputStream();
        FlameRenderer.diff(List.of(profiled), List.of(jdkOnly), FlameOptions.of(SampleKind.CPU), false, out);
        String page = out.toString(StandardCharsets.UTF_8);
        // above the graph, outside the data script; every colour the page's getDiffColor gives a frame is named
        assertThat(page.indexOf("loomscope-note")).isPositive().isLessThan(page.indexOf("<canvas"));
        assertThat(page).contains("maxdiff").contains("#ffdd33").contains("#e0e0e0");
        assertThat(page.substring(page.indexOf("loomscope-note"), page.indexOf("<canvas")))
                .contains("Red", "blue", "grey", "yellow", "#ffdd33", "#e0e0e0", "only in this profile");
        assertThat(render(List.of(profiled), FlameOptions.of(SampleKind.CPU), false))
                .contains("<canvas")
                .doesNotContain("loomscope-note");
    }

    @Test
    void missingKindListsWhatTheRecordingHas() {
        assertThatThrownBy(() -> render(List.of(profiled), FlameOptions.of(SampleKind.ALLOC), false))
                .isInstanceOf(NoSamplesException.class)
                .hasMessageContaining(profiled.toAbsolutePath().toString())
                .hasMessageContaining("no alloc samples")
                .hasMessageMatching(".*the recording has cpu or wall [1-9][0-9]*, alloc 0, lock 0.*")
                .hasMessageContaining("profile=alloc");
    }

    @Test
    void badInputsAreOneLineNamingThePath() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.jfr"), "hello, not a recording");
        Path empty = Files.createFile(dir.resolve("empty.jfr"));
        Path truncated = dir.resolve("truncated.jfr");
        Files.write(truncated, Arrays.copyOf(Files.readAllBytes(profiled), 40));
        assertThatThrownBy(() -> render(List.of(text), FlameOptions.of(SampleKind.CPU), false))
                .isInstanceOf(BadRecordingException.class)
                .hasMessage(text.toAbsolutePath() + ": not a JFR recording (it does not start with FLR\\0)");
        assertThatThrownBy(() -> render(List.of(empty), FlameOptions.of(SampleKind.CPU), false))
                .isInstanceOf(BadRecordingException.class)
                .hasMessageStartingWith(empty.toAbsolutePath() + ": empty file");
        assertThatThrownBy(() -> render(List.of(dir.resolve("nope.jfr")), FlameOptions.of(SampleKind.CPU), false))
                .isInstanceOf(BadRecordingException.class)
                .hasMessageEndingWith("nope.jfr: no such file (check the path)");
        assertThatThrownBy(() -> render(List.of(truncated), FlameOptions.of(SampleKind.CPU), false))
                .isInstanceOf(BadRecordingException.class)
                .hasMessageContaining("truncated");
    }
}
