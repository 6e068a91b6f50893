package dev.loomscope.analyzer.render;

/** GitHub-flavoured Markdown tables under a heading each; numbers right-aligned. */
final class MarkdownRenderer {
    private MarkdownRenderer() {}

    /** One table: its heading, its rows, its notes in italics. */
    static String render(Table t) {
        StringBuilder sb = new StringBuilder();
        sb.append("### ").append(t.title()).append("\n\n");
        if (!t.rows().isEmpty()) {
            sb.append('|');
            t.columns().forEach(c -> sb.append(' ').append(escape(c.header())).append(" |"));
            sb.append("\n|");
            for (int c = 0; c < t.columns().size(); c++) {
                int col = c;
                boolean numeric = t.rows().stream().anyMatch(r -> r[col] instanceof Number);
                sb.append(numeric ? "---:|" : "---|");
            }
            sb.append('\n');
            for (Object[] row : t.rows()) {
                sb.append('|');
                for (int c = 0; c < row.length; c++) {
                    sb.append(' ').append(escape(t.format(c, row[c]))).append(" |");
                }
                sb.append('\n');
            }
        }
        for (String note : t.notes()) {
            sb.append("\n_").append(escape(note)).append("_\n");
        }
        return sb.toString();
    }

    private static String escape(String s) {
        return s.replace("|", "\\|");
    }
}
