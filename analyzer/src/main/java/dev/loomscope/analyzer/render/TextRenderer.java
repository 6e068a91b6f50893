package dev.loomscope.analyzer.render;

import dev.loomscope.recording.InertText;
import java.util.function.IntFunction;

/**
 * Aligned text tables: text left, numbers right, units in the headers. Control characters in the text (a thread or
 * label from a recording can carry terminal escape codes) are shown escaped, {@code \u001b}, never sent to the
 * terminal.
 */
final class TextRenderer {
    private TextRenderer() {}

    /** One table: its title, its rows aligned under their headers, its notes. */
    static String render(Table t) {
        StringBuilder sb = new StringBuilder();
        sb.append(InertText.line(t.title())).append('\n');
        int n = t.columns().size();
        int[] width = new int[n];
        boolean[] numeric = new boolean[n];
        for (int c = 0; c < n; c++) {
            width[c] = t.columns().get(c).header().length();
        }
        for (Object[] row : t.rows()) {
            for (int c = 0; c < n; c++) {
                width[c] =
                        Math.max(width[c], InertText.line(t.format(c, row[c])).length());
                numeric[c] |= row[c] instanceof Number;
            }
        }
        if (!t.rows().isEmpty()) {
            line(sb, n, c -> t.columns().get(c).header(), width, numeric);
            for (Object[] row : t.rows()) {
                line(sb, n, c -> InertText.line(t.format(c, row[c])), width, numeric);
            }
        }
        for (String note : t.notes()) {
            sb.append("  note: ").append(InertText.line(note)).append('\n');
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, int n, IntFunction<String> cell, int[] width, boolean[] numeric) {
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
}
