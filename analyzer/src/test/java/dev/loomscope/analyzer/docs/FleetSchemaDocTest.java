package dev.loomscope.analyzer.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.fleet.FleetSchema;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** docs/fleets.md shows the export's tables as FleetSchema defines them, every column. */
class FleetSchemaDocTest {
    static final String BEGIN =
            "<!-- tables: made from FleetSchema.markdown(); FleetSchemaDocTest keeps them equal -->\n";
    static final String END = "<!-- end of tables -->";

    /** With {@code -Dloomscope.docs.write=true} it writes them there. */
    @Test
    void theDocsShowTheSchema() throws Exception {
        String page = Files.readString(DocsLinksTest.ROOT.resolve("docs/fleets.md"));
        assertThat(page).contains(BEGIN).contains(END);
        String shown = page.substring(page.indexOf(BEGIN) + BEGIN.length(), page.indexOf(END));
        if (Boolean.getBoolean("loomscope.docs.write")) {
            page = page.substring(0, page.indexOf(BEGIN) + BEGIN.length()) + "\n" + FleetSchema.markdown()
                    + page.substring(page.indexOf(END));
            Files.writeString(DocsLinksTest.ROOT.resolve("docs/fleets.md"), page);
            shown = "\n" + FleetSchema.markdown();
        }
        assertThat(shown)
                .as("docs/fleets.md between the markers (write FleetSchema.markdown() there)")
                .isEqualTo("\n" + FleetSchema.markdown());
    }
}
