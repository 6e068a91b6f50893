package dev.loomscope.analyzer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Figures are quoted once: a row of a table in the documents that hold the measured figures (docs/benchmarks.md,
 * docs/results.md) appears once in the document, and a row of any other table once in its table. A copied row drifts
 * from the one measured.
 */
class FigureTablesTest {
    static final List<String> FIGURES = List.of("docs/benchmarks.md", "docs/results.md");

    /** The data rows of a page's tables (not their separator lines), each table a list. */
    static List<List<String>> tables(Path page) throws Exception {
        List<List<String>> tables = new ArrayList<>();
        List<String> current = null;
        for (String line : Files.readAllLines(page)) {
            String l = line.strip();
            if (!l.startsWith("|")) {
                current = null;
                continue;
            }
            if (current == null) {
                current = new ArrayList<>();
                tables.add(current);
                continue; // the header
            }
            if (!l.matches("[|:\\- ]+")) {
                current.add(l);
            }
        }
        return tables;
    }

    @Test
    void noFigureRowIsRepeated() throws Exception {
        List<String> repeated = new ArrayList<>();
        List<Path> pages;
        try (Stream<Path> docs = Files.list(DocsLinksTest.ROOT.resolve("docs"))) {
            pages = new ArrayList<>(
                    docs.filter(p -> p.toString().endsWith(".md")).sorted().toList());
        }
        pages.add(DocsLinksTest.ROOT.resolve("README.md"));
        for (Path page : pages) {
            boolean figures = FIGURES.stream().anyMatch(f -> page.endsWith(f));
            Set<String> inPage = new HashSet<>();
            for (List<String> table : tables(page)) {
                Set<String> inTable = new HashSet<>();
                for (String row : table) {
                    if (!inTable.add(row) || figures && !inPage.add(row)) {
                        repeated.add(DocsLinksTest.ROOT.relativize(page) + ": " + row);
                    }
                    inPage.add(row);
                }
            }
        }
        assertThat(repeated)
                .as("table rows written twice (quote a figure once, link to it elsewhere)")
                .isEmpty();
    }
}
