package dev.loomscope.analyzer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The README's table of what each command answers is the registry's: a row for every command the CLI has and for no
 * other, and the {@code mcp} row names the MCP server's tools, in their order.
 */
class ReadmeCommandsTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z-]+)` \\| (.*) \\|$");

    @Test
    void theReadmesTableHasARowForEachCommandAndTheMcpRowNamesEachTool() throws Exception {
        String readme = Files.readString(Path.of("..", "README.md"));
        String table = readme.substring(readme.indexOf("## What each command answers"));
        table = table.substring(0, table.indexOf("\n\n", table.indexOf("|")));
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : table.lines().toList()) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                rows.put(m.group(1), m.group(2));
            }
        }
        List<String> commands = new ArrayList<>();
        for (Class<?> c : Main.COMMANDS) {
            if (!c.equals(CommandLine.HelpCommand.class)) {
                commands.add(c.getAnnotation(CommandLine.Command.class).name());
            }
        }
        assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(commands);
        String tools = String.join(
                ", ", McpTools.TOOLS.stream().map(McpTools.Tool::name).toList());
        assertThat(rows.get("mcp"))
                .as("the mcp row names the tools McpTools offers, in its order")
                .contains(": " + tools + " (");
    }
}
