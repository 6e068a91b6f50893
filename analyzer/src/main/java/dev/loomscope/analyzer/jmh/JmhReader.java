package dev.loomscope.analyzer.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loomscope.analyzer.read.JsonFile;
import dev.loomscope.options.BadDataException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JMH's JSON results ({@code -rf json}): an array of benchmark objects with {@code benchmark}, {@code mode},
 * {@code forks}, {@code params}, {@code primaryMetric} and {@code secondaryMetrics}. Secondary keys are taken with or
 * without the leading "·" older JMH versions wrote.
 */
public final class JmhReader {
    /** perfnorm's context-switch keys, kernel+user first. */
    static final List<String> PERFNORM_SWITCHES = List.of("context-switches", "cs", "context-switches:u", "cs:u");

    static final List<String> PERFNORM_MIGRATIONS =
            List.of("cpu-migrations", "migrations", "cpu-migrations:u", "migrations:u");
    static final String CTXSW = "ctxsw.context-switches";

    private JmhReader() {}

    public static List<JmhResult> read(Path file) {
        String where = file.toString();
        JsonNode root = JsonFile.read(file, "a JMH result", "give JMH's -rf json output, not its text");
        if (root == null || !root.isArray()) {
            throw new BadDataException(
                    where + ": not a JMH result (expected a JSON array of benchmarks; run JMH with -rf json)");
        }
        List<JmhResult> results = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            results.add(result(where, i, root.get(i)));
        }
        return results;
    }

    private static JmhResult result(String where, int index, JsonNode b) {
        JsonNode primary = b.path("primaryMetric");
        if (!b.path("benchmark").isTextual() || !primary.path("score").isNumber()) {
            throw new BadDataException(where + ": entry " + (index + 1)
                    + " is not a JMH benchmark result (no benchmark name or primaryMetric.score)");
        }
        Map<String, String> params = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> p = b.path("params").fields();
        while (p.hasNext()) {
            Map.Entry<String, JsonNode> e = p.next();
            params.put(e.getKey(), e.getValue().asText());
        }
        Map<String, JsonNode> secondary = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> s = b.path("secondaryMetrics").fields();
        while (s.hasNext()) {
            Map.Entry<String, JsonNode> e = s.next();
            secondary.put(e.getKey().startsWith("\u00b7") ? e.getKey().substring(1) : e.getKey(), e.getValue());
        }
        String perfKey = PERFNORM_SWITCHES.stream()
                .filter(secondary::containsKey)
                .findFirst()
                .orElse(null);
        String migrationKey = PERFNORM_MIGRATIONS.stream()
                .filter(secondary::containsKey)
                .findFirst()
                .orElse(null);
        int forks = b.path("forks").asInt(1);
        int iterations = b.path("measurementIterations").asInt(0);
        return new JmhResult(
                where,
                b.get("benchmark").asText(),
                b.path("mode").asText("?"),
                params,
                forks,
                iterations,
                primary.get("score").asDouble(),
                number(primary.path("scoreError")),
                primary.path("scoreUnit").asText(""),
                perfKey == null ? Double.NaN : number(secondary.get(perfKey).path("score")),
                perfKey,
                secondary.containsKey(CTXSW) ? number(secondary.get(CTXSW).path("score")) : Double.NaN,
                migrationKey == null
                        ? Double.NaN
                        : number(secondary.get(migrationKey).path("score")),
                rawData(primary.path("rawData")));
    }

    /** The iterations of each fork ({@code [[fork 1's], [fork 2's], ...]}); forks without a number left out. */
    private static List<double[]> rawData(JsonNode forks) {
        List<double[]> out = new ArrayList<>();
        for (JsonNode fork : forks) {
            List<Double> v = new ArrayList<>();
            for (JsonNode it : fork) {
                double d = number(it);
                if (!Double.isNaN(d)) {
                    v.add(d);
                }
            }
            if (!v.isEmpty()) {
                out.add(v.stream().mapToDouble(Double::doubleValue).toArray());
            }
        }
        return out;
    }

    /** A number, or NaN for JMH's "NaN" strings and absent values. */
    private static double number(JsonNode n) {
        if (n.isNumber()) {
            return n.asDouble();
        }
        if (n.isTextual()) {
            try {
                return Double.parseDouble(n.asText());
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }
}
