package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope mcp} driven by the reference MCP client (PyPI's {@code mcp}, which .ci/run
 * installs): its tools listed, their answers the JSON the commands print, errors as tool errors.
 */
class McpIT {
    @TempDir
    Path dir;

    static String run(String... args) {
        StringWriter out = new StringWriter();
        dev.loomscope.analyzer.cli.Main.run(args, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
        return out.toString();
    }

    @Test
    void aCodingAgentGetsTheCommandsJson() throws Exception {
        ChildJvm.Result probe = ChildJvm.exec(List.of("python3", "-c", "import mcp"), dir, 60);
        if (probe.exitCode() != 0 && System.getenv("CI") != null) {
            throw new AssertionError("CI: PyPI's mcp is not installed (.ci/run installs it): " + probe.stderr());
        }
        Assumptions.assumeTrue(probe.exitCode() == 0, "no python3 with PyPI's mcp here (pip install mcp)");
        Path recording = Fixtures.sleep(dir, "virtual");
        Path platform = Fixtures.sleep(dir, "platform");
        Path dump = Path.of("src/test/resources/threads/monitor-25.json").toAbsolutePath();
        ObjectMapper json = new ObjectMapper();
        Path calls = dir.resolve("calls.json");
        json.writeValue(calls.toFile(), List.of(
                java.util.Map.of("tool", "summary", "arguments", java.util.Map.of("paths", List.of(recording.toString()))),
                java.util.Map.of("tool", "threads", "arguments", java.util.Map.of("paths", List.of(dump.toString()))),
                java.util.Map.of("tool", "gc", "arguments", java.util.Map.of("paths", List.of(dir.resolve("missing.jfr").toString()))),
                java.util.Map.of("tool", "flame", "arguments", java.util.Map.of("paths", List.of(recording.toString()))),
                java.util.Map.of("tool", "flame-diff", "arguments", java.util.Map.of("paths", List.of(platform.toString(), recording.toString()),
                        "options", List.of("--top", "5")))));
        Path client = dir.resolve("client.py");
        Files.copy(Path.of("src/test/resources/mcp/client.py"), client);
        ChildJvm.Result r = ChildJvm.exec(List.of("python3", client.toString(), calls.toString(), ChildJvm.javaExecutable(), "-jar",
                Fixtures.CLI.toString(), "mcp"), dir, 180);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        List<JsonNode> lines = new ArrayList<>();
        for (String l : r.stdout().lines().toList()) {
            lines.add(json.readTree(l));
        }
        assertThat(lines.get(0).get("tools").toString()).isEqualTo(
                "[\"compare\",\"ctxsw\",\"flame\",\"flame-diff\",\"gc\",\"heap\",\"jmh\",\"pinning\",\"rules\",\"summary\",\"threads\"]");
        // the same JSON summary --format json prints
        assertThat(lines.get(1).get("error").asBoolean()).isFalse();
        assertThat(json.readTree(lines.get(1).get("text").asText())).isEqualTo(json.readTree(run("summary", recording.toString(), "--format", "json")));
        // a check that found something (a deadlock: exit 1) is an answer, not an error
        assertThat(lines.get(2).get("error").asBoolean()).isFalse();
        assertThat(lines.get(2).get("text").asText()).contains("\"thread-deadlocks\"");
        // the command's one-line error is the tool's error
        assertThat(lines.get(3).get("error").asBoolean()).isTrue();
        assertThat(lines.get(3).get("text").asText()).isEqualTo("loomscope gc: " + dir.resolve("missing.jfr") + ": no such file (check the path)");
        // a profile's top frames, and what changed between two: flame --top's JSON
        assertThat(lines.get(4).get("error").asBoolean()).as(lines.get(4).toString()).isFalse();
        assertThat(json.readTree(lines.get(4).get("text").asText()))
                .isEqualTo(json.readTree(run("flame", recording.toString(), "--top", "30", "--format", "json")));
        JsonNode diff = json.readTree(lines.get(5).get("text").asText());
        assertThat(diff).isEqualTo(json.readTree(run("flame", "--diff", platform.toString(), recording.toString(), "--top", "5", "--format", "json")));
        assertThat(diff.get("tables").get(0).get("rows")).hasSize(5);
        assertThat(diff.get("tables").get(0).get("name").asText()).isEqualTo("frames-changed");
    }
}
