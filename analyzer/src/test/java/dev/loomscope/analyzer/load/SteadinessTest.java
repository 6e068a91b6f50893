package dev.loomscope.analyzer.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the warm-up ends: windows without a trend are steady; a latency that keeps growing is not, and says by how much. */
class SteadinessTest {
    @Test
    void flatNoisyWindowsAreSteady() {
        assertThat(Steadiness.moving(windows(new double[] {300, 301, 299, 300, 300}, new double[] {20.1, 20.4, 19.9, 20.3, 20.0}))).isNull();
    }

    @Test
    void aGrowingLatencyIsNot() {
        assertThat(Steadiness.moving(windows(new double[] {200, 200, 200, 200, 200}, new double[] {100, 200, 300, 400, 500})))
                .isEqualTo("latency p50 +33.3% a second");
    }

    @Test
    void fewerThanFiveSecondsCannotTell() {
        assertThat(Steadiness.moving(windows(new double[] {1, 1}, new double[] {1, 1}))).isEqualTo("fewer than 5 seconds of load");
    }

    private static List<double[]> windows(double[] ok, double[] p50) {
        List<double[]> w = new ArrayList<>();
        for (int i = 0; i < ok.length; i++) {
            w.add(new double[] {ok[i], p50[i]});
        }
        return w;
    }
}
