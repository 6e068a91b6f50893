package dev.loomscope.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The capacity chart: a line per kind through its JVMs' medians, each JVM a point, the objective dashed, a log latency
 * axis.
 */
class RateChartTest {
    @Test
    void aLinePerKindThroughItsMediansAndTheObjectiveAcross() {
        Map<String, TreeMap<Double, double[]>> byKind = new LinkedHashMap<>();
        byKind.put(
                "platform", new TreeMap<>(Map.of(150.0, new double[] {14, 15, 13}, 300.0, new double[] {17, 18, 16})));
        byKind.put(
                "virtual",
                new TreeMap<>(Map.of(150.0, new double[] {14, 14, 15}, 300.0, new double[] {7700, 7800, 7600})));
        String svg = RateChart.of("GET /legacy: latency p99 against the offered rate", "p99", 50, byKind);
        assertThat(svg).startsWith("<svg").endsWith("</svg>\n");
        assertThat(svg.split("<polyline", -1)).hasSize(3); // one line a kind
        assertThat(svg.split("<circle", -1)).hasSize(13); // each JVM at each rate a point
        assertThat(svg)
                .contains("stroke-dasharray")
                .contains("objective 50 ms")
                .contains("virtual at 300/s: 7700.0 ms")
                .contains("latency p99 (ms, log; lower is better)");
        // decades from 10 to 10,000 ms: the virtual line's queueing and the platform line's 13 ms on one axis
        assertThat(svg).contains(">10<").contains(">10000<");
        assertThat(RateChart.of("nothing", "p99", 50, Map.of())).isEmpty();
        // one rate draws each JVM's point and no line, and the legend says so; a kind with no latency is named as such,
        // not as a line
        Map<String, TreeMap<Double, double[]>> oneRate = new LinkedHashMap<>();
        oneRate.put("platform", new TreeMap<>(Map.of(300.0, new double[] {17, 18})));
        oneRate.put("virtual", new TreeMap<>(Map.of(300.0, new double[0])));
        String one = RateChart.of("GET /legacy", "p99", 50, oneRate);
        assertThat(one)
                .doesNotContain("<polyline")
                .contains(">platform (points)<")
                .contains(">virtual: no latency<");
    }
}
