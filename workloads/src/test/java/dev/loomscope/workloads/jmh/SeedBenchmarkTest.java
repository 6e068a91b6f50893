package dev.loomscope.workloads.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The seed experiments' benchmarks run by SeedBenchmark's plan, as JMH's annotation processor wrote it into the
 * benchmark list.
 */
class SeedBenchmarkTest {
    @Test
    void theSeedBenchmarksInheritThePlan() {
        var silent = OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT);
        List<BenchmarkListEntry> seeds = BenchmarkList.defaultList()
                .find(silent, List.of("EchoBenchmark", "GameOfLifeBenchmark", "RendezvousBenchmark"), List.of())
                .stream()
                .toList();
        assertThat(seeds)
                .extracting(BenchmarkListEntry::getUserClassQName)
                .containsExactlyInAnyOrder(
                        "dev.loomscope.workloads.echo.EchoBenchmark",
                        "dev.loomscope.workloads.gameoflife.GameOfLifeBenchmark",
                        "dev.loomscope.workloads.rendezvous.RendezvousBenchmark");
        assertThat(seeds).allSatisfy(b -> {
            assertThat(b.getForks().get()).as(b.getUsername()).isEqualTo(3);
            assertThat(b.getWarmupIterations().get()).as(b.getUsername()).isEqualTo(3);
            assertThat(b.getMeasurementIterations().get()).as(b.getUsername()).isEqualTo(5);
            assertThat(b.getMeasurementTime().get()).as(b.getUsername()).isEqualTo(new TimeValue(2, TimeUnit.SECONDS));
        });
        // what each says itself: echo's and the rendezvous' time an operation takes, Game of Life's generations a
        // second
        assertThat(seeds)
                .filteredOn(b -> b.getUsername().contains("GameOfLife"))
                .allSatisfy(b -> assertThat(b.getTimeUnit().get()).isEqualTo(TimeUnit.SECONDS));
    }
}
