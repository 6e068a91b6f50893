package dev.loomscope.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The README's agent options and docs/workloads.md's workload options are the declarations, made into tables: the build
 * fails when they differ. {@code ./mvnw -pl options test -Dloomscope.docs.write=true} writes them.
 */
class OptionTablesDocTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theReadmeShowsTheAgentOptions() throws IOException {
        check(
                ROOT.resolve("README.md"),
                "<!-- agent options: made from AgentOptions.TABLE; OptionTablesDocTest keeps them equal -->\n",
                "<!-- end of agent options -->",
                Option.markdown(AgentOptions.TABLE, false));
    }

    @Test
    void theWorkloadsPageShowsTheWorkloadOptions() throws IOException {
        check(
                ROOT.resolve("docs/workloads.md"),
                "<!-- options: made from WorkloadOptions.markdown(); OptionTablesDocTest keeps them equal -->\n",
                "<!-- end of options -->",
                WorkloadOptions.markdown() + "\n");
    }

    private static void check(Path page, String begin, String end, String table) throws IOException {
        String text = Files.readString(page);
        assertThat(text).as(page + " has the markers").contains(begin).contains(end);
        int from = text.indexOf(begin) + begin.length();
        int to = text.indexOf(end);
        if (Boolean.getBoolean("loomscope.docs.write")) {
            Files.writeString(page, text.substring(0, from) + table + text.substring(to));
            return;
        }
        assertThat(text.substring(from, to))
                .as(page + " between the markers (-Dloomscope.docs.write=true writes it)")
                .isEqualTo(table);
    }
}
