package dev.loomscope.analyzer.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.load.ClientRow;
import dev.loomscope.load.Slo;
import dev.loomscope.load.stats.LatencyHistograms;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** study --app's plan, objective and capacity rule on canned input. */
class AppPlanTest {
    @Test
    void theCommandIsATemplateSplitAsAShellWould() {
        List<String> words = AppPlan.words(
                "--app",
                "java -Dx='a b' -jar \"my app.jar\" --server.port={port} --spring.threads.virtual.enabled={virtual}"
                        + " {threads}");
        assertThat(words)
                .containsExactly(
                        "java",
                        "-Dx=a b",
                        "-jar",
                        "my app.jar",
                        "--server.port={port}",
                        "--spring.threads.virtual.enabled={virtual}",
                        "{threads}");
        assertThat(AppPlan.filled(words, "virtual", 8123))
                .containsExactly(
                        "java",
                        "-Dx=a b",
                        "-jar",
                        "my app.jar",
                        "--server.port=8123",
                        "--spring.threads.virtual.enabled=true",
                        "virtual");
        assertThat(AppPlan.filled(words, "platform", 1).get(5)).isEqualTo("--spring.threads.virtual.enabled=false");
        assertThatThrownBy(() -> AppPlan.words("--app", "java -jar 'app.jar"))
                .hasMessage("--app java -jar 'app.jar: a ' quote is not closed");
        assertThatThrownBy(() -> AppPlan.words("--load-command", "  "))
                .hasMessageStartingWith("--load-command: no command");
    }

    @Test
    void everyJvmOnceInAnOrderTheSeedRepeats() {
        AppPlan plan = new AppPlan(List.of("java"), null, 4, 1, Reruns.DEFAULT, null, null, 42);
        List<AppPlan.Job> jobs = plan.jobs();
        assertThat(jobs).hasSize(10).doesNotHaveDuplicates();
        assertThat(jobs.stream().filter(j -> j.kind().equals("virtual") && j.recorded()))
                .hasSize(4);
        assertThat(jobs.stream().filter(j -> !j.recorded()))
                .extracting(AppPlan.Job::label)
                .containsExactlyInAnyOrder("app-platform-control-1", "app-virtual-control-1");
        assertThat(new AppPlan(List.of("java"), null, 4, 1, Reruns.DEFAULT, null, null, 42).jobs())
                .isEqualTo(jobs);
        assertThat(new AppPlan(List.of("java"), null, 4, 1, Reruns.DEFAULT, null, null, 43).jobs())
                .isNotEqualTo(jobs);
    }

    @Test
    void aDisturbedJvmRunsAgainThenIsLeftOutOrKeptFlagged() {
        Reruns twice = new Reruns(2, false);
        assertThat(twice.after(0.19, 0)).isEqualTo(Reruns.Action.ACCEPT);
        assertThat(twice.after(Double.NaN, 0)).isEqualTo(Reruns.Action.ACCEPT); // not known: nothing to hold against it
        assertThat(twice.after(0.45, 0)).isEqualTo(Reruns.Action.AGAIN);
        assertThat(twice.after(0.45, 1)).isEqualTo(Reruns.Action.AGAIN);
        assertThat(twice.after(0.45, 2)).isEqualTo(Reruns.Action.LEAVE_OUT);
        assertThat(new Reruns(0, true).after(0.45, 0)).isEqualTo(Reruns.Action.KEEP_FLAGGED);
        assertThat(twice.leftOut(0.45, 3))
                .isEqualTo("left out: other processes took over 20% of the CPU in each of its 3 runs (45% in the last"
                        + " one's median measured run; --reruns 2, --keep-disturbed keeps such JVMs, flagged)");
        // two JVMs left out in a row: the machine stays busy, and a disturbed JVM after them is left out at once,
        // saying why
        int streak = 0;
        for (int jvm = 0; jvm < 2; jvm++) {
            for (int attempt = 0; ; attempt++) {
                Reruns.Action a = twice.after(0.45, attempt, streak);
                if (a != Reruns.Action.AGAIN) {
                    streak = Reruns.streak(a, streak);
                    break;
                }
            }
        }
        assertThat(streak).isEqualTo(Reruns.BUSY_STREAK);
        assertThat(twice.after(0.45, 0, streak)).isEqualTo(Reruns.Action.LEAVE_OUT);
        assertThat(twice.leftOut(0.45, 1))
                .endsWith("; not run again: the 2 JVMs before it were left out too, so the machine stays busy");
        // one that ran undisturbed ends the streak
        assertThat(Reruns.streak(twice.after(0.1, 0, streak), streak)).isZero();
    }

