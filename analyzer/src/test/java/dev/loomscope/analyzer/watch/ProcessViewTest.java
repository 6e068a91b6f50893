package dev.loomscope.analyzer.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.options.BadDataException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How this process reaches a JVM's files. Its own JVM: as always, nothing copied or exchanged. An exchange directory,
 * which the JVM's user owns and may fill with anything: only that user's regular files are read back, never through a
 * link, and closing removes the names given out and nothing else. (Another user's JVM and one in a container:
 * ReleaseIT, as root.)
 */
class ProcessViewTest {
    @TempDir
    Path dir;

    @Test
    void thisUsersJvmInThisNamespaceIsReachedAsAlways() {
        ProcessView self = ProcessView.of(ProcessHandle.current().pid());
        assertThat(self.otherUser()).isFalse();
        assertThat(self.otherMounts()).isFalse();
        assertThat(self.exchange(dir.toString())).isNull();
        assertThat(self.readable(dir.resolve("agent.jar"), dir.toString()))
                .isEqualTo(dir.resolve("agent.jar").toAbsolutePath().toString());
        assertThat(self.here("/tmp/x")).isEqualTo(Path.of("/tmp/x"));
    }

    @Test
    void anExchangeReadsOnlyItsUsersFilesAndRemovesOnlyWhatItNamed() throws Exception {
        int us = ProcessView.of(ProcessHandle.current().pid()).us();
        Path here = Files.createDirectory(dir.resolve("exchange"));
        Path secret = Files.writeString(dir.resolve("secret"), "not the JVM's");
        ProcessView.Exchange x = new ProcessView.Exchange(here, "/there/exchange", us, new ArrayList<>());
        assertThat(x.there("reply")).isEqualTo("/there/exchange/reply");
        Files.writeString(here.resolve("reply"), "ok\n");
        try (InputStream in = x.open("reply")) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("ok\n");
        }
        // the JVM's user swapped the dump for a link to a file of ours: refused, and the file it points at is left
        // alone
        x.there("dump.json");
        Files.createSymbolicLink(here.resolve("dump.json"), secret);
        assertThatThrownBy(() -> x.open("dump.json"))
                .isInstanceOf(BadDataException.class)
                .hasMessageContaining("not a file the JVM wrote");
        // a file of another user: refused
        ProcessView.Exchange another = new ProcessView.Exchange(here, "/there/exchange", us + 1, new ArrayList<>());
        assertThatThrownBy(() -> another.open("reply")).isInstanceOf(BadDataException.class);
        // what the user put there unnamed stays (no walk deletes through what it may have linked), so does the
        // directory holding it
        Files.writeString(here.resolve("left"), "theirs");
        x.close();
        assertThat(here.resolve("reply")).doesNotExist();
        assertThat(here.resolve("dump.json")).doesNotExist();
        assertThat(secret).hasContent("not the JVM's");
        assertThat(here.resolve("left")).exists();
    }
}
