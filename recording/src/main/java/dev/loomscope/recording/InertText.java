package dev.loomscope.recording;

/**
 * Text from a recording, a thread dump or an application (thread names, frames, labels) made inert before it reaches a
 * terminal or a client: every control, bidi and separator character but the line break and the tab written as a
 * {@code \\uXXXX} escape, so that it can neither move a terminal's cursor, colour it, ring it, turn a line around nor
 * start a line of its own. The one rule the agent's stderr lines and the MCP server's results both use.
 */
public final class InertText {
    private InertText() {}

    /** {@code text} with every character {@link #escaped} as {@code \\uXXXX}; the same string when none is. */
    public static String of(String text) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (escaped(c) && b == null) {
                b = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (escaped(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? text : b.toString();
    }

    /**
     * {@link #of}, and the line break and the tab escaped too: text that must stay one line (a table's cell, an error).
     */
    public static String line(String text) {
        String inert = of(text);
        return inert.indexOf('\n') < 0 && inert.indexOf('\t') < 0
                ? inert
                : inert.replace("\n", "\\u000a").replace("\t", "\\u0009");
    }

    /**
     * C0 controls but the line break and the tab, DEL, C1 controls, bidi marks, embeddings and isolates, line and
     * paragraph separators, BOM.
     */
    static boolean escaped(char c) {
        return c < 0x20 && c != '\n' && c != '\t'
                || c >= 0x7f && c < 0xa0
                || c == '\u061c'
                || c == '\u200e'
                || c == '\u200f'
                || c >= '\u2028' && c <= '\u202e'
                || c >= '\u2066' && c <= '\u2069'
                || c == '\ufeff';
    }
}
