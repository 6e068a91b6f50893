package dev.loomscope.analyzer.render;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The output formats every tabular command offers, and SVG, the chart {@code compare} draws. */
public enum Format {
    TEXT,
    CSV,
    JSON,
    MD,
    /** Not tables: {@code compare}'s forest plot of its verdicts. */
    SVG;

    public static Format parse(String s) {
        return valueOf(s.toUpperCase(Locale.ROOT));
    }

    public String render(List<Table> tables) {
        return switch (this) {
            case TEXT -> each(tables, TextRenderer::render);
            case CSV -> CsvRenderer.render(tables);
            case JSON -> JsonRenderer.render(tables);
            case MD -> each(tables, MarkdownRenderer::render);
            case SVG -> throw new IllegalStateException("tables have no SVG form: the command draws its chart itself");
        };
    }

    /** Each table as {@code one} writes it, a blank line between two. */
    private static String each(List<Table> tables, Function<Table, String> one) {
        return String.join("\n", tables.stream().map(one).toList());
    }
}