    @Test
    void anObjectiveIsAPercentileAndABound() {
        assertThat(Slo.parse("p99=50ms")).isEqualTo(new Slo("p99", 50));
        assertThat(Slo.parse("p99.9=1s").millis()).isEqualTo(1000);
        assertThat(Slo.parse("p50=250us").toString()).isEqualTo("p50 <= 0.25 ms");
        assertThatThrownBy(() -> Slo.parse("p95=50ms"))
                .hasMessageStartingWith("--slo p95=50ms: give a percentile and its bound");
        assertThatThrownBy(() -> Slo.parse("p99=fast")).hasMessageContaining("'fast' is not a latency above 0");
        assertThatThrownBy(() -> Slo.parse("p99=0")).hasMessageContaining("is not a latency above 0");
    }

    @Test
    void aRateIsKeptWhenTheMedianWindowIsWithinAndUnderOnePercentFailed() {
        Slo slo = Slo.parse("p99=50ms");
        assertThat(Capacity.kept(slo, List.of(window(40, 0), window(45, 0), window(200, 0))))
                .isTrue(); // one bad window of three
        assertThat(Capacity.kept(slo, List.of(window(40, 0), window(60, 0), window(70, 0))))
                .isFalse();
        // 1% of 3 x 1000 offered is 30: 29 failed keep it, 30 do not
        assertThat(Capacity.kept(slo, List.of(window(10, 29), window(10, 0), window(10, 0))))
                .isTrue();
        assertThat(Capacity.kept(slo, List.of(window(10, 30), window(10, 0), window(10, 0))))
                .isFalse();
        assertThat(Capacity.kept(slo, List.of())).isFalse();
    }

    @Test
    void aRateIsKeptOnTheMergedHistogramsWhereTheWindowsHoldThem() {
        Slo slo = Slo.parse("p99=50ms");
        // two windows at 40 and 45 ms and one at 200 ms: the median window keeps 50 ms, the requests do not (a third of
        // them took 200 ms)
        List<WorkloadRun> windows = List.of(measured(40, 0), measured(45, 0), measured(200, 0));
        assertThat(Capacity.kept(slo, windows)).isFalse();
        assertThat(Capacity.millis(slo, windows)).isCloseTo(200, Offset.offset(0.2));
        List<WorkloadRun> fast = List.of(measured(40, 0), measured(45, 0), measured(48, 0));
        assertThat(Capacity.kept(slo, fast)).isTrue();
        assertThat(Capacity.millis(slo, fast)).isCloseTo(48, Offset.offset(0.05));
        // 1% of the 3,000 offered failed: not kept, whatever the latency
        assertThat(Capacity.kept(slo, List.of(measured(10, 30), measured(10, 0), measured(10, 0))))
                .isFalse();
    }

    /**
     * A window of 1,000 requests offered, all those not failed answered in {@code millis}, its histograms in its row.
     */
    private static WorkloadRun measured(double millis, long errors) {
        Histogram h = new Histogram(3_600_000_000L, 3);
        h.recordValueWithCount((long) (millis * 1000), 1000 - errors);
        String encoded = LatencyHistograms.encode(h);
        return new WorkloadRun(
                "GET / at 500/s",
                "virtual",
                0,
                false,
                1000 - errors,
                "requests",
                null,
                2000,
                5,
                millis,
                0,
                2_000_000_000L,
                -1,
                -1,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                -1,
                new ClientRow(millis, 1000, errors, "test", 0, encoded, encoded, null, 0.1, "GET /", 500, -1));
    }

    private static WorkloadRun window(double p99, long errors) {
        return new WorkloadRun(
                "GET / at 500/s",
                "virtual",
                0,
                false,
                1000 - errors,
                "requests",
                null,
                2000,
                5,
                p99,
                0,
                2_000_000_000L,
                -1,
                -1,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                -1,
                new ClientRow(p99 * 2, 1000, errors, "test"));
    }
}
