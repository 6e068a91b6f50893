package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.render.Format;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.rules.LoomscopeRule;
import dev.loomscope.analyzer.views.AdvisePrediction;
import dev.loomscope.analyzer.views.AdviseView;
import dev.loomscope.analyzer.views.Views;
import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.recording.RecordingSource;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache of a recording's facts: what it answers is what reading the recording answers, for every view, figure and
 * rule, on a recording this JVM writes and on other writers' recordings; a changed file, a damaged entry and an entry
 * holding anything but facts are read again; the entries stay within their bound; nothing is kept below the size it
 * pays at.
 */
class FactsCacheTest {
    @TempDir
    Path dir;

    /** A recording of this JVM: sleeps on virtual and platform threads, collections, the agent's windows of work. */
    private Path ownRecording() throws Exception {
        Path file = dir.resolve("own.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ThreadSleep").withThreshold(Duration.ZERO);
            r.enable("jdk.GarbageCollection");
            r.enable("jdk.GCHeapSummary");
            r.enable("jdk.VirtualThreadStart");
            r.enable(WorkWindowEvent.class);
            r.start();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                threads.add(Thread.ofVirtual().start(() -> sleep(2)));
            }
            for (Thread t : threads) {
                t.join();
            }
            System.gc();
            WorkReducerTest.window(3, "not a histogram");
            r.stop();
            r.dump(file);
        }
        return file;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Every answer a command gives from facts, as text: the views, advise, every figure, every rule's verdict, the
     * warnings.
     */
    private static String answers(RecordingFacts f) {
        StringBuilder b = new StringBuilder();
        for (Views.View v : Views.ALL) {
            b.append(Format.JSON.render(v.of(List.of(f), 8)));
        }
        List<Table> advice = AdviseView.of(f, AdvisePrediction.carriers(f, 2), AdvisePrediction.load(f, 0), 8);
        b.append(Format.JSON.render(advice));
        Stream.concat(Metric.ALL.stream(), Metric.RECORDING_FIGURES.stream())
                .forEach(m -> b.append(m.name())
                        .append('=')
                        .append(m.valueOfRecording(f))
                        .append(' ')
                        .append(m.extract().apply(f))
                        .append('\n'));
        for (LoomscopeRule rule : LoomscopeRule.all()) {
            b.append(rule.getId()).append(rule.judge(f)).append('\n');
        }
        return b.append(f.warnings).toString();
    }

    @Test
    void aKeptRecordingAnswersAsReadingItDoes() throws Exception {
        List<Path> recordings = new ArrayList<>(List.of(ownRecording()));
        Path corpus = Path.of("src/test/resources/corpus");
        for (String other : List.of(
                "jmc/allocation_10s_fixed.jfr.gz", "jmc/io_test.jfr", "datadog/AZ0slzG9AADg9z1ELwL5qgAA.jfr.gz")) {
            recordings.add(corpus.resolve(other));
        }
        FactsCache cache = new FactsCache(dir.resolve("cache"), 0, Long.MAX_VALUE);
        for (Path p : recordings) {
            RecordingSource s = RecordingSource.file(p);
            AtomicInteger reads = new AtomicInteger();
            RecordingFacts read = cache.facts(s, x -> {
                reads.incrementAndGet();
                return RecordingFacts.of(x);
            });
            RecordingFacts kept = cache.facts(s, x -> {
                reads.incrementAndGet();
                return RecordingFacts.of(x);
            });
            new ObjectOutputStream(OutputStream.nullOutputStream())
                    .writeObject(read.stored()); // what the cache writes: throws what it cannot
            assertThat(reads).as(p + " read once, then kept").hasValue(1);
            assertThat(kept).isNotSameAs(read);
            assertThat(answers(kept))
                    .as(p.toString())
                    .isEqualTo(answers(read))
                    .isEqualTo(answers(RecordingFacts.of(s)));
        }
        assertThat(answers(RecordingFacts.of(RecordingSource.file(recordings.get(0)))))
                .contains("whose histogram cannot be read");
    }

    @Test
    void aChangedFileADamagedEntryAndAForeignOneAreReadAgain() throws Exception {
        Path file = ownRecording();
        RecordingSource s = RecordingSource.file(file);
        Path entries = dir.resolve("cache");
        FactsCache cache = new FactsCache(entries, 0, Long.MAX_VALUE);
        AtomicInteger reads = new AtomicInteger();
        Function<RecordingSource, RecordingFacts> read = x -> {
            reads.incrementAndGet();
            return RecordingFacts.of(x);
        };
        String truth = answers(cache.facts(s, read));
        Files.setLastModifiedTime(
                file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() - 60_000));
        assertThat(answers(cache.facts(s, read))).isEqualTo(truth);
        assertThat(reads).as("a file with another time is read again").hasValue(2);
        Path entry = only(entries);
        Files.write(entry, new byte[] {1, 2, 3});
        assertThat(answers(cache.facts(s, read))).isEqualTo(truth);
        assertThat(reads).as("a damaged entry is read again").hasValue(3);
        entry = only(entries);
        try (ObjectOutputStream o = new ObjectOutputStream(Files.newOutputStream(entry))) {
            o.writeObject(new URI("http://example.org/")); // not facts: the filter refuses to make it
        }
        assertThat(answers(cache.facts(s, read))).isEqualTo(truth);
        assertThat(reads)
                .as("an entry holding anything but facts is read again")
                .hasValue(4);
        assertThat(answers(cache.facts(s, read))).isEqualTo(truth);
        assertThat(reads).as("and kept anew").hasValue(4);
    }

    @Test
    void theEntriesStayWithinTheirBoundAndSmallRecordingsAreNotKept() throws Exception {
        Path a = ownRecording();
        Path b = Files.copy(a, dir.resolve("copy.jfr"));
        Path entries = dir.resolve("cache");
        Files.createDirectories(entries);
        // what a write cut short (Ctrl-C) left an hour ago goes; one being written now by another command stays
        Path cutShort = Files.writeString(entries.resolve("entry1.part"), "half an entry");
        Files.setLastModifiedTime(cutShort, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        Path writing = Files.writeString(entries.resolve("entry2.part"), "an entry being written");
        new FactsCache(entries, 0, Long.MAX_VALUE).facts(RecordingSource.file(a), RecordingFacts::of);
        assertThat(cutShort).doesNotExist();
        Files.delete(writing);
        long one = Files.size(only(entries));
        FactsCache bounded = new FactsCache(entries, 0, one + one / 2);
        bounded.facts(RecordingSource.file(b), RecordingFacts::of);
        assertThat(only(entries)).as("the older entry went").isNotNull();
        Path fresh = dir.resolve("fresh");
        new FactsCache(fresh, Files.size(a) + 1, Long.MAX_VALUE).facts(RecordingSource.file(a), RecordingFacts::of);
        assertThat(fresh).doesNotExist();
        FactsCache.OFF.facts(RecordingSource.file(a), RecordingFacts::of);
    }

    private static Path only(Path entries) throws Exception {
        try (Stream<Path> s = Files.list(entries)) {
            List<Path> all = s.toList();
            assertThat(all).hasSize(1);
            return all.get(0);
        }
    }
}
