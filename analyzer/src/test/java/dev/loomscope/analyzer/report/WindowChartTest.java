package dev.loomscope.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The window-by-window chart: the client's latency per kind on top, the pins and GC pauses of the same windows under
 * it.
 */
class WindowChartTest {
    @Test
    void latencyOnTopPinsAndPausesOfTheSameWindowsBelow() {
        Map<String, List<WindowChart.Window>> byKind = new LinkedHashMap<>();
        byKind.put(
                "platform",
                List.of(
                        new WindowChart.Window(0, 1, 17, true, 0, 0, Double.NaN),
                        new WindowChart.Window(1, 2, 16, false, 0, 3, Double.NaN)));
        byKind.put(
                "virtual",
                List.of(
                        new WindowChart.Window(0, 1, 900, true, 990, 0, Double.NaN),
                        new WindowChart.Window(1, 2, 7700, false, 1980, 0, Double.NaN)));
        String svg = WindowChart.of("GET /legacy at 300/s", "p99", byKind);
        assertThat(svg.split("<polyline", -1)).hasSize(3);
        // the virtual JVM's pins: 990 ms a second in both windows; the platform JVM's one pause, 1.5 ms a second
        assertThat(svg)
                .contains("virtual pinned at 0 s: 990.0 ms a second")
                .contains("virtual pinned at 1 s: 990.0 ms a second")
                .contains("platform GC at 1 s: 1.50 ms a second")
                .contains("fill='#f2f2f2'")
                .contains(">10000<");
        // before JDK 24 the scheduler is not sampled: the chart says so instead of drawing no busy carriers
        assertThat(svg).contains("JDK 24+ only").doesNotContain("carriers busy at");
        // on JDK 24+ the virtual JVM's busy carriers (virtual threads mounted) in the pins' unit: a carrier busy the
        // whole second is 1,000 ms
        byKind.put(
                "virtual",
                List.of(
                        new WindowChart.Window(0, 1, 900, true, 990, 0, 2),
                        new WindowChart.Window(1, 2, 7700, false, 1980, 0, 1.5)));
        String sampled = WindowChart.of("GET /legacy at 300/s", "p99", byKind);
        assertThat(sampled)
                .contains("virtual carriers busy at 0 s: 2.00")
                .contains("virtual carriers busy at 1 s: 1.50")
                .contains("stroke-dasharray='4 3'")
                .contains("dashed: carriers");
        assertThat(sampled.split("<polyline", -1)).hasSize(4);
        // a kind whose windows hold no latency draws no line, and its legend entry says so
        byKind.put("virtual", List.of(new WindowChart.Window(0, 1, Double.NaN, true, 990, 0, Double.NaN)));
        assertThat(WindowChart.of("GET /legacy at 300/s", "p99", byKind))
                .contains(">virtual: no latency<")
                .contains(">platform<")
                .satisfies(noLine -> assertThat(noLine.split("<polyline", -1)).hasSize(2));
        assertThat(WindowChart.of(
                        "none",
                        "p99",
                        Map.of("virtual", List.of(new WindowChart.Window(0, 1, Double.NaN, false, 0, 0, Double.NaN)))))
                .isEmpty();
    }
}
