package dev.loomscope.analyzer.report;

import dev.loomscope.analyzer.render.Table;
import java.util.Map;

/**
 * A {@link Table} as an HTML table with its notes; statistics tables closed in a details element, each column
 * explained.
 */
final class HtmlTables {
    /** What a statistics column means: the header's tooltip. */
    static final Map<String, String> EXPLAINED = Map.ofEntries(
            Map.entry("n", "how many values"),
            Map.entry("min", "the smallest value"),
            Map.entry("max", "the largest value"),
            Map.entry("lower whisker", "the smallest value within 1.5 IQR below q1"),
            Map.entry("upper whisker", "the largest value within 1.5 IQR above q3"),
            Map.entry("q1", "first quartile (R's type 7, as NumPy's default)"),
            Map.entry("median", "the middle value"),
            Map.entry("q3", "third quartile (R's type 7)"),
            Map.entry("iqr", "interquartile range: q3 - q1"),
            Map.entry("outliers", "values beyond the whiskers (Tukey's fences at 1.5 IQR)"),
            Map.entry("mean", "arithmetic mean"),
            Map.entry("sd", "sample standard deviation"),
            Map.entry("cv", "coefficient of variation: sd / mean, the spread relative to the size"),
            Map.entry("x", "what the regression is on: the run index in time order, or the units of work"),
            Map.entry("slope", "change of the metric per step of x (ordinary least squares)"),
            Map.entry("intercept", "the fitted value at x = 0"),
            Map.entry("r2", "share of the variance the line explains, 0..1"),
            Map.entry("residual se", "typical distance of a value from the line"),
            Map.entry("slope ci low", "lower end of the slope's 95% confidence interval"),
            Map.entry("slope ci high", "upper end of the slope's 95% confidence interval"),
            Map.entry("slope p", "p-value of the slope (t-test against 0): small means a trend over the runs"),
            Map.entry(
                    "prediction \u00b1",
                    "mean half-width of the 95% prediction band: the margin for error of one more run"),
            Map.entry("baseline", "the group the others are compared with"),
            Map.entry("of", "medians, or means where many values are zero"),
            Map.entry("ratio", "the group's median (mean) of its JVMs' medians (means) / the baseline's"),
            Map.entry("ratio ci low", "lower end of the ratio's 95% interval (two-level percentile bootstrap)"),
            Map.entry("ratio ci high", "upper end of the ratio's 95% interval (two-level percentile bootstrap)"),
            Map.entry("mann-whitney u", "pairs (group, baseline) with the group's value larger, ties counting half"),
            Map.entry(
                    "p",
                    "two-sided Mann-Whitney U test: the chance of a difference this large if the groups were alike"),
            Map.entry("test", "the p-value exact (small samples without ties) or by normal approximation"),
            Map.entry(
                    "cliff's delta",
                    "P(group > baseline) - P(group < baseline): an effect size from -1 to 1, without units"),
            Map.entry("n baseline", "how many values the baseline has"));

    private HtmlTables() {}

    static String render(Table t) {
        StringBuilder sb =
                new StringBuilder("<table><caption>").append(Svg.esc(t.title())).append("</caption>\n");
        return body(sb, t);
    }

    /** The table closed in a details element, its title the summary: statistics on demand. */
    static String details(Table t) {
        StringBuilder sb = new StringBuilder("<details class='stats'><summary>")
                .append(Svg.esc(t.title()))
                .append("</summary>\n<table>\n");
        return body(sb, t) + "</details>\n";
    }

    private static String body(StringBuilder sb, Table t) {
        sb.append("<tr>");
        t.columns().forEach(c -> {
            String why = EXPLAINED.get(c.header());
            sb.append(why == null ? "<th>" : "<th title='" + Svg.esc(why) + "'>")
                    .append(Svg.esc(c.header()))
                    .append("</th>");
        });
        sb.append("</tr>\n");
        for (Object[] row : t.rows()) {
            sb.append("<tr>");
            for (int c = 0; c < row.length; c++) {
                sb.append(row[c] instanceof Number ? "<td class='n'>" : "<td>")
                        .append(Svg.esc(t.format(c, row[c])))
                        .append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n");
        t.notes().forEach(n -> sb.append("<p class='note'>").append(Svg.esc(n)).append("</p>\n"));
        return sb.toString();
    }
}
