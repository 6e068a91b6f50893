package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/** What an error said, in words a line can show: never a class name the user must decode. */
class SaidTest {
    @Test
    void aMessageIsSaidOnOneLineAndANamelessErrorByItsNameInWords() {
        assertThat(Said.by(new IOException("bad magic\n  at offset 4"))).isEqualTo("bad magic at offset 4");
        assertThat(Said.by(new IllegalStateException())).isEqualTo("illegal state");
        assertThat(Said.by(new EOFException())).isEqualTo("it ends early");
        assertThat(Said.by(new IOException("x".repeat(400)))).hasSize(Said.MOST + 3);
    }

    /**
     * A library that wraps an error without a word of its own (parquet-java's decoding errors: {@code new
     * RuntimeException(cause)}, whose message is {@code java.io.EOFException}) is said by its cause.
     */
    @Test
    void aWrapperWithoutWordsOfItsOwnIsSaidByItsCause() {
        assertThat(Said.by(new RuntimeException(new EOFException()))).isEqualTo("it ends early");
        assertThat(Said.by(new UncheckedIOException(new IOException("truncated page"))))
                .isEqualTo("truncated page");
        assertThat(Said.by(new RuntimeException("cannot read page 3", new EOFException())))
                .isEqualTo("cannot read page 3");
    }
}
