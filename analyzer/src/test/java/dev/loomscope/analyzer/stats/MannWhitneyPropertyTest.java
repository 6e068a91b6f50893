package dev.loomscope.analyzer.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Mann-Whitney U test against SciPy on 3,000 generated datasets (random, shifted, ties, mostly zeros, constant, U
 * exactly at the centre; n from 2 to 30 a group), made by src/test/resources/stats/make_mannwhitney.py (the command is
 * in that file): U, and the p-value of the method {@link Comparison#test} chooses (exact without ties, else the normal
 * approximation with tie and continuity correction), and where the groups do not overlap, {@link Comparison#smallestP}.
 */
class MannWhitneyPropertyTest {

    @Test
    void everyDatasetMatchesScipy() throws Exception {
        Map<String, Integer> checked = new HashMap<>();
        int exact = 0;
        int apart = 0;
        try (InputStream in = getClass().getResourceAsStream("/stats/mannwhitney.tsv");
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            r.readLine();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split("\t");
                double[] x = numbers(f[1]);
                double[] y = numbers(f[2]);
                Comparison.Test t = Comparison.test(x, y);
                String where = f[0] + " " + Arrays.toString(x) + " vs " + Arrays.toString(y);
                assertThat(t.u()).as(where).isEqualTo(Double.parseDouble(f[3]));
                double expected = t.exact() ? Double.parseDouble(f[4]) : Double.parseDouble(f[5]);
                assertThat(t.p())
                        .as(where + (t.exact() ? " exact" : " asymptotic"))
                        .isCloseTo(expected, within(t.exact() ? 1e-12 : 1e-9));
                if (t.exact()) {
                    exact++;
                    if (t.u() == 0 || t.u() == (double) x.length * y.length) {
                        // groups apart: the smallest p their sizes allow, from which too few JVMs and the fewest JVMs
                        // are told
                        assertThat(Comparison.smallestP(x.length, y.length))
                                .as(where + " apart")
                                .isCloseTo(expected, within(1e-12));
                        apart++;
                    }
                }
                if (f[0].equals("centre")) {
                    assertThat(t.p()).as(where + ": no difference at all").isGreaterThan(0.9);
                }
                checked.merge(f[0], 1, Integer::sum);
            }
        }
        assertThat(checked).containsOnlyKeys("random", "shifted", "ties", "zeros", "constant", "centre");
        assertThat(checked.values()).allMatch(n -> n == 500);
        assertThat(exact).as("datasets tested by the exact distribution").isGreaterThan(500);
        assertThat(apart).as("datasets whose groups do not overlap").isGreaterThan(10);
    }

    /** The case that condemned the previous library: 10 interleaved values against 10 (U = 50) is p = 1, not 1e-5. */
    @Test
    void interleavedGroupsAreNotDifferent() {
        double[] a = new double[10];
        double[] b = new double[10];
        for (int i = 0; i < 10; i++) {
            a[i] = i % 2 == 0 ? 4 * i : 4 * i + 3;
            b[i] = i % 2 == 0 ? 4 * i + 1 : 4 * i + 2;
        }
        Comparison.Test t = Comparison.test(a, b);
        assertThat(t.u()).isEqualTo(50);
        assertThat(t.exact()).isTrue();
        assertThat(t.p()).isCloseTo(1.0, within(1e-12));
    }

    private static double[] numbers(String csv) {
        return Arrays.stream(csv.split(",")).mapToDouble(Double::parseDouble).toArray();
    }
}
