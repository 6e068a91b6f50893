package dev.loomscope.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The forest plot: a row a verdict, and every warning written out under it, not only on hover. */
class ForestTest {
    @Test
    void everyWarningIsWrittenUnderTheChartNumberedAtItsRows() {
        Comparison worse = Comparison.of(new double[] {50, 52, 55, 51}, new double[] {1, 1.1, 0.9, 1});
        Comparison same = Comparison.of(new double[] {1, 1.02, 0.98, 1}, new double[] {1, 1.01, 0.99, 1});
        List<Forest.Row> rows = List.of(
                new Forest.Row(
                        "GET /legacy at 300/s: latency p99",
                        "latency p99",
                        worse,
                        "lower is better",
                        Verdict.WORSE,
                        "virtual not steady",
                        "GET /legacy at 300/s"),
                new Forest.Row(
                        "GET /legacy at 300/s: throughput",
                        "throughput",
                        same,
                        "higher is better",
                        Verdict.NO_MEANINGFUL_DIFFERENCE,
                        "virtual not steady",
                        "GET /legacy at 300/s"),
                new Forest.Row(
                        "GET /io at 300/s: latency p99",
                        "latency p99",
                        same,
                        "lower is better",
                        Verdict.NO_MEANINGFUL_DIFFERENCE,
                        null,
                        "GET /io at 300/s"));
        String svg = Forest.svg(rows, "virtual", "platform", 0.05);
        // the two rows of one part share one note; the note is text on the page, not a tooltip
        assertThat(svg.split("class='mark'", -1)).hasSize(3);
        assertThat(svg)
                .contains("class='note'>&#9888;1 GET /legacy at 300/s: virtual not steady</text>")
                .doesNotContain("&#9888;2");
        assertThat(svg).doesNotContain("hover for which");
        String unmarked = Forest.svg(rows.subList(2, 3), "virtual", "platform", 0.05);
        assertThat(unmarked).doesNotContain("class='note'").doesNotContain("class='mark'");
    }
}
