package dev.loomscope.analyzer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.recording.JdkFields;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each package keeps to its purpose: reading, reducing and rendering are separate; a reducer never imports picocli or a
 * renderer, a renderer never opens a recording, and reading never depends on the reductions it feeds. Checked on the
 * sources, as names they use.
 */
class LayersTest {
    static final Path MAIN = Path.of("src/main/java/dev/loomscope/analyzer");

    /** Where {@code pkg}'s sources name any of {@code forbidden}: "File.java: name". */
    static List<String> uses(String pkg, String... forbidden) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN.resolve(pkg))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String code =
                        Files.readString(f).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
                for (String name : forbidden) {
                    if (code.contains(name)) {
                        found.add(f.getFileName() + ": " + name);
                    }
                }
            }
        }
        return found;
    }

    @Test
    void readingDependsOnNeitherTheReductionsNorTheOutputs() throws IOException {
        assertThat(uses("read", "analyzer.reduce", "analyzer.render", "analyzer.views", "analyzer.cli", "picocli"))
                .isEmpty();
    }

    @Test
    void reducersKnowNoCommandLineAndNoRenderer() throws IOException {
        assertThat(uses("reduce", "picocli", "analyzer.render", "analyzer.views", "analyzer.cli", "analyzer.report"))
                .isEmpty();
    }

    @Test
    void viewsAndRenderersOpenNoRecording() throws IOException {
        for (String pkg : List.of("views", "render")) {
            assertThat(uses(pkg, "RecordingFile", "JfrParser", "RecordingReader", "JmcReader", "picocli"))
                    .as(pkg)
                    .isEmpty();
        }
    }

    /**
     * The door into a recording is {@code recording}'s {@code RecordingParts}, {@code RecordingFile} and
     * {@code JfrEvent}: no product module's main code names the parser behind them, scans a file's chunks or expands a
     * compressed one.
     */
    @Test
    void onlyTheRecordingModuleNamesItsParser() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path f : mainSources()) {
            if (module(f).equals("recording")) {
                continue;
            }
            String code = Files.readString(f);
            for (String name : List.of(
                    "JfrParser",
                    "ParsedEvent",
                    "ChunkScan",
                    "ChunkReader",
                    "RecordingFile.scan(",
                    "Compressed.detect(",
                    "Compressed.expand(",
                    "GzipMembers",
                    "LZ4Frame")) {
                if (code.contains(name)) {
                    found.add(module(f) + "/" + f.getFileName() + ": " + name);
                }
            }
        }
        assertThat(found).isEmpty();
    }

    /**
     * Each match of {@code pattern} in the main sources of every module but {@code declaredIn}: "module/File.java:
     * match" for each group-{@code group} value {@code named} accepts.
     */
    static List<String> matches(String declaredIn, Pattern pattern, int group, Predicate<String> named)
            throws IOException {
        List<String> found = new ArrayList<>();
        for (Path f : mainSources()) {
            if (f.endsWith(declaredIn)) {
                continue;
            }
            Matcher m = pattern.matcher(Files.readString(f));
            while (m.find()) {
                if (named.test(m.group(group))) {
                    found.add(module(f) + "/" + f.getFileName() + ": " + m.group());
                }
            }
        }
        return found;
    }

    /**
     * The JDK's event names are declared once, in {@code recording.JdkEvents}: no other main file of any module writes
     * one as a string ("jdk." and a capital; prose naming an event in a sentence is not a name used as data).
     */
    @Test
    void theJdksEventNamesAreDeclaredOnce() throws IOException {
        Pattern name = Pattern.compile("\"jdk\\.[A-Z][A-Za-z]*(#[a-zA-Z]+)?\"");
        assertThat(matches("JdkEvents.java", name, 0, n -> true)).isEmpty();
    }

    /**
     * The fields of the JDK's events are named once, in {@code recording.JdkFields}: no other main file of any module
     * reads one by a string of its own (as an argument of an event's field accessor).
     */
    @Test
    void theJdksFieldNamesAreDeclaredOnce() throws IOException, IllegalAccessException {
        Set<String> names = new HashSet<>();
        for (Field f : JdkFields.class.getFields()) {
            names.add((String) f.get(null));
        }
        Pattern read = Pattern.compile("\\.(hasField|string|longValue|doubleValue|intValue|durationField|threadName"
                + "|threadIsVirtual|getString|getThread|getFloat|getLong|getBoolean|getDouble|getInt|getValue|present"
                + "|value|getInstant|getDuration)\\(((?:\\s*\"\\w+\",?)+)\\)");
        assertThat(names).contains("pinnedReason", "startTime");
        assertThat(matches(
                        "JdkFields.java",
                        read,
                        2,
                        args -> Stream.of(args.replaceAll("[\\s\"]", "").split(","))
                                .anyMatch(names::contains)))
                .isEmpty();
    }

    /**
     * The agent's packages: {@code agent} uses {@code agent.work} and {@code agent.log}; neither uses {@code agent}'s
     * classes back.
     */
    @Test
    void theAgentsSubpackagesDoNotUseTheAgentBack() throws IOException {
        Path agent = Path.of("../agent/src/main/java/dev/loomscope/agent");
        List<String> found = new ArrayList<>();
        for (String sub : List.of("work", "log")) {
            try (Stream<Path> files = Files.walk(agent.resolve(sub))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    if (Pattern.compile("dev\\.loomscope\\.agent\\.[A-Z]")
                            .matcher(Files.readString(f))
                            .find()) {
                        found.add(sub + "/" + f.getFileName());
                    }
                }
            }
        }
        assertThat(found).isEmpty();
    }

    /**
     * Each main package of every module, and the loomscope packages its code names (imports and qualified names;
     * comments and strings left out).
     */
    static Map<String, Set<String>> packageUses() throws IOException {
        Pattern pkgLine = Pattern.compile("(?m)^package ([\\w.]+);");
        Pattern named = Pattern.compile("\\b(dev\\.loomscope(?:\\.[a-z]\\w*)+)\\.[A-Z*]");
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Path f : mainSources()) {
            if (!f.toString().contains("/src/main/java/")) {
                continue;
            }
            String code = SourceFormTest.codeOnly(Files.readString(f));
            Matcher p = pkgLine.matcher(code);
            if (!p.find()) {
                continue;
            }
            Set<String> out = uses.computeIfAbsent(p.group(1), k -> new TreeSet<>());
            Matcher m = named.matcher(code);
            while (m.find()) {
                if (!m.group(1).equals(p.group(1))) {
                    out.add(m.group(1));
                }
            }
        }
        return uses;
    }

    /** No package of any module is reached back from a package it uses: the arrows between packages form no cycle. */
    @Test
    void noPackageCycleAnywhere() throws IOException {
        Map<String, Set<String>> uses = packageUses();
        assertThat(uses).as("packages found").hasSizeGreaterThan(20);
        List<String> cycles = new ArrayList<>();
        for (String from : uses.keySet()) {
            // every package reachable from `from`; a cycle when `from` is among them
            Deque<List<String>> paths = new ArrayDeque<>(List.of(List.of(from)));
            Set<String> seen = new HashSet<>();
            while (!paths.isEmpty()) {
                List<String> path = paths.poll();
                for (String next : uses.getOrDefault(path.get(path.size() - 1), Set.of())) {
                    List<String> longer = new ArrayList<>(path);
                    longer.add(next);
                    if (next.equals(from)) {
                        cycles.add(String.join(" -> ", longer));
                    } else if (seen.add(next)) {
                        paths.add(longer);
                    }
                }
            }
        }
        assertThat(cycles).isEmpty();
    }

    /**
     * docs/architecture.md names the analyzer's packages in an order in which each uses only those before it: every
     * package is named there, and the code keeps to the order.
     */
    @Test
    void theAnalyzersPackagesKeepTheOrderTheMapStates() throws IOException {
        String map = Files.readString(Path.of("../docs/architecture.md"));
        int from = map.indexOf("Its packages, each using only those");
        assertThat(from).as("the sentence that states the order").isPositive();
        String bullet = map.substring(from, map.indexOf("\n- ", from));
        Set<String> dirs;
        try (Stream<Path> d = Files.list(MAIN)) {
            dirs = d.filter(Files::isDirectory)
                    .map(x -> x.getFileName().toString())
                    .collect(Collectors.toSet());
        }
        List<String> order = Pattern.compile("`([a-z]+)`")
                .matcher(bullet)
                .results()
                .map(m -> m.group(1))
                .filter(dirs::contains)
                .distinct()
                .toList();
        assertThat(order).as("packages the map names").containsExactlyInAnyOrderElementsOf(dirs);
        List<String> against = new ArrayList<>();
        packageUses().forEach((pkg, used) -> {
            String prefix = "dev.loomscope.analyzer.";
            if (pkg.startsWith(prefix) && order.contains(pkg.substring(prefix.length()))) {
                int at = order.indexOf(pkg.substring(prefix.length()));
                used.stream()
                        .filter(u -> u.startsWith(prefix))
                        .map(u -> u.substring(prefix.length()).split("\\.")[0])
                        .filter(u -> order.indexOf(u) > at)
                        .forEach(u -> against.add(pkg.substring(prefix.length()) + " uses " + u));
            }
        });
        assertThat(against).as("uses of a package named later").isEmpty();
    }

    /** The main sources of every module ({@link SourceFormTest#sources()} under {@code src/main}). */
    static List<Path> mainSources() throws IOException {
        return SourceFormTest.sources().stream()
                .filter(f -> f.toString().contains("/src/main/"))
                .toList();
    }

    /** The module a source of {@link SourceFormTest#sources()} is in ({@code ../MODULE/src/...}). */
    static String module(Path source) {
        return source.getName(1).toString();
    }
}
