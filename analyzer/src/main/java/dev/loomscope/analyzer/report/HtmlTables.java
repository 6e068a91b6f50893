package dev.loomscope.analyzer.report;

import dev.loomscope.analyzer.render.Table;

/** A {@link Table} as an HTML table with its notes. */
final class HtmlTables {
    private HtmlTables() {}

    static String render(Table t) {
        StringBuilder sb = new StringBuilder("<table><caption>").append(Svg.esc(t.title())).append("</caption>\n<tr>");
        t.columns().forEach(c -> sb.append("<th>").append(Svg.esc(c.header())).append("</th>"));
        sb.append("</tr>\n");
        for (Object[] row : t.rows()) {
            sb.append("<tr>");
            for (int c = 0; c < row.length; c++) {
                sb.append(row[c] instanceof Number ? "<td class='n'>" : "<td>").append(Svg.esc(t.format(c, row[c]))).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n");
        t.notes().forEach(n -> sb.append("<p class='note'>").append(Svg.esc(n)).append("</p>\n"));
        return sb.toString();
    }
}
