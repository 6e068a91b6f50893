package dev.loomscope.analyzer.render;

import java.util.List;

/**
 * Aligned text tables: text left, numbers right, units in the headers. Control characters in the
 * text (a thread or label from a recording can carry terminal escape codes) are shown escaped,
 * {@code \u001b}, never sent to the terminal.
 */
final class TextRenderer {
    private TextRenderer() {}

    static String render(List<Table> tables) {
        StringBuilder sb = new StringBuilder();
        for (Table t : tables) {
            if (!sb.isEmpty()) {
                sb.append('\n');
            }
            sb.append(printable(t.title())).append('\n');
            int n = t.columns().size();
            int[] width = new int[n];
            boolean[] numeric = new boolean[n];
            for (int c = 0; c < n; c++) {
                width[c] = t.columns().get(c).header().length();
            }
            for (Object[] row : t.rows()) {
                for (int c = 0; c < n; c++) {
                    width[c] = Math.max(width[c], printable(t.format(c, row[c])).length());
                    numeric[c] |= row[c] instanceof Number;
                }
            }
            if (!t.rows().isEmpty()) {
                line(sb, n, c -> t.columns().get(c).header(), width, numeric);
                for (Object[] row : t.rows()) {
                    line(sb, n, c -> printable(t.format(c, row[c])), width, numeric);
                }
            }
            for (String note : t.notes()) {
                sb.append("  note: ").append(printable(note)).append('\n');
            }
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, int n, java.util.function.IntFunction<String> cell, int[] width, boolean[] numeric) {
        sb.append(' ');
        for (int c = 0; c < n; c++) {
            String s = cell.apply(c);
            String pad = " ".repeat(width[c] - s.length());
            sb.append(' ').append(numeric[c] ? pad + s : s + pad).append(c < n - 1 ? " " : "");
        }
        int end = sb.length();
        while (end > 0 && sb.charAt(end - 1) == ' ') {
            end--;
        }
        sb.setLength(end);
        sb.append('\n');
    }

    /** {@code s} with every control character (C0, DEL, C1) written as a {@code \\uXXXX} escape. */
    static String printable(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                if (sb == null) {
                    sb = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                sb.append(String.format("\\u%04x", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }
}
