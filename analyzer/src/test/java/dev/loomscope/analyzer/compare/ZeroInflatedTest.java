package dev.loomscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.stats.Boxplot;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Metrics zero in many runs compared by their means and said so; different work never pooled; whiskers never inside
 * boxes.
 */
class ZeroInflatedTest {
    static final long SECOND = 1_000_000_000L;

    /** A JVM's runs of {@code workload}: run i allocates allocated[i] bytes in one second. */
    static RecordingFacts jvm(String workload, String unit, String kind, int fork, long... allocated) {
        List<WorkloadRun> runs = new ArrayList<>();
        for (int i = 0; i < allocated.length; i++) {
            long start = (fork * 100L + i * 2L) * SECOND;
            runs.add(new WorkloadRun(
                    workload,
                    kind,
                    i,
                    false,
                    1000,
                    unit,
                    null,
                    1000,
                    Double.NaN,
                    Double.NaN,
                    start,
                    start + SECOND,
                    10,
                    1,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    allocated[i]));
        }
        return RecordingFacts.ofRuns(RecordingSource.file(Path.of(workload + "-" + kind + fork + ".jfr")), runs);
    }

    @Test
    void aMetricZeroInManyRunsIsComparedByMeansAndTheZerosAreCounted() {
        Map<String, List<RecordingFacts>> groups = new LinkedHashMap<>();
        long m = 1 << 20;
        // platform: one run in three allocates; virtual: none do. The medians are 0 and 0; the means 1 MiB/s against 0
        groups.put(
                "platform",
                List.of(
                        jvm("w", "units", "platform", 1, 3 * m, 0, 0),
                        jvm("w", "units", "platform", 2, 0, 3 * m, 0),
                        jvm("w", "units", "platform", 3, 0, 0, 3 * m)));
        groups.put(
                "virtual",
                List.of(
                        jvm("w", "units", "virtual", 1, 0, 0, 0),
                        jvm("w", "units", "virtual", 2, 0, 0, 0),
                        jvm("w", "units", "virtual", 3, 0, 0, 0)));
        MetricResult r = Comparer.compare(
                        groups, List.of(Metric.ALLOCATION_RATE), "platform", false, Verdict.Rule.DEFAULT)
                .get(0);
        Comparison c = r.comparisons().get("virtual");
        assertThat(c.means()).isTrue();
        assertThat(c.ratio()).isZero();
        String line = Comparer.verdict(r, "virtual");
        assertThat(line)
                .contains("allocation rate mean -100%")
                .endsWith("; zero in 9/9 virtual runs and 6/9 platform runs");
        // no zeros: medians, as ever
        groups.put(
                "virtual", List.of(jvm("w", "units", "virtual", 1, m, m, m), jvm("w", "units", "virtual", 2, m, m, m)));
        groups.put(
                "platform",
                List.of(jvm("w", "units", "platform", 1, m, 2 * m, m), jvm("w", "units", "platform", 2, m, m, m)));
        MetricResult medians = Comparer.compare(
                        groups, List.of(Metric.ALLOCATION_RATE), "platform", false, Verdict.Rule.DEFAULT)
                .get(0);
        assertThat(medians.comparisons().get("virtual").means()).isFalse();
        assertThat(Comparer.verdict(medians, "virtual"))
                .contains("allocation rate median")
                .doesNotContain("zero in");
    }

    @Test
    void differentWorkIsComparedApartOrRefused() {
        List<RecordingFacts> facts = List.of(
                jvm("echo", "requests", "platform", 1, 1),
                jvm("echo", "requests", "virtual", 1, 1),
                jvm("sleep", "tasks", "platform", 1, 1),
                jvm("sleep", "tasks", "virtual", 1, 1));
        List<Grouping.Stratum> strata = Grouping.strata(facts, List.of(), List.of());
        assertThat(strata).extracting(Grouping.Stratum::name).containsExactly("echo", "sleep");
        assertThat(strata.get(0).groups().keySet()).containsExactly("platform", "virtual");
        assertThatThrownBy(() -> Grouping.strata(facts, List.of(), List.of(Grouping.By.threadKind)))
                .isInstanceOf(UsageException.class)
                .hasMessage("--by threadKind: group 'platform' pools different work, echo (requests) and sleep (tasks):"
                        + " its run times and throughputs are not one quantity; compare each workload apart (--by"
                        + " workload,threadKind, the default) or give one workload's recordings");
        // one workload's recordings: one comparison, no name
        assertThat(Grouping.strata(facts.subList(0, 2), List.of(), List.of()))
                .extracting(Grouping.Stratum::name)
                .containsExactly((String) null);
    }

    @Test
    void aWhiskerNeverEndsInsideItsBox() {
        // q3 interpolated between 3 and the outlier 100 (27.25): the largest value inside the fence, 3, lies inside the
        // box
        Boxplot b = Boxplot.of(new double[] {1, 2, 3, 100});
        assertThat(b.q3()).isEqualTo(27.25);
        assertThat(b.outliers()).containsExactly(100);
        assertThat(b.upperWhisker()).isEqualTo(b.q3());
        assertThat(b.lowerWhisker()).isLessThanOrEqualTo(b.q1());
    }
}
