package dev.loomscope.analyzer.report;

import dev.loomscope.analyzer.jmh.JmhResult;
import dev.loomscope.analyzer.jmh.JmhView;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code loomscope jmh --html DIR}: the JMH context-switch report as one offline HTML page with charts. */
public final class JmhHtml {
    private JmhHtml() {}

    public static Path write(Path dir, List<JmhResult> results) {
        Page page = new Page("loomscope jmh", "loomscope: JMH results, platform vs virtual threads");
        StringBuilder h = page.body();
        h.append("<p class='meta'>")
                .append(Svg.esc(String.join(
                        ", ", results.stream().map(JmhResult::file).distinct().toList())))
                .append("</p>\n");
        Map<String, List<JmhView.Pair>> byBenchmark = new LinkedHashMap<>();
        for (JmhView.Pair p : JmhView.pairs(results)) {
            byBenchmark
                    .computeIfAbsent(
                            p.virtual().shortName() + " (" + p.virtual().mode() + ", "
                                    + p.virtual().unit() + ")",
                            k -> new ArrayList<>())
                    .add(p);
        }
        h.append("<section id='pairs'><h2>Virtual vs platform threads</h2>\n");
        if (byBenchmark.isEmpty()) {
            h.append("<p class='note'>no pair of results differs only by the thread kind</p>\n");
        }
        List<String> series = List.of("platform", "virtual");
        byBenchmark.forEach((name, pairs) -> {
            List<String> labels = pairs.stream()
                    .map(p -> p.label().substring(p.label().indexOf(' ') + 1))
                    .toList();
            int n = pairs.size();
            double[][] scores = new double[2][n];
            double[][] errors = new double[2][n];
            double[][] switches = new double[2][n];
            for (int k = 0; k < n; k++) {
                JmhView.Pair p = pairs.get(k);
                scores[0][k] = p.platform().score();
                scores[1][k] = p.virtual().score();
                errors[0][k] = p.platform().error();
                errors[1][k] = p.virtual().error();
                switches[0][k] = p.platform().switches();
                switches[1][k] = p.virtual().switches();
            }
            h.append("<div class='metric'><h3>").append(Svg.esc(name)).append("</h3>\n<div class='charts'>");
            h.append(Svg.bars(name + ": score", pairs.get(0).virtual().unit(), labels, series, scores, errors, false));
            boolean anySwitches = pairs.stream()
                    .anyMatch(p -> !Double.isNaN(p.virtual().switches())
                            || !Double.isNaN(p.platform().switches()));
            if (anySwitches) {
                h.append(Svg.bars(
                        name + ": context switches per operation", "#/op", labels, series, switches, null, true));
            }
            h.append("</div></div>\n");
        });
        h.append("</section>\n<section id='tables'><h2>Tables</h2>\n");
        JmhView.of(results).forEach(t -> h.append(HtmlTables.render(t)));
        h.append("</section>\n");
        return page.write(
                dir,
                "made by loomscope; errors are JMH's 99.9% intervals; context switches from perfnorm or the ctxsw"
                        + " profiler",
                "",
                "--html");
    }
}
