package dev.loomscope.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestTest {
    private static final List<String> NAMES =
            List.of("out", "duration", "pinned-threshold", "trace-pinned", "interval", "record-env");

    @Test
    void aTypoFindsItsNameAndAnUnlikeWordNone() {
        assertThat(Nearest.didYouMean("pinned-treshold", NAMES)).isEqualTo("; did you mean pinned-threshold?");
        assertThat(Nearest.didYouMean("intervall", NAMES)).isEqualTo("; did you mean interval?");
        // shares a letter pair with out, duration, record-env and more, but is like none of them
        assertThat(Nearest.of("colour", NAMES)).startsWith("out", "duration", "record-env");
        assertThat(Nearest.didYouMean("colour", NAMES)).isEmpty();
        assertThat(Nearest.didYouMean("zzz", NAMES)).isEmpty();
    }

    @Test
    void atMostThreeTheMostAlikeFirst() {
        List<String> metrics = List.of(
                "gc pause total", "gc count", "gc pause p99", "gc pause", "gc pause p50", "gc pause max", "run time");
        assertThat(Nearest.didYouMean("gc pauses", metrics))
                .isEqualTo("; did you mean gc pause or gc pause p50 or gc pause max?");
    }
}
