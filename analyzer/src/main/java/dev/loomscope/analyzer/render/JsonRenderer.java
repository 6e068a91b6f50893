package dev.loomscope.analyzer.render;

import java.util.List;

/**
 * JSON, one stable shape for every command: {@code {"tables": [{"name", "title", "columns": [{"name", "unit"}], "rows":
 * [{column name: value}], "notes": [..]}]}}; numbers are numbers, not applicable is null.
 */
public final class JsonRenderer {
    private JsonRenderer() {}

    static String render(List<Table> tables) {
        StringBuilder sb = new StringBuilder("{\"tables\": [");
        for (int i = 0; i < tables.size(); i++) {
            Table t = tables.get(i);
            sb.append(i > 0 ? "," : "")
                    .append("\n  {\"name\": ")
                    .append(string(t.name()))
                    .append(", \"title\": ")
                    .append(string(t.title()));
            sb.append(",\n   \"columns\": [");
            for (int c = 0; c < t.columns().size(); c++) {
                Table.Column col = t.columns().get(c);
                sb.append(c > 0 ? ", " : "")
                        .append("{\"name\": ")
                        .append(string(col.name()))
                        .append(", \"unit\": ")
                        .append(string(col.unit()))
                        .append('}');
            }
            sb.append("],\n   \"rows\": [");
            for (int r = 0; r < t.rows().size(); r++) {
                Object[] row = t.rows().get(r);
                sb.append(r > 0 ? "," : "").append("\n    {");
                for (int c = 0; c < row.length; c++) {
                    sb.append(c > 0 ? ", " : "")
                            .append(string(t.columns().get(c).name()))
                            .append(": ")
                            .append(value(row[c]));
                }
                sb.append('}');
            }
            sb.append(t.rows().isEmpty() ? "]" : "\n   ]").append(",\n   \"notes\": [");
            for (int n = 0; n < t.notes().size(); n++) {
                sb.append(n > 0 ? ", " : "").append(string(t.notes().get(n)));
            }
            sb.append("]}");
        }
        return sb.append("\n]}\n").toString();
    }

    public static String value(Object v) {
        if (v == null
                || (v instanceof Double d && (d.isNaN() || d.isInfinite()))
                || (v instanceof Float f && (f.isNaN() || f.isInfinite()))) {
            return "null";
        }
        if (v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        return string(v.toString());
    }

    public static String string(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
