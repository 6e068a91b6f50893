package dev.loomscope.analyzer.render;

import java.util.List;
import java.util.Locale;

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
            case TEXT -> TextRenderer.render(tables);
            case CSV -> CsvRenderer.render(tables);
            case JSON -> JsonRenderer.render(tables);
            case MD -> MarkdownRenderer.render(tables);
            case SVG -> throw new IllegalStateException("tables have no SVG form: the command draws its chart itself");
        };
    }
}
