package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chunk's bytes from the file ({@link ChunkMemory}), by both versions of {@link ChunkBytes}: JDK 21's, which maps
 * nothing (the chunk is read whole; the class on the class path of this test), and JDK 22+'s mapping (the class the
 * multi-release jar holds under META-INF/versions/22, loaded here from the build's output ahead of the common classes,
 * with a {@link ChunkMemory} of its own).
 */
class ChunkBytesTest {
    private static final byte UNTOUCHED = 0x5A;

    @TempDir
    Path dir;

    /** 9 MB and a little of random bytes, none of them {@link #UNTOUCHED}: many pages and windows, and an odd end. */
    private Path file() throws Exception {
        byte[] bytes = new byte[9 * 1024 * 1024 + 4321];
        new Random(42).nextBytes(bytes);
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = bytes[i] == UNTOUCHED ? 0 : bytes[i];
        }
        return Files.write(dir.resolve("bytes"), bytes);
    }

    @Test
    void readingHoldsTheWholeChunk() throws Exception {
        Path f = file();
        byte[] all = Files.readAllBytes(f);
        int offset = 12_345; // not on a page
        int length = all.length - offset - 1_000;
        try (FileChannel ch = FileChannel.open(f)) {
            Memory m = new Memory(ChunkMemory.class, ch, offset, length);
            assertThat(m.present(5, 1)).isEqualTo(length);
            assertThat(Arrays.copyOf(m.array(), length)).isEqualTo(Arrays.copyOfRange(all, offset, offset + length));
            assertThat(Arrays.copyOfRange(m.array(), length, m.array().length))
                    .containsOnly(UNTOUCHED); // nothing past the chunk written
            m.slide(4096);
            assertThat(m.window()).isSameAs(m.array()); // the window is the chunk
            assertThat(m.windowBase()).isZero();
        }
    }

    @Test
    void theMappingCopiesOnlyThePagesRead() throws Exception {
        Path f = file();
        byte[] all = Files.readAllBytes(f);
        int offset = 12_345;
        int length = all.length - offset - 1_000;
        try (FileChannel ch = FileChannel.open(f)) {
            Memory m = new Memory(mapped(), ch, offset, length);
            assertThat(m.array()).containsOnly(UNTOUCHED); // nothing copied before it is asked for
            int from = 3 * 4096 + 100;
            int end = m.present(from, 5000); // pages 3 and 4
            assertThat(end).isEqualTo(5 * 4096);
            assertThat(Arrays.copyOfRange(m.array(), 3 * 4096, end))
                    .isEqualTo(Arrays.copyOfRange(all, offset + 3 * 4096, offset + end));
            assertThat(Arrays.copyOfRange(m.array(), 0, 3 * 4096)).containsOnly(UNTOUCHED);
            assertThat(Arrays.copyOfRange(m.array(), end, length)).containsOnly(UNTOUCHED);
            int last = m.present(length - 1, 1); // the chunk's last page, short
            assertThat(last).isEqualTo(length);
            assertThat(Arrays.copyOfRange(m.array(), length - 1, length))
                    .isEqualTo(Arrays.copyOfRange(all, offset + length - 1, offset + length));

            m.slide(length - 70_000); // a window at the end of the chunk, shorter than a whole one
            assertThat(m.windowBase()).isEqualTo(length - 70_000);
            assertThat(Arrays.copyOf(m.window(), m.windowLength()))
                    .isEqualTo(Arrays.copyOfRange(all, offset + length - 70_000, offset + length));
            assertThat(Arrays.copyOfRange(m.array(), end, length - 4096))
                    .containsOnly(UNTOUCHED); // a window is not the array
            m.close();
            m.close(); // once is enough; again is nothing
        }
    }

    /**
     * A zip file system's channel, another provider's, which cannot map (its arena's {@code map} is FileChannel's own,
     * which throws): the chunk is read.
     */
    @Test
    void theMappingReadsAChannelThatCannotMap() throws Exception {
        Class<?> memory = mapped();
        byte[] all = Files.readAllBytes(file());
        try (FileSystem zip = FileSystems.newFileSystem(dir.resolve("bytes.zip"), Map.of("create", "true"))) {
            Path inZip = Files.write(zip.getPath("bytes"), all);
            try (FileChannel ch = FileChannel.open(inZip)) {
                // (the arena's map is a preview API where this compiles, JDK 21: looked up by name)
                assertThat(ch.getClass()
                                .getMethod(
                                        "map",
                                        FileChannel.MapMode.class,
                                        long.class,
                                        long.class,
                                        Class.forName("java.lang.foreign.Arena"))
                                .getDeclaringClass())
                        .isEqualTo(FileChannel.class);
                Memory m = new Memory(memory, ch, 0, all.length);
                assertThat(Arrays.copyOf(m.array(), all.length)).isEqualTo(all);
                assertThat(m.window()).isSameAs(m.array());
            }
        }
    }

    @Test
    void readingSaysAFileThatEndsInsideTheChunk() throws Exception {
        saysAFileThatEndsInsideTheChunk(ChunkMemory.class);
    }

    @Test
    void theMappingSaysAFileThatEndsInsideTheChunk() throws Exception {
        saysAFileThatEndsInsideTheChunk(mapped());
    }

    private void saysAFileThatEndsInsideTheChunk(Class<?> memory) throws Exception {
        Path f = file();
        long size = Files.size(f);
        try (FileChannel ch = FileChannel.open(f)) {
            assertThatThrownBy(() -> new Memory(memory, ch, size - 100, 1000)).satisfies(e -> {
                // the mapping's exception class is its own class loader's: compared by name
                assertThat(e.getClass().getName()).isEqualTo(DamagedRecordingException.class.getName());
                assertThat(e.getMessage()).contains("chunk 7").contains("the file ends inside the chunk");
            });
        }
    }

    /** The JDK 22+ version's ChunkMemory, whose ChunkBytes is the build's output's META-INF/versions/22 one. */
    private static Class<?> mapped() throws Exception {
        return Versioned.of(ChunkMemory.class);
    }

    /**
     * A ChunkMemory of either class loader's, opened as chunk 7 over an array filled with {@link #UNTOUCHED}, by
     * reflection.
     */
    private static final class Memory {
        private final Object memory;
        private final Class<?> c;

        Memory(Class<?> c, FileChannel ch, long offset, int length) throws Exception {
            this.c = c;
            byte[] into = new byte[length + 7]; // a buffer larger than the chunk, as a reused one is
            Arrays.fill(into, UNTOUCHED);
            this.memory = Versioned.call(
                    c,
                    null,
                    "open",
                    new Class<?>[] {FileChannel.class, long.class, byte[].class, int.class, int.class},
                    ch,
                    offset,
                    into,
                    length,
                    7);
        }

        int present(int from, int n) throws Exception {
            return (int) Versioned.call(c, memory, "present", new Class<?>[] {int.class, int.class}, from, n);
        }

        void slide(int at) throws Exception {
            Versioned.call(c, memory, "slide", new Class<?>[] {int.class}, at);
        }

        void close() throws Exception {
            Versioned.call(c, memory, "close", new Class<?>[0]);
        }

        byte[] array() throws Exception {
            return (byte[]) field("array");
        }

        byte[] window() throws Exception {
            return (byte[]) field("window");
        }

        int windowBase() throws Exception {
            return (int) field("windowBase");
        }

        int windowLength() throws Exception {
            return (int) field("windowLength");
        }

        private Object field(String name) throws Exception {
            Field f = c.getDeclaredField(name);
            f.setAccessible(true);
            return f.get(memory);
        }
    }
}
