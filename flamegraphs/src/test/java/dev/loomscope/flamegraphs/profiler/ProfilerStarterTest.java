package dev.loomscope.flamegraphs.profiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilerStarterTest {
    static final ProfilerSettings CPU =
            new ProfilerSettings(List.of("cpu"), Duration.ofMillis(10), "vm", Path.of("/tmp/x.jfr"));

    @Test
    void startCommandIsAsyncProfilerSyntax() {
        var s = new ProfilerSettings(
                List.of("cpu", "wall", "alloc"), Duration.ofMillis(10), "vm", Path.of("/tmp/o.jfr"));
        assertThat(s.startCommand("ctimer"))
                .isEqualTo("start,event=ctimer,interval=10000000,wall=10000000,alloc,cstack=vm,jfr,file=/tmp/o.jfr");
        assertThat(s.startCommand(null)).isEqualTo("start,wall=10000000,alloc,cstack=vm,jfr,file=/tmp/o.jfr");
    }

    @Test
    void fallsBackEngineByEngineKeepingEachReason() {
        List<String> tried = new ArrayList<>();
        var start = ProfilerStarter.start(
                cmd -> {
                    tried.add(cmd);
                    if (cmd.contains("event=cpu")) {
                        throw new ProfilerCommandException("Perf events unavailable", null);
                    }
                    return "Profiling started";
                },
                CPU);
        assertThat(start.mode()).isEqualTo("ctimer");
        assertThat(start.profilerRunning()).isTrue();
        assertThat(start.reasons()).containsExactly("cpu: Perf events unavailable");
        assertThat(start.fallbackNote()).isEqualTo("profiling with ctimer (cpu: Perf events unavailable)");
        assertThat(tried).hasSize(2);
    }

    @Test
    void nothingStartsMeansJfrSampling() {
        var start = ProfilerStarter.start(
                cmd -> {
                    throw new ProfilerCommandException("no", null);
                },
                CPU);
        assertThat(start.mode()).isEqualTo("jfr");
        assertThat(start.profilerRunning()).isFalse();
        assertThat(start.reasons()).containsExactly("cpu: no", "ctimer: no", "itimer: no");
        assertThat(start.fallbackNote()).startsWith("async-profiler unavailable, using JFR sampling");
    }

    @Test
    void theChosenEngineIsTriedFirstAndFallsBackFromThere() {
        List<String> tried = new ArrayList<>();
        var ctimer = new ProfilerSettings(List.of("cpu"), Duration.ofMillis(10), "vm", Path.of("/tmp/x.jfr"), "ctimer");
        var start = ProfilerStarter.start(
                cmd -> {
                    tried.add(cmd);
                    throw new ProfilerCommandException("denied", null);
                },
                ctimer);
        assertThat(tried).hasSize(2).allMatch(c -> !c.contains("event=cpu"));
        assertThat(start.reasons()).containsExactly("ctimer: denied", "itimer: denied");
        assertThat(start.jfrSamplesCpu(ctimer)).isTrue();
    }

    @Test
    void jfrEngineLeavesCpuToJfrAndLoadsNothingForCpuAlone() {
        var jfr = new ProfilerSettings(List.of("cpu"), Duration.ofMillis(10), "vm", Path.of("/tmp/x.jfr"), "jfr");
        assertThat(jfr.needsProfiler()).isFalse();
        var start = ProfilerStarter.start(Path.of("/nonexistent/never/created"), jfr);
        assertThat(start.mode()).isEqualTo("jfr");
        assertThat(start.fallbackNote()).isNull();
        assertThat(start.jfrSamplesCpu(jfr)).isTrue();

        var jfrAndWall =
                new ProfilerSettings(List.of("cpu", "wall"), Duration.ofMillis(10), "vm", Path.of("/tmp/x.jfr"), "jfr");
        List<String> tried = new ArrayList<>();
        var both = ProfilerStarter.start(
                cmd -> {
                    tried.add(cmd);
                    return "Profiling started";
                },
                jfrAndWall);
        assertThat(tried).containsExactly("start,wall=10000000,cstack=vm,jfr,file=/tmp/x.jfr");
        assertThat(both.mode()).isEqualTo("async-profiler");
        assertThat(both.jfrSamplesCpu(jfrAndWall)).isTrue();
        assertThat(ProfilerStarter.start(cmd -> "Profiling started", CPU).jfrSamplesCpu(CPU))
                .isFalse();
    }

    @Test
    void platformsMapToTheJarFolders() throws Exception {
        assertThat(Platform.of("Linux", "amd64").libraryEntry()).isEqualTo("linux-x64/libasyncProfiler.so");
        assertThat(Platform.of("Linux", "aarch64").folder()).isEqualTo("linux-arm64");
        assertThat(Platform.of("Mac OS X", "aarch64").folder()).isEqualTo("macos");
        assertThatThrownBy(() -> Platform.of("Windows 11", "amd64"))
                .isInstanceOf(ProfilerUnavailableException.class)
                .hasMessageContaining("no build for Windows 11/amd64");
    }

    @Test
    void realLibraryLoadsFromAPrivateDirectory(@TempDir Path dir) throws Exception {
        AsyncProfilerHandle handle = ProfilerLibrary.load(dir);
        assertThat(handle.version()).matches("\\d+\\.\\d+.*");
        assertThat(handle.execute("version")).contains(handle.version());
        assertThat(handle.library()).exists();
    }

    @Test
    void unknownSettingsAreRejected() {
        assertThatThrownBy(() -> new ProfilerSettings(List.of("gpu"), Duration.ofMillis(1), "vm", Path.of("x")))
                .hasMessageContaining("gpu");
        assertThatThrownBy(() -> new ProfilerSettings(List.of("cpu"), Duration.ofMillis(1), "vm", Path.of("x"), "perf"))
                .hasMessageContaining("engine must be one of");
    }
}
