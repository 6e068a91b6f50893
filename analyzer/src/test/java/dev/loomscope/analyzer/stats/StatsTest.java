package dev.loomscope.analyzer.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.load.stats.Quantiles;
import dev.loomscope.load.stats.Regression;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every statistic against an independent implementation: the expected values were computed with NumPy and SciPy by
 * src/test/resources/stats/make_expected.py (the command is in that file).
 */
class StatsTest {
    static final double EPS = 1e-9;

    static JsonNode expected(String dataset) throws Exception {
        try (InputStream in = StatsTest.class.getResourceAsStream("/stats/expected.json")) {
            return new ObjectMapper().readTree(in).get(dataset);
        }
    }

    static double[] values(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false)
                .mapToDouble(JsonNode::asDouble)
                .toArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"small", "ties"})
    void boxplotsMatchNumpy(String dataset) throws Exception {
        JsonNode e = expected(dataset);
        for (String group : new String[] {"platform", "virtual"}) {
            Boxplot b = Boxplot.of(values(e.get("data").get(group)));
            JsonNode x = e.get("boxplot").get(group);
            assertThat(b.n()).isEqualTo(x.get("n").asInt());
            assertThat(b.min()).isEqualTo(x.get("min").asDouble());
            assertThat(b.max()).isEqualTo(x.get("max").asDouble());
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
            assertThat(r.predictionHalfWidth())
                    .isCloseTo(xr.get("predictionHalfWidth").asDouble(), within(1e-6));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"small", "ties"})
    void comparisonMatchesScipy(String dataset) throws Exception {
        JsonNode e = expected(dataset);
        Comparison c = Comparison.of(
                values(e.get("data").get("virtual")), values(e.get("data").get("platform")));
        JsonNode mw = e.get("mannWhitney");
        assertThat(c.exact()).isEqualTo(mw.get("exact").asBoolean());
        assertThat(c.u()).isEqualTo(mw.get("u").asDouble());
        assertThat(c.pValue())
                .isCloseTo(mw.get("p").asDouble(), within(mw.get("exact").asBoolean() ? 1e-12 : 1e-4));
        assertThat(c.cliffsDelta()).isCloseTo(e.get("cliffsDelta").asDouble(), within(EPS));
        assertThat(c.ratio()).isCloseTo(e.get("medianRatio").asDouble(), within(EPS));
        assertThat(c.ratioCiLow()).isLessThanOrEqualTo(c.ratio());
        assertThat(c.ratioCiHigh()).isGreaterThanOrEqualTo(c.ratio());
        // seeded: the same interval every time
        Comparison again = Comparison.of(
                values(e.get("data").get("virtual")), values(e.get("data").get("platform")));
        assertThat(again.ratioCiLow()).isEqualTo(c.ratioCiLow());
        assertThat(again.ratioCiHigh()).isEqualTo(c.ratioCiHigh());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ties", "spread"})
    void spreadRatioMatchesScipyAndItsIntervalScipysBootstrap(String dataset) throws Exception {
        JsonNode e = expected(dataset);
        double[] p = values(e.get("data").get("platform"));
        double[] v = values(e.get("data").get("virtual"));
        // one JVM a group holding every run, as the thesis's one server a kind
        Spread s = Spread.of(List.of(v), List.of(p));
        JsonNode x = e.get("spread");
        assertThat(s.ratio()).isCloseTo(x.get("ratio").asDouble(), within(EPS));
        assertThat(s.relativeRatio()).isCloseTo(x.get("relativeRatio").asDouble(), within(EPS));
        // a percentile bootstrap of the same statistic: SciPy's 20,000 resamples against loomscope's 2,000, so within
        // their Monte Carlo error
        assertThat(s.ratioCiLow())
                .isCloseTo(
                        x.get("ciLow").asDouble(), within(0.08 * x.get("ciLow").asDouble()));
        assertThat(s.ratioCiHigh())
                .isCloseTo(
                        x.get("ciHigh").asDouble(),
                        within(0.08 * x.get("ciHigh").asDouble()));
        assertThat(s.verdict()).isEqualTo("less spread");
        // the same runs as their own JVMs: resampling JVMs is resampling runs, the same interval in distribution
        Spread singletons = Spread.of(
                Arrays.stream(v).mapToObj(d -> new double[] {d}).toList(),
                Arrays.stream(p).mapToObj(d -> new double[] {d}).toList());
        assertThat(singletons.ratio()).isCloseTo(s.ratio(), within(EPS));
        assertThat(singletons.ratioCiHigh())
                .isCloseTo(
                        x.get("ciHigh").asDouble(),
                        within(0.08 * x.get("ciHigh").asDouble()));
    }

    @org.junit.jupiter.api.Test
    void spreadNeedsRunsAndADifferenceBeyondItsInterval() throws Exception {
        JsonNode small = expected("small");
        Spread few = Spread.of(
                List.of(values(small.get("data").get("virtual"))),
                List.of(values(small.get("data").get("platform"))));
        assertThat(few.verdict()).isEqualTo("too few runs"); // 7 and 8 runs
        double[] p = values(expected("spread").get("data").get("platform"));
        // a group against itself shifted: the same spread, an interval around 1
        double[] shifted = Arrays.stream(p).map(d -> d - 100).toArray();
        Spread same = Spread.of(List.of(shifted), List.of(p));
        assertThat(same.ratio()).isCloseTo(1, within(EPS));
        assertThat(same.ratioCiLow()).isLessThan(1);
        assertThat(same.ratioCiHigh()).isGreaterThan(1);
        assertThat(same.verdict()).isEqualTo("inconclusive");
        // every baseline run alike: no ratio to give
        assertThat(Spread.of(List.of(p), List.of(new double[] {5, 5, 5, 5, 5, 5, 5, 5})))
                .isNull();
    }

    @org.junit.jupiter.api.Test
    void quantilesLeaveTheirValuesInOrder() throws Exception {
        // 120 values: the quantile's selection once partitioned the array it was given, so a sorted array's first value
        // was no longer its minimum
        double[] v = values(expected("spread").get("data").get("platform"));
        Arrays.sort(v);
        double[] before = v.clone();
        Quantiles.of(v, 0.25);
        Quantiles.of(v, 0.75);
        assertThat(v).containsExactly(before);
        Boxplot b = Boxplot.of(values(expected("spread").get("data").get("platform")));
        assertThat(b.min()).isEqualTo(before[0]).isLessThanOrEqualTo(b.lowerWhisker());
        assertThat(b.max()).isEqualTo(before[before.length - 1]).isGreaterThanOrEqualTo(b.upperWhisker());
    }
}
