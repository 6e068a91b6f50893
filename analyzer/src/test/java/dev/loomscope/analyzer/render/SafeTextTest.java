package dev.loomscope.analyzer.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Names from a recording in text outputs: no formula in a spreadsheet, no escape code to the terminal. */
class SafeTextTest {
    static Table table() {
        Table t = new Table("pins", "Pins", List.of(Table.text("thread"), Table.number("count", "", 0)));
        t.row("=HYPERLINK(\"http://x\")", -3L);
        t.row("@SUM(A1)", 1L);
        t.row("worker\u001b[2J\u001b]0;owned\u0007", 2L);
        t.row("plain-name", 4L);
        t.row("evil\u202egnp.exe\nnext line", 5L);
        return t;
    }

    @Test
    void csvCellsThatWouldBeFormulasAreText() {
        String csv = Format.CSV.render(List.of(table()));
        assertThat(csv.lines().toList())
                .containsExactly(
                        "thread,count",
                        "\"'=HYPERLINK(\"\"http://x\"\")\",-3",
                        "'@SUM(A1),1",
                        "worker\u001b[2J\u001b]0;owned\u0007,2",
                        "plain-name,4",
                        "\"evil\u202egnp.exe",
                        "next line\",5");
    }

    @Test
    void terminalTextShowsControlCharactersEscaped() {
        String text = Format.TEXT.render(List.of(table()));
        assertThat(text)
                .doesNotContain("\u001b")
                .doesNotContain("\u0007")
                .contains("worker\\u001b[2J\\u001b]0;owned\\u0007");
        // a bidi override cannot turn the line around, nor a line break start one: the same rule as the agent's and the
        // MCP server's text
        assertThat(text).doesNotContain("\u202e").contains("evil\\u202egnp.exe\\u000anext line");
    }
}
