package dev.loomscope.flamegraphs.render;

/**
 * Makes async-profiler's flame graph page safe for names from a recording: its converter puts the title raw into the
 * page and frame and thread names into its script as string literals with only {@code '} and {@code \} escaped, so a
 * name holding {@code </script>} would end the script and run markup of the recording's choosing. Text for the page is
 * escaped as HTML; in the script that carries the data every {@code </} and {@code <!--} becomes {@code <\/} and
 * {@code <\!--} (the same string to JavaScript, never a tag to the HTML parser) and U+2028/2029 their escapes.
 */
public final class SafeHtml {
    private SafeHtml() {}

    /** HTML text and attribute values: {@code & < > " '} escaped. */
    public static String text(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * The converter's page with its data script made inert: the template's second {@code <script>} (the first holds its
     * style helpers, both before any data) up to the {@code </script>} that ends the page. Data can put no tag before
     * the second: the title, the only data above it, is escaped as HTML.
     */
    static String flamePage(String html) {
        return flamePage(html, null);
    }

    /** As {@link #flamePage(String)}, with {@code note} (HTML, none of it from a recording) shown above the graph. */
    static String flamePage(String html, String note) {
        // the converter's page has a heading and no <title>: the browser's tab and history name it by its heading too
        int h1 = html.indexOf("<h1>");
        int h1End = h1 < 0 ? -1 : html.indexOf("</h1>", h1);
        int meta = html.indexOf("<meta charset='utf-8'>");
        if (h1End > h1 && meta >= 0 && meta < h1 && !html.contains("<title>")) {
            int at = meta + "<meta charset='utf-8'>".length();
            html = html.substring(0, at) + "\n<title>" + html.substring(h1 + 4, h1End) + "</title>"
                    + html.substring(at);
        }
        int canvas = html.indexOf("<canvas id='canvas'>");
        if (note != null && canvas >= 0) {
            html = html.substring(0, canvas) + "<p id='loomscope-note' style='clear: both; margin: 4px 0'>" + note
                    + "</p>\n" + html.substring(canvas);
        }
        int first = html.indexOf("<script>");
        int data = first < 0 ? -1 : html.indexOf("<script>", first + 1);
        int end = html.lastIndexOf("</script>");
        if (data < 0 || end < data) {
            return html; // not the converter's page (collapsed stacks are text)
        }
        int start = data + "<script>".length();
        String script = html.substring(start, end)
                .replace("</", "<\\/")
                .replace("<!--", "<\\!--")
                .replace("\u2028", "\\u2028")
                .replace("\u2029", "\\u2029");
        return html.substring(0, start) + script + html.substring(end);
    }
}
