package dev.loomscope.analyzer.report;

import dev.loomscope.options.BadDataException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One of loomscope's self-contained HTML pages (the report, the JMH report): the head with the shared style, the
 * heading, the body the caller appends, a footer; written as {@code DIR/index.html}.
 */
final class Page {
    private final StringBuilder html = new StringBuilder();

    Page(String title, String heading) {
        html.append("<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n<title>")
                .append(Svg.esc(title))
                .append("</title>\n<style>\n")
                .append(HtmlReport.CSS)
                .append("</style>\n</head>\n<body>\n<h1>")
                .append(Svg.esc(heading))
                .append("</h1>\n");
    }

    /** The body so far, to append to. */
    StringBuilder body() {
        return html;
    }

    /**
     * Ends the page with {@code footer} (text) and {@code script} (markup, or empty) and writes it as
     * {@code dir/index.html}; when it cannot, bad data naming the directory and the {@code option} that chose it.
     */
    Path write(Path dir, String footer, String script, String option) {
        html.append("<footer>")
                .append(Svg.esc(footer))
                .append("</footer>\n")
                .append(script)
                .append("</body>\n</html>\n");
        try {
            Files.createDirectories(dir);
            Path index = dir.resolve("index.html");
            Files.writeString(index, html.toString());
            return index;
        } catch (IOException e) {
            throw new BadDataException(dir.toAbsolutePath() + ": cannot write the report: " + e.getMessage()
                    + " (choose another " + option + ")");
        }
    }
}
