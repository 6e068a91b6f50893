package dev.loomscope.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What each type of option takes and how it says what it expects. */
class OptionTest {

    @Test
    void integersKeepTheirBoundsAndTakeUnderscores() {
        Option runs = Option.integer("runs", 5, 1, 100_000, "measured runs");
        assertThat(runs.problem("100_000")).isNull();
        assertThat(runs.problem("0")).isEqualTo("must be between 1 and 100000");
        assertThat(runs.problem("five")).isEqualTo("not a whole number");
        assertThat(Option.integer("n", 1, 1, Long.MAX_VALUE, "n").problem("0")).isEqualTo("must be at least 1");
        assertThat(runs.values()).isEqualTo("1-100000");
    }

    @Test
    void choicesMatchAnyCaseAndAnswerAsDeclared() {
        Option settings = Option.choice("settings", "default", List.of("default", "profile", "*.jfc"), "settings");
        assertThat(settings.canonical("PROFILE")).isEqualTo("profile");
        assertThat(settings.canonical("/x/web.jfc")).isEqualTo("/x/web.jfc");
        assertThat(settings.problem(".jfc")).isEqualTo("expected default, profile or *.jfc");
        assertThat(settings.problem("jfc")).isNotNull();
    }

    @Test
    void listsDurationsSizesAndFlags() {
        Option profile = Option.list("profile", "cpu", List.of("cpu", "wall"), "events");
        assertThat(profile.problem("cpu+wall")).isNull();
        assertThat(profile.problem("off")).isNull();
        assertThat(profile.problem("cpu+")).isNotNull();
        Option interval = Option.duration("interval", "10ms", false, "interval");
        assertThat(interval.problem("500us")).isNull();
        assertThat(interval.problem("0")).isEqualTo("expected a duration above 0 such as 10ms");
        assertThat(interval.problem("0ms")).isEqualTo("expected a duration above 0 such as 10ms");
        assertThat(Option.duration("duration", "0", true, "d").problem("0")).isNull();
        assertThat(Option.bytes("max-size", "0", "s").problem("2g")).isNull();
        assertThat(Option.bytes("max-size", "0", "s").problem("2 gigs")).isEqualTo("expected a size such as 500m");
        assertThat(Option.flag("paced", "p").problem("yes")).isEqualTo("expected true or false");
        assertThat(Option.path("out", "x", "o").problem(" ")).isEqualTo("must not be empty");
    }

    @Test
    void aTableRowPerOption() {
        String table =
                Option.markdown(List.of(Option.choice("grouping", "a", List.of("a", "b|c"), "how cells group")), true);
        assertThat(table).isEqualTo("""
            | option | default | values | meaning |
            |---|---|---|---|
            | `--grouping` | a | a or b\\|c | how cells group |
            """);
    }
}
