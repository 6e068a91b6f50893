package dev.loomscope.analyzer.render;

import java.util.List;

/**
 * RFC 4180 CSV: one header row per table (a "table" column names it when there are several), raw numbers. A text cell
 * that a spreadsheet would take for a formula (it starts with {@code = + - @}, a tab or a carriage return: a thread or
 * label from a recording can) gets a leading {@code '} (OWASP's advice), so it opens as the text it is.
 */
final class CsvRenderer {
    private CsvRenderer() {}

    static String render(List<Table> tables) {
        StringBuilder sb = new StringBuilder();
        boolean several = tables.size() > 1;
        for (Table t : tables) {
            if (several && !sb.isEmpty()) {
                sb.append('\n');
            }
            if (several) {
                sb.append("table,");
            }
            sb.append(String.join(
                            ",",
                            t.columns().stream().map(c -> quote(c.header())).toList()))
                    .append('\n');
            for (Object[] row : t.rows()) {
                if (several) {
                    sb.append(quote(t.name())).append(',');
                }
                for (int c = 0; c < row.length; c++) {
                    sb.append(c > 0 ? "," : "").append(raw(row[c]));
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    static String raw(Object cell) {
        if (cell == null || (cell instanceof Double d && (d.isNaN() || d.isInfinite()))) {
            return "";
        }
        if (cell instanceof Number) {
            return cell.toString();
        }
        return quote(cell.toString());
    }

    static String quote(String text) {
        String s = !text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0 ? "'" + text : text;
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
