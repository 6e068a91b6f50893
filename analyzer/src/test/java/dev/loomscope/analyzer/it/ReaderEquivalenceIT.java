package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.read.JdkEvent;
import dev.loomscope.flamegraphs.testing.Recordings;
import dev.loomscope.recording.JfrParser;
import dev.loomscope.recording.ParsedEvent;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import jdk.jfr.Timespan;
import jdk.jfr.Timestamp;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * loomscope's reader against the JDK's parser, event by event and field by field, every event type decoded, on real
 * recordings: the agent's (JDK events, loomscope's, async-profiler's chunk appended), JFR's default and profile
 * settings, and async-profiler's own JFR output.
 */
class ReaderEquivalenceIT {
    @TempDir
    static Path dir;

    static List<Path> recordings = new ArrayList<>();

    @BeforeAll
    static void record() throws Exception {
        recordings.add(Fixtures.fixture(dir, 3, 2));
        recordings.add(Fixtures.sleep(dir, "virtual"));
        for (String settings : List.of("default", "profile")) {
            recordings.add(Fixtures.plain(dir, settings + ".jfr", ",settings=" + settings, 2, 2));
        }
        recordings.add(Recordings.asyncProfilerCpu(dir));
    }

    @Test
    void everyEventAndFieldIsReadAsTheJdkReadsIt() throws Exception {
        int compared = 0;
        for (Path recording : recordings) {
            for (Path part : sameClockParts(recording)) {
                compared += compare(part);
            }
        }
        assertThat(compared).isGreaterThan(10_000);
    }

    /**
     * The recording split where a chunk counts time from another clock (async-profiler's chunk after the JVM's): the
     * JDK's parser converts every chunk of a file with its first chunk's clock.
     */
    static List<Path> sameClockParts(Path recording) throws Exception {
        byte[] bytes = Files.readAllBytes(recording);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        List<Path> parts = new ArrayList<>();
        int from = 0;
        double origin = Double.NaN;
        for (int off = 0; off + 68 <= bytes.length; off += (int) b.getLong(off + 8)) {
            double o = b.getLong(off + 32) - b.getLong(off + 48) * 1e9 / b.getLong(off + 56); // epoch nanos at tick 0
            if (!Double.isNaN(origin) && Math.abs(o - origin) > 1e6) {
                parts.add(Files.write(
                        dir.resolve(recording.getFileName() + "-" + from + ".jfr"),
                        Arrays.copyOfRange(bytes, from, off)));
                from = off;
            }
            origin = o;
        }
        parts.add(Files.write(
                dir.resolve(recording.getFileName() + "-" + from + ".jfr"),
                Arrays.copyOfRange(bytes, from, bytes.length)));
        return parts;
    }

    static int compare(Path part) throws Exception {
        Map<String, List<RecordedEvent>> jdk = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(part)) {
            jdk.computeIfAbsent(e.getEventType().getName(), k -> new ArrayList<>())
                    .add(e);
        }
        // each event compared as it is handed on: the parser's events are read only then (their chunk's bytes are given
        // back after)
        Map<String, Integer> seen = new HashMap<>();
        JfrParser.Result r = JfrParser.read(part, Files.size(part), new HashSet<>(jdk.keySet()), e -> {
            int i = seen.merge(e.type(), 1, Integer::sum) - 1;
            List<RecordedEvent> theirs = jdk.get(e.type());
            assertThat(i).as(part + ": " + e.type() + " #" + i).isLessThan(theirs.size());
            compareEvent(part + ": " + e.type() + " #" + i, theirs.get(i), e);
        });
        int n = 0;
        for (Map.Entry<String, List<RecordedEvent>> t : jdk.entrySet()) {
            String type = t.getKey();
            assertThat(seen.getOrDefault(type, 0))
                    .as(part + ": " + type)
                    .isEqualTo(t.getValue().size());
            assertThat(r.counts().get(type)).as(type).isEqualTo(t.getValue().size());
            n += t.getValue().size();
        }
        return n;
    }

    static void compareEvent(String what, RecordedEvent jdkEvent, ParsedEvent ours) {
        JdkEvent theirs = new JdkEvent(jdkEvent);
        assertThat(ours.startTime()).as(what + " startTime").isEqualTo(theirs.startTime());
        assertThat(ours.duration()).as(what + " duration").isEqualTo(theirs.duration());
        for (ValueDescriptor v : jdkEvent.getFields()) {
            String name = v.getName();
            String field = what + "." + name;
            if (name.equals("startTime") || name.equals("duration") || v.isArray()) {
                continue;
            }
            assertThat(ours.hasField(name)).as(field).isTrue();
            switch (v.getTypeName()) {
                case "java.lang.String" ->
                    assertThat(ours.string(name)).as(field).isEqualTo(theirs.string(name));
                case "boolean" -> assertThat(ours.bool(name)).as(field).isEqualTo(theirs.bool(name));
                case "byte", "short", "int", "long" -> {
                    if (v.getAnnotation(Timespan.class) != null) {
                        assertThat(ours.durationField(name)).as(field).isEqualTo(theirs.durationField(name));
                    } else if (v.getAnnotation(Timestamp.class) == null) {
                        assertThat(ours.longValue(name)).as(field).isEqualTo(theirs.longValue(name));
                    }
                }
                case "float", "double" ->
                    assertThat(Double.compare(ours.doubleValue(name), theirs.doubleValue(name)))
                            .as(field)
                            .isZero();
                case "java.lang.Thread" ->
                    assertThat(ours.threadName(name)).as(field).isEqualTo(theirs.threadName(name));
                case "jdk.types.StackTrace" ->
                    assertThat(ours.stackFrames()).as(field).isEqualTo(theirs.stackFrames());
                default -> {} // other structures: what the reducers read of them is compared through their reductions
            }
        }
    }
}
