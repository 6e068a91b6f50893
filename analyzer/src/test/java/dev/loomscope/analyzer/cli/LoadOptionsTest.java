package dev.loomscope.analyzer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.load.Target;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code loomscope load}'s method and body options chosen as curl's -X, -d and -H choose them. */
class LoadOptionsTest {
    private static Target target(String... args) {
        LoadCommand c = new LoadCommand();
        new CommandLine(c).parseArgs(args);
        c.load.urls.addAll(c.urls);
        return c.load.spec(u -> u, "unlabelled", 0).targets().get(0).first();
    }

    @Test
    void aBodyIsPostedAsAFormUnlessTheOptionsSayOtherwise() {
        Target get = target("http://localhost:8080/a");
        assertThat(get.method()).isEqualTo("GET");
        assertThat(get.headers()).isEmpty();
        Target form = target("http://localhost:8080/a", "-d", "item=42");
        assertThat(form.method()).isEqualTo("POST");
        assertThat(form.headers()).containsExactly("Content-Type: application/x-www-form-urlencoded");
        assertThat(new String(form.body(), StandardCharsets.UTF_8)).isEqualTo("item=42");
        Target put = target(
                "-X", "PUT", "-H", "content-type: application/json", "-d", "{}", "--url", "http://localhost:8080/a");
        assertThat(put.method()).isEqualTo("PUT");
        assertThat(put.headers()).containsExactly("content-type: application/json");
    }
}
