package dev.loomscope.analyzer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The MCP tools say what their commands' help says, and offer only options their commands have. */
class McpToolsTest {
    @Test
    void eachToolSaysWhatItsCommandsHelpSaysAndOffersItsCommandsOptions() {
        CommandLine cli = Main.full();
        assertThat(McpTools.TOOLS).hasSizeGreaterThanOrEqualTo(12);
        for (McpTools.Tool t : McpTools.TOOLS) {
            CommandLine.Model.CommandSpec spec = cli.getSubcommands()
                    .get(t.command().getAnnotation(CommandLine.Command.class).name())
                    .getCommandSpec();
            if (t.variant() == null) {
                assertThat(t.description())
                        .as(t.name())
                        .isEqualTo(spec.usageMessage().description()[0]);
            }
            assertThat(McpTools.OPTIONS.get(t.name()))
                    .as(t.name() + "'s options")
                    .isNotNull()
                    .allSatisfy(o -> assertThat(spec.findOption(o))
                            .as(t.name() + " " + o)
                            .isNotNull());
        }
    }
}
