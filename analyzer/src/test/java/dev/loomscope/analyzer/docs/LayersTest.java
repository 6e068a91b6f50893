package dev.loomscope.analyzer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each package keeps to its purpose: reading, reducing and rendering are
 * separate; a reducer never imports picocli or a renderer, a renderer never opens a recording, and
 * reading never depends on the reductions it feeds. Checked on the sources, as names they use.
 */
class LayersTest {
    static final Path MAIN = Path.of("src/main/java/dev/loomscope/analyzer");

    /** Where {@code pkg}'s sources name any of {@code forbidden}: "File.java: name". */
    static List<String> uses(String pkg, String... forbidden) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN.resolve(pkg))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String code = Files.readString(f).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
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
        assertThat(uses("read", "analyzer.reduce", "analyzer.render", "analyzer.views", "analyzer.cli", "picocli")).isEmpty();
    }

    @Test
    void reducersKnowNoCommandLineAndNoRenderer() throws IOException {
        assertThat(uses("reduce", "picocli", "analyzer.render", "analyzer.views", "analyzer.cli", "analyzer.report")).isEmpty();
    }

    @Test
    void viewsAndRenderersOpenNoRecording() throws IOException {
        for (String pkg : List.of("views", "render")) {
            assertThat(uses(pkg, "RecordingFile", "JfrParser", "RecordingReader", "JmcReader", "picocli")).as(pkg).isEmpty();
        }
    }

    /**
     * The door into a recording is {@code recording}'s {@code RecordingFile} and {@code JfrEvent}:
     * no product module's main code names the parser behind them.
     */
    @Test
    void onlyTheRecordingModuleNamesItsParser() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main")) && !m.getFileName().toString().equals("recording")).toList()) {
                try (Stream<Path> files = Files.walk(module.resolve("src/main"))) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                        String code = Files.readString(f);
                        for (String name : List.of("recording.parse", "JfrParser", "ParsedEvent", "ChunkScan", "ChunkReader")) {
                            if (code.contains(name)) {
                                found.add(module.getFileName() + "/" + f.getFileName() + ": " + name);
                            }
                        }
                    }
                }
            }
        }
        assertThat(found).isEmpty();
    }

    /** A room a reader takes in: no product module's main file over 450 lines (split it by role). */
    @Test
    void noMainFileIsOver450Lines() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main"))).toList()) {
                try (Stream<Path> files = Files.walk(module.resolve("src/main"))) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                        long lines = Files.readAllLines(f).size();
                        if (lines > 450) {
                            found.add(module.getFileName() + "/" + f.getFileName() + ": " + lines);
                        }
                    }
                }
            }
        }
        assertThat(found).isEmpty();
    }

    /** The agent's packages: {@code agent} uses {@code agent.work} and {@code agent.log}; neither uses {@code agent}'s classes back. */
    @Test
    void theAgentsSubpackagesDoNotUseTheAgentBack() throws IOException {
        Path agent = Path.of("../agent/src/main/java/dev/loomscope/agent");
        List<String> found = new ArrayList<>();
        for (String sub : List.of("work", "log")) {
            try (Stream<Path> files = Files.walk(agent.resolve(sub))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    if (java.util.regex.Pattern.compile("dev\\.loomscope\\.agent\\.[A-Z]").matcher(Files.readString(f)).find()) {
                        found.add(sub + "/" + f.getFileName());
                    }
                }
            }
        }
        assertThat(found).isEmpty();
    }
}
