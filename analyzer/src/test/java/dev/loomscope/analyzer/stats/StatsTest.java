package dev.loomscope.analyzer.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every statistic against an independent implementation: the expected values were computed with
 * NumPy and SciPy by src/test/resources/stats/make_expected.py (the command is in that file).
 */
class StatsTest {
    static final double EPS = 1e-9;

    static JsonNode expected(String dataset) throws Exception {
        try (InputStream in = StatsTest.class.getResourceAsStream("/stats/expected.json")) {
            return new ObjectMapper().readTree(in).get(dataset);
        }
    }

    static double[] values(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).mapToDouble(JsonNode::asDouble).toArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"small", "ties"})
    void boxplotsMatchNumpy(String dataset) throws Exception {
        JsonNode e = expected(dataset);
        for (String group : new String[] {"platform", "virtual"}) {
            Boxplot b = Boxplot.of(values(e.get("data").get(group)));
            JsonNode x = e.get("boxplot").get(group);
            assertThat(b.n()).isEqualTo(x.get("n").asInt());
            assertThat(b.q1()).isCloseTo(x.get("q1").asDouble(), within(EPS));
            assertThat(b.median()).isCloseTo(x.get("median").asDouble(), within(EPS));
            assertThat(b.q3()).isCloseTo(x.get("q3").asDouble(), within(EPS));
            assertThat(b.iqr()).isCloseTo(x.get("iqr").asDouble(), within(EPS));
            assertThat(b.lowerWhisker()).isCloseTo(x.get("lowerWhisker").asDouble(), within(EPS));
            assertThat(b.upperWhisker()).isCloseTo(x.get("upperWhisker").asDouble(), within(EPS));
            assertThat(b.outliers()).containsExactly(values(x.get("outliers")));
            assertThat(b.mean()).isCloseTo(x.get("mean").asDouble(), within(EPS));
            assertThat(b.sd()).isCloseTo(x.get("sd").asDouble(), within(EPS));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"small", "ties"})
    void regressionMatchesScipy(String dataset) throws Exception {
        JsonNode e = expected(dataset);
        for (String group : new String[] {"platform", "virtual"}) {
            double[] y = values(e.get("data").get(group));
            double[] x = new double[y.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = i;
            }
            Regression r = Regression.of(x, y);
            JsonNode xr = e.get("regression").get(group);
            assertThat(r.slope()).isCloseTo(xr.get("slope").asDouble(), within(1e-8));
            assertThat(r.intercept()).isCloseTo(xr.get("intercept").asDouble(), within(1e-8));
            assertThat(r.r2()).isCloseTo(xr.get("r2").asDouble(), within(1e-9));
            assertThat(r.residualStdError()).isCloseTo(xr.get("rse").asDouble(), within(1e-8));
            assertThat(r.slopeCiLow()).isCloseTo(xr.get("slopeCiLow").asDouble(), within(1e-6));
            assertThat(r.slopeCiHigh()).isCloseTo(xr.get("slopeCiHigh").asDouble(), within(1e-6));
            assertThat(r.slopePValue()).isCloseTo(xr.get("slopeP").asDouble(), within(1e-8));
            assertThat(r.predictionHalfWidth()).isCloseTo(xr.get("predictionHalfWidth").asDouble(), within(1e-6));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"small", "ties"})
    void comparisonMatchesScipy(String dataset) throws Exception {
        JsonNode e = expected(dataset);
        Comparison c = Comparison.of(values(e.get("data").get("virtual")), values(e.get("data").get("platform")));
        JsonNode mw = e.get("mannWhitney");
        assertThat(c.exact()).isEqualTo(mw.get("exact").asBoolean());
        assertThat(c.u()).isEqualTo(mw.get("u").asDouble());
        assertThat(c.pValue()).isCloseTo(mw.get("p").asDouble(), within(mw.get("exact").asBoolean() ? 1e-12 : 1e-4));
        assertThat(c.cliffsDelta()).isCloseTo(e.get("cliffsDelta").asDouble(), within(EPS));
        assertThat(c.ratio()).isCloseTo(e.get("medianRatio").asDouble(), within(EPS));
        assertThat(c.ratioCiLow()).isLessThanOrEqualTo(c.ratio());
        assertThat(c.ratioCiHigh()).isGreaterThanOrEqualTo(c.ratio());
        // seeded: the same interval every time
        Comparison again = Comparison.of(values(e.get("data").get("virtual")), values(e.get("data").get("platform")));
        assertThat(again.ratioCiLow()).isEqualTo(c.ratioCiLow());
        assertThat(again.ratioCiHigh()).isEqualTo(c.ratioCiHigh());
    }
}
