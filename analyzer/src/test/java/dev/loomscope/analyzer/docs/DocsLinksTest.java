package dev.loomscope.analyzer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The README and docs/ link to files that exist and to headings those files have (GitHub's anchors). */
class DocsLinksTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void everyRelativeLinkAndAnchorResolves() throws Exception {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages) {
            Matcher m = LINK.matcher(Files.readString(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // a web address
                }
                links++;
                int hash = target.indexOf('#');
                Path file = hash == 0
                        ? page
                        : page.getParent()
                                .resolve(hash < 0 ? target : target.substring(0, hash))
                                .normalize();
                if (!Files.exists(file)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0 && !anchors(file).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).isEmpty();
        assertThat(links).isGreaterThan(10);
    }

    /** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
    static Set<String> anchors(Path file) throws Exception {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(l -> l.startsWith("#"))
                    .map(l -> l.replaceFirst("^#+\\s*", "")
                            .toLowerCase(Locale.ROOT)
                            .replaceAll("[^\\p{L}\\p{N} _-]", "")
                            .replace(' ', '-'))
                    .collect(Collectors.toSet());
        }
    }
}
