package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.analyzer.study.Study;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * loomscope.WorkloadRun events written by an app of its own, not by loomscope's workloads: with the required fields
 * only, and with extra fields, every command that reads runs takes them.
 */
class ThirdPartyRunsIT {
    @TempDir
    static Path dir;

    static Path minimalPlatform;
    static Path minimalVirtual;
    static Path extraPlatform;
    static Path extraVirtual;

    @BeforeAll
    static void record() throws Exception {
        minimalPlatform = app("platform", "minimal");
        minimalVirtual = app("virtual", "minimal");
        extraPlatform = app("platform", "extra");
        extraVirtual = app("virtual", "extra");
    }

    static Path app(String kind, String fields) throws Exception {
        Path out = dir.resolve(fields + "-" + kind);
        ChildJvm.Result r = ChildJvm.run(
                List.of("-javaagent:" + Fixtures.AGENT + "=out=" + out + ",threads=" + kind
                        + ",profile=off,trace-pinned=off,flame=off,startup=before-main"),
                WorkloadRunApp.class.getName(),
                List.of(kind, fields),
                dir,
                120);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return Fixtures.only(out, ".jfr");
    }

    static ChildJvm.Result ok(String... args) throws Exception {
        ChildJvm.Result r = Fixtures.cli(dir, args);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stderr()).doesNotContain("internal error");
        return r;
    }

    @Test
    void onlyTheRequiredFieldsGoThroughEveryCommand() throws Exception {
        checkEveryCommand(minimalPlatform, minimalVirtual, "minimal");
    }

    @Test
    void fieldsLoomscopeDoesNotKnowAreIgnored() throws Exception {
        checkEveryCommand(extraPlatform, extraVirtual, "extra");
        // an optional field the app does give is read: its p50 latency
        assertThat(ok("compare", extraPlatform.toString(), extraVirtual.toString(), "--metric", "latency p50")
                        .stdout())
                .contains("latency p50");
    }

    private void checkEveryCommand(Path platform, Path virtual, String name) throws Exception {
        assertThat(ok("summary", platform.toString()).stdout()).contains("Key figures of");
        String compare = ok("compare", platform.toString(), virtual.toString()).stdout();
        assertThat(compare).contains("run time").contains("throughput");
        Path report = dir.resolve("report-" + name);
        ok("report", platform.toString(), virtual.toString(), "-o", report.toString());
        assertThat(Files.readString(report.resolve("index.html"))).contains("run time");
        Study.Judged judged = Study.judge(
                "app",
                List.of(RecordingSource.file(platform), RecordingSource.file(virtual)),
                List.of(),
                false,
                Verdict.Rule.DEFAULT);
        assertThat(judged.verdicts()).anyMatch(v -> v.startsWith("app: virtual vs platform: run time"));
        assertThat(judged.groups().get("virtual").get(0).runs.measured())
                .hasSize(6)
                .allSatisfy(run -> assertThat(run.units()).isEqualTo(200));
    }

    @Test
    void aRequiredFieldMissingIsTheFilesFaultInOneLine() throws Exception {
        Path broken = app("virtual", "broken");
        for (String command : List.of("summary", "compare")) {
            ChildJvm.Result r = Fixtures.cli(dir, command, broken.toString());
            assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
            assertThat(r.stderr().strip().lines()).as(r.stderr()).hasSize(1);
            assertThat(r.stderr())
                    .contains(broken.toAbsolutePath().toString())
                    .contains("has no field 'units', which the event schema requires")
                    .doesNotContain("internal error");
        }
    }
}
