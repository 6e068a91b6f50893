package dev.loomscope.analyzer.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The charts' axes: round ticks around the values, never a single tick (which drew NaN coordinates). */
class SvgTest {
    @Test
    void valuesEqualOrApartByRoundingGetAnAxisAroundThem() {
        double v = 196.915;
        for (double hi : new double[] {v, Math.nextUp(v), v + 1e-12}) {
            double[] t = Svg.niceTicks(v, hi, 6);
            assertThat(t.length).as("ticks for %s..%s", v, hi).isBetween(2, 7);
            assertThat(t[0]).isLessThan(v);
            assertThat(t[t.length - 1]).isGreaterThan(hi);
        }
        assertThat(Svg.niceTicks(0, 0, 6)).contains(0.0);
        assertThat(Svg.niceTicks(0, 100, 6)).startsWith(0.0).endsWith(100.0);
    }
}
