package dev.loomscope.analyzer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the formatter (spotless with palantir-java-format, 120 columns) cannot hold by itself: a string literal or a
 * comment it leaves over 120 columns, and a class named by its package inline where an import would do. Checked on
 * every module's sources, main and test.
 */
class SourceFormTest {
    static final int COLUMNS = 120;
    static final Pattern QUALIFIED =
            Pattern.compile("(?<![\\w.@])((?:java|javax|jdk|sun|com|org|dev|one|jakarta|io|net|picocli)"
                    + "(?:\\.(?:[a-z_][a-z0-9_]*|HdrHistogram))+)"
                    + "\\.([A-Z]\\w*)");
    static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+([\\w.]+)\\.(\\w+)\\s*;");
    static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
    static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");

    static List<Path> sources() throws IOException {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            for (Path src : modules.map(m -> m.resolve("src"))
                    .filter(Files::isDirectory)
                    .toList()) {
                try (Stream<Path> files = Files.walk(src)) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(found::add);
                }
            }
        }
        assertThat(found)
                .as("the modules' sources, found from the analyzer's directory")
                .hasSizeGreaterThan(100);
        return found;
    }

    @Test
    void noLineIsOverTheColumns() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path f : sources()) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).length() > COLUMNS) {
                    found.add(f + ":" + (i + 1) + ": " + lines.get(i).length() + " columns");
                }
            }
        }
        assertThat(found).as("split the literal or the comment").isEmpty();
    }

    /**
     * A class is named by its package only where its simple name would mean another class: one imported from elsewhere,
     * declared in the file, or in the file's own package.
     */
    @Test
    void noClassIsNamedByItsPackageWhereAnImportWouldDo() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path f : sources()) {
            found.addAll(needlesslyQualified(f, Files.readString(f), siblings(f)));
        }
        assertThat(found).as("import the class and use its simple name").isEmpty();
    }

    @Test
    void theQualifiedNameCheckTellsANeedFromAHabit() {
        String source = """
                package a.b;

                import java.util.List;

                class C {
                    // java.util.Map.Entry in a comment, "java.util.Set" in a string
                    java.util.Map<String, java.awt.List> m;
                    java.util.List<String> l;
                    org.HdrHistogram.Histogram h;
                }
                """;
        assertThat(needlesslyQualified(Path.of("C.java"), source, Set.of("C")))
                .containsExactly(
                        "C.java:7: java.util.Map", "C.java:8: java.util.List", "C.java:9: org.HdrHistogram.Histogram");
    }

    /** The simple names of the classes in {@code f}'s package, in its own module's main and test sources. */
    static Set<String> siblings(Path f) throws IOException {
        Set<String> names = new HashSet<>();
        String dir = f.getParent().toString();
        for (String other : new HashSet<>(
                List.of(dir, dir.replace("/src/test/", "/src/main/"), dir.replace("/src/main/", "/src/test/")))) {
            Path d = Path.of(other);
            if (Files.isDirectory(d)) {
                try (Stream<Path> files = Files.list(d)) {
                    files.map(p -> p.getFileName().toString())
                            .filter(n -> n.endsWith(".java"))
                            .forEach(n -> names.add(n.substring(0, n.length() - 5)));
                }
            }
        }
        return names;
    }

    /** "File:line: qualified name" for each class named by its package in code (not comments or strings). */
    static List<String> needlesslyQualified(Path file, String source, Set<String> siblings) {
        String code = codeOnly(source);
        Map<String, String> imported = new HashMap<>();
        Matcher im = IMPORT.matcher(source);
        while (im.find()) {
            imported.put(im.group(2), im.group(1));
        }
        Matcher pm = PACKAGE.matcher(source);
        String pkg = pm.find() ? pm.group(1) : "";
        Set<String> declared = new HashSet<>();
        Matcher dm = DECLARED.matcher(code);
        while (dm.find()) {
            declared.add(dm.group(1));
        }
        List<String> found = new ArrayList<>();
        Matcher m = QUALIFIED.matcher(code);
        while (m.find()) {
            int lineStart = code.lastIndexOf('\n', m.start()) + 1;
            String line = code.substring(lineStart, m.start()).strip();
            String from = m.group(1);
            String name = m.group(2);
            boolean needed = !from.equals(pkg)
                    && ((imported.containsKey(name) && !imported.get(name).equals(from))
                            || declared.contains(name)
                            || siblings.contains(name));
            if (!line.startsWith("import") && !line.startsWith("package") && !needed) {
                long lineNo = code.substring(0, m.start())
                                .chars()
                                .filter(c -> c == '\n')
                                .count()
                        + 1;
                found.add(file + ":" + lineNo + ": " + from + "." + name);
            }
        }
        return found;
    }

    /** The source with its comments, strings, text blocks and character literals blanked out, lines kept. */
    static String codeOnly(String s) {
        StringBuilder out = new StringBuilder(s);
        int i = 0;
        while (i < s.length()) {
            int end;
            if (s.startsWith("//", i)) {
                end = s.indexOf('\n', i);
            } else if (s.startsWith("/*", i)) {
                end = s.indexOf("*/", i + 2);
                end = end < 0 ? -1 : end + 2;
            } else if (s.startsWith("\"\"\"", i)) {
                end = i + 3;
                while ((end = s.indexOf("\"\"\"", end)) > 0 && s.charAt(end - 1) == '\\') {
                    end++;
                }
                end = end < 0 ? -1 : end + 3;
            } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
                char quote = s.charAt(i);
                end = i + 1;
                while (end < s.length() && s.charAt(end) != quote) {
                    end += s.charAt(end) == '\\' ? 2 : 1;
                }
                end++;
            } else {
                i++;
                continue;
            }
            end = end < 0 || end > s.length() ? s.length() : end;
            for (int k = i; k < end; k++) {
                if (out.charAt(k) != '\n') {
                    out.setCharAt(k, ' ');
                }
            }
            i = end;
        }
        return out.toString();
    }
}
