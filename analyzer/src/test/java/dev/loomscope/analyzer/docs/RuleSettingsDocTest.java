package dev.loomscope.analyzer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.rules.RuleSettings;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** docs/analyzer.md lists every threshold of loomscope's rules with the default the rule declares. */
class RuleSettingsDocTest {
    @Test
    void theDocsListEveryThresholdWithItsDefault() throws Exception {
        String page = Files.readString(DocsLinksTest.ROOT.resolve("docs/analyzer.md"));
        for (var t : RuleSettings.thresholds()) {
            assertThat(page)
                    .as("docs/analyzer.md's row of " + t.getIdentifier())
                    .contains("| `" + t.getIdentifier() + "` | " + RuleSettings.format(t, t.getDefaultValue()) + " |");
        }
    }
}
