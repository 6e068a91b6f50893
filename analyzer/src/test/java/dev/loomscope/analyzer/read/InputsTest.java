package dev.loomscope.analyzer.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the user typed, as recordings: a name that is there is that file even when it holds a wildcard; a pattern
 * matches.
 */
class InputsTest {
    @TempDir
    Path dir;

    @Test
    void aFileWhoseNameHoldsWildcardsIsThatFile() throws Exception {
        Path file = Files.writeString(dir.resolve("run[1]*?.jfr"), "x");
        Files.writeString(dir.resolve("run1.jfr"), "x"); // what [1] would match as a pattern
        assertThat(Inputs.resolveOne(file.toString()))
                .extracting(RecordingSource::name)
                .containsExactly(file);
    }

    @Test
    void aPatternMatchesTheFilesThere() throws Exception {
        Path one = Files.writeString(dir.resolve("run1.jfr"), "x");
        Path two = Files.writeString(dir.resolve("run2.jfr"), "x");
        Files.writeString(dir.resolve("other.txt"), "x");
        assertThat(Inputs.resolveOne(dir.resolve("run[12].jfr").toString()))
                .extracting(RecordingSource::name)
                .containsExactly(one, two);
        assertThat(Inputs.resolveOne(dir.resolve("*.jfr").toString()))
                .extracting(RecordingSource::name)
                .containsExactly(one, two);
    }

    @Test
    void aNameThatIsNeitherThereNorAPatternIsOneLine() {
        String typed = dir.resolve("ev\u001b[31mil.jfr").toString();
        assertThatThrownBy(() -> Inputs.resolveOne(typed))
                .isInstanceOf(BadDataException.class)
                .hasMessageContaining("no such file, and not a pattern")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> Inputs.resolveOne(dir.resolve("run[3].jfr").toString()))
                .isInstanceOf(BadDataException.class)
                .hasMessageContaining("no file matches");
    }
}
