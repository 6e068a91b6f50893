package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
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
 * A chunk's bytes copied from the file, by both versions of {@link ChunkBytes}: JDK 21's reads (the
 * class on the class path of this test) and JDK 22+'s mapping (the class the multi-release jar holds
 * under META-INF/versions/22, loaded here from the build's output ahead of the common classes).
 */
class ChunkBytesTest {
    @TempDir
    Path dir;

    /** 9 MB and a little of random bytes: more than two of the mapping's pieces and an odd end. */
    private Path file() throws Exception {
        byte[] bytes = new byte[9 * 1024 * 1024 + 4321];
        new Random(42).nextBytes(bytes);
        return Files.write(dir.resolve("bytes"), bytes);
    }

    @Test
    void readsCopyTheRangeAsked() throws Exception {
        copiesTheRangeAsked(reads());
    }

    @Test
    void theMappingCopiesTheRangeAsked() throws Exception {
        copiesTheRangeAsked(mapping());
    }

    /** A zip file system's channel, another provider's, which cannot map (its arena's {@code map} is FileChannel's own, which throws): the mapping version reads it. */
    @Test
    void theMappingReadsAChannelThatCannotMap() throws Exception {
        Method copy = mapping();
        byte[] all = Files.readAllBytes(file());
        byte[] into = new byte[all.length];
        try (FileSystem zip = FileSystems.newFileSystem(dir.resolve("bytes.zip"), Map.of("create", "true"))) {
            Path inZip = Files.write(zip.getPath("bytes"), all);
            try (FileChannel ch = FileChannel.open(inZip)) {
                // (the arena's map is a preview API where this compiles, JDK 21: looked up by name)
                assertThat(ch.getClass().getMethod("map", FileChannel.MapMode.class, long.class, long.class, Class.forName("java.lang.foreign.Arena"))
                        .getDeclaringClass()).isEqualTo(FileChannel.class);
                copy.invoke(null, ch, 0L, into, all.length, 1);
            }
        }
        assertThat(into).isEqualTo(all);
    }

    @Test
    void readsSayAFileThatEndsInsideTheChunk() throws Exception {
        saysAFileThatEndsInsideTheChunk(reads());
    }

    @Test
    void theMappingSaysAFileThatEndsInsideTheChunk() throws Exception {
        saysAFileThatEndsInsideTheChunk(mapping());
    }

    private void copiesTheRangeAsked(Method copy) throws Exception {
        Path f = file();
        byte[] all = Files.readAllBytes(f);
        int offset = 12_345; // not on a page
        int length = all.length - offset - 1_000;
        byte[] into = new byte[length + 7]; // a buffer larger than the chunk, as a reused one is
        Arrays.fill(into, (byte) 0x5A);
        try (FileChannel ch = FileChannel.open(f)) {
            copy.invoke(null, ch, (long) offset, into, length, 3);
        }
        assertThat(Arrays.copyOf(into, length)).isEqualTo(Arrays.copyOfRange(all, offset, offset + length));
        assertThat(Arrays.copyOfRange(into, length, into.length)).containsOnly((byte) 0x5A); // nothing past the chunk written
    }

    private void saysAFileThatEndsInsideTheChunk(Method copy) throws Exception {
        Path f = file();
        long size = Files.size(f);
        try (FileChannel ch = FileChannel.open(f)) {
            assertThatThrownBy(() -> {
                try {
                    copy.invoke(null, ch, size - 100, new byte[1000], 1000, 7);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }).satisfies(e -> {
                // the mapping's exception class is its own class loader's: compared by name
                assertThat(e.getClass().getName()).isEqualTo(DamagedRecordingException.class.getName());
                assertThat(e.getMessage()).contains("chunk 7").contains("the file ends inside the chunk");
            });
        }
    }

    private static Method reads() throws Exception {
        return copyOf(ChunkBytes.class);
    }

    /** The JDK 22+ version, from the build's output (the multi-release jar's versions/22 of this module). */
    private static Method mapping() throws Exception {
        assumeTrue(Runtime.version().feature() >= 22, "the mapping is JDK 22+'s; this JVM is " + Runtime.version());
        URL classes = ChunkBytes.class.getProtectionDomain().getCodeSource().getLocation();
        URL versioned = new URL(classes, "META-INF/versions/22/");
        assertThat(Path.of(versioned.toURI()).resolve("dev/loomscope/recording/ChunkBytes.class")).exists();
        URLClassLoader loader = new URLClassLoader(new URL[] {versioned, classes}, ClassLoader.getPlatformClassLoader());
        Class<?> mapped = loader.loadClass(ChunkBytes.class.getName());
        assertThat(mapped).isNotSameAs(ChunkBytes.class);
        return copyOf(mapped);
    }

    private static Method copyOf(Class<?> c) throws Exception {
        Method m = c.getDeclaredMethod("copy", FileChannel.class, long.class, byte[].class, int.class, int.class);
        m.setAccessible(true);
        return m;
    }
}
