package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader against the JDK's own parser on a recording of megabytes, its chunk many times the counting walk's window:
 * every type counted, and the decoded type's every value (its text of varying length, its number, its thread, its
 * stack's top frame) equal, event by event: JDK 21's reader (the chunk read whole) and JDK 22+'s (the chunk mapped and
 * copied where it is read, {@link ChunkMemory}).
 */
class JfrParserTest {
    @Name("loomscope.test.Filler")
    static final class Filler extends Event {
        String text;
        long value;
    }

    @Name("loomscope.test.Marked")
    static final class Marked extends Event {
        String text;
        long value;
    }

    @TempDir
    static Path dir;

    static Path recording;

    /** 150,000 events of one type between 3,000 of another (with stack traces), their texts 0-299 characters long. */
    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("many.jfr");
        try (Recording r = new Recording()) {
            r.enable(Filler.class).withoutStackTrace();
            r.enable(Marked.class).withStackTrace();
            r.start();
            for (int i = 0; i < 150_000; i++) {
                Filler f = new Filler();
                f.text = "x".repeat(i % 300);
                f.value = i;
                f.commit();
                if (i % 50 == 0) {
                    Marked m = new Marked();
                    m.text = "marked " + "y".repeat(i % 97);
                    m.value = -i;
                    m.commit();
                }
            }
            r.stop();
            r.dump(recording);
        }
    }

    @Test
    void countsEveryTypeAsTheJdksParserDoes() throws Exception {
        countsEveryType(JfrParser.class);
    }

    @Test
    void theMappingCountsEveryTypeAsTheJdksParserDoes() throws Exception {
        countsEveryType(Versioned.of(JfrParser.class));
    }

    @Test
    void decodesEveryValueAsTheJdksParserDoes() throws Exception {
        decodesEveryValue(JfrParser.class);
    }

    @Test
    void theMappingDecodesEveryValueAsTheJdksParserDoes() throws Exception {
        decodesEveryValue(Versioned.of(JfrParser.class));
    }

    @Test
    void anEventKeptPastItsHandOverSaysSo() throws Exception {
        saysAnEventKeptPastItsHandOver(JfrParser.class);
    }

    @Test
    void theMappingSaysAnEventKeptPastItsHandOver() throws Exception {
        saysAnEventKeptPastItsHandOver(Versioned.of(JfrParser.class));
    }

    /**
     * Its thread, resolved only after the read: its chunk's bytes were given back (its buffer may hold another
     * chunk's), never read as if they were its.
     */
    private void saysAnEventKeptPastItsHandOver(Class<?> parser) throws Exception {
        List<Object> kept = new ArrayList<>();
        read(parser, Set.of("loomscope.test.Marked"), e -> {
            if (kept.isEmpty()) {
                kept.add(e);
            }
        });
        assertThatThrownBy(() -> Versioned.invoke(kept.get(0), "threadName", "eventThread"))
                .cause()
                .satisfies(e ->
                        assertThat(e.getClass().getName()).isEqualTo(ChunkMemory.HandedOnException.class.getName()))
                .hasMessage("chunk 1's bytes were read after its events were handed on (an event kept past the parser's"
                        + " sink)");
    }

    private void countsEveryType(Class<?> parser) throws Exception {
        assertThat(Files.size(recording)).isGreaterThan(4L << 20); // 32 and more of the 128 KB window
        Map<String, Long> jdk = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            jdk.merge(e.getEventType().getName(), 1L, Long::sum);
        }
        Map<String, Long> ours = new TreeMap<>(counts(read(parser, Set.of(), e -> {})));
        ours.keySet().removeIf(t -> t.equals("jdk.Checkpoint") || t.equals("jdk.Metadata"));
        assertThat(ours).isEqualTo(jdk);
        assertThat(ours.get("loomscope.test.Filler")).isEqualTo(150_000);
    }

    private void decodesEveryValue(Class<?> parser) throws Exception {
        List<String> jdk = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            if (e.getEventType().getName().equals("loomscope.test.Marked")) {
                jdk.add(e.getString("text") + " " + e.getLong("value") + " "
                        + e.getThread().getJavaName() + " "
                        + e.getStackTrace().getFrames().get(0).getMethod().getName());
            }
        }
        List<String> ours = new ArrayList<>();
        read(parser, Set.of("loomscope.test.Marked"), e -> {
            try {
                List<?> frames = (List<?>) Versioned.invoke(e, "stackFrames");
                ours.add(Versioned.invoke(e, "string", "text") + " " + Versioned.invoke(e, "longValue", "value") + " "
                        + Versioned.invoke(e, "threadName", "eventThread") + " "
                        + Versioned.invoke(frames.get(0), "methodName"));
            } catch (Exception x) {
                throw new IllegalStateException(x);
            }
        });
        assertThat(ours).hasSize(3_000).isEqualTo(jdk);
    }

    /**
     * {@code parser}'s read of the whole recording, the events of {@code wanted} to {@code sink} (of either class
     * loader's, by reflection).
     */
    private static Object read(Class<?> parser, Set<String> wanted, Consumer<Object> sink) throws Exception {
        return Versioned.call(
                parser,
                null,
                "read",
                new Class<?>[] {Path.class, long.class, Set.class, Consumer.class},
                recording,
                Files.size(recording),
                wanted,
                sink);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> counts(Object result) throws Exception {
        return (Map<String, Long>) Versioned.invoke(result, "counts");
    }
}
