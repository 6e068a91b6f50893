package dev.loomscope.workloads.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

class ContextSwitchProfilerTest {

    @Test
    void countsThisProcesssSwitchesPerOperation() throws Exception {
        ContextSwitchProfiler p = new ContextSwitchProfiler();
        p.beforeIteration(null, null);
        int sleeps = 50;
        for (int i = 0; i < sleeps; i++) {
            Thread.sleep(1); // each sleep gives the CPU up: one voluntary switch at least
        }
        long ops = 10;
        IterationResult iteration = new IterationResult(null, null, new IterationResultMetaData(ops, ops));
        Map<String, Double> r = p.afterIteration(null, null, iteration).stream()
                .collect(Collectors.toMap(Result::getLabel, Result::getScore));
        assertThat(r.get("ctxsw.voluntary")).isGreaterThanOrEqualTo(sleeps / (double) ops);
        assertThat(r.get("ctxsw.involuntary")).isGreaterThanOrEqualTo(0);
        assertThat(r.get("ctxsw.context-switches")).isEqualTo(r.get("ctxsw.voluntary") + r.get("ctxsw.involuntary"));
        assertThat(p.afterIteration(null, null, iteration).get(0).getScoreUnit())
                .isEqualTo("#/op");
    }

    @Test
    void rejectsOptions() {
        assertThatThrownBy(() -> new ContextSwitchProfiler("period=1"))
                .isInstanceOf(ProfilerException.class)
                .hasMessageContaining("no options");
    }

    @Test
    void everyBenchmarkRunsOnItsSmallestParameters() throws Exception {
        // in this JVM (no fork): the test JVM already exports jdk.internal.vm for the continuation benchmarks
        Options opt = new OptionsBuilder()
                .include("dev.loomscope.workloads")
                .param("tasks", "50")
                .param("sleepMs", "1")
                .param("padding", "5")
                .param("useVirtualThreads", "true")
                .param("threadPerCell", "true")
                .param("channelType", "OneToOneParking")
                .param("variant", "park")
                .param("n", "1000")
                .param("threads", "virtual")
                .param("requests", "20")
                .param("concurrency", "4")
                .param("paramCount", "1")
                .param("stackDepth", "5")
                .param("minDepth", "2")
                .param("maxDepth", "5")
                .param("repeat", "10")
                .forks(0)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(100))
                .shouldFailOnError(true)
                .build();
        var results = new Runner(opt).run();
        assertThat(results.stream()
                        .map(r -> r.getParams().getBenchmark().replaceAll(".*\\.(\\w+\\.\\w+)$", "$1"))
                        .distinct())
                .containsExactlyInAnyOrder(
                        "ThreadsBenchmark.cachedThreadPool",
                        "ThreadsBenchmark.platformThreadPerTask",
                        "ThreadsBenchmark.virtualThreadPerTask",
                        "GameOfLifeBenchmark.frame",
                        "RendezvousBenchmark.rendezvous",
                        "EchoBenchmark.requests",
                        "Freeze.freeze",
                        "Thaw.thaw",
                        "FreezeAndThaw.freezeAndThaw",
                        "OneShot.oneShot",
                        "Oscillation.oscillation");
        assertThat(results)
                .allSatisfy(r -> assertThat(r.getPrimaryResult().getScore()).isPositive());
    }

    @Test
    void aRealShortRunReportsSwitchesPerOperationUnderItsShortName() throws Exception {
        // Game of Life on platform threads, thread per cell: every generation parks and wakes each cell's thread.
        Options opt = new OptionsBuilder()
                .include("GameOfLifeBenchmark.frame")
                .param("padding", "5")
                .param("useVirtualThreads", "false")
                .param("threadPerCell", "true")
                .param("channelType", "BlockingQueue")
                .forks(1)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.seconds(1))
                .addProfiler("ctxsw")
                .shouldFailOnError(true)
                .build();
        RunResult result = new Runner(opt).runSingle();
        Result switches = result.getSecondaryResults().get("ctxsw.context-switches");
        assertThat(switches).isNotNull();
        assertThat(switches.getScoreUnit()).isEqualTo("#/op");
        assertThat(switches.getScore()).isGreaterThan(0);
        assertThat(result.getPrimaryResult().getScore()).isGreaterThan(0);
    }
}
