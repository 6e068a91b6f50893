package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a set of recordings cannot show is said once wherever their warnings are shown (compare, report, study): missing
 * work, a late start.
 */
class MissingWorkTest {
    @Test
    void aWorkFilterThatTimedNothingIsSaid() {
        RecordingFacts none = RecordingFacts.ofRuns(RecordingSource.file(Path.of("/r/a.jfr")), List.of());
        none.summary.agentOptions = "out=/r,label=a,work=demo.Api::io;demo.Api::legacy,threads=virtual";
        assertThat(RecordingFacts.warnings(List.of(none)))
                .containsExactly("/r/a.jfr: the agent was asked to time work=demo.Api::io;demo.Api::legacy and recorded"
                        + " no call of it: left out of service time and of throughput from work (the filter named no"
                        + " method that ran while it recorded; the agent's exit line said which)");
        RecordingFacts first = RecordingFacts.ofRuns(RecordingSource.file(Path.of("/r/b.jfr")), List.of());
        first.summary.agentOptions = "work=demo.Api::io";
        assertThat(first.missingWork()).contains("work=demo.Api::io and recorded no call");
        RecordingFacts notAsked = RecordingFacts.ofRuns(RecordingSource.file(Path.of("/r/c.jfr")), List.of());
        notAsked.summary.agentOptions = "out=/r,label=c,framework=work";
        assertThat(notAsked.missingWork()).isNull();
    }

    @Test
    void recordingsThatBeganLateAreSaidOnceForAll() {
        Instant start = Instant.parse("2026-11-26T10:00:00Z");
        List<RecordingFacts> facts = new ArrayList<>();
        for (double late : new double[] {0.7, 1.2, 0.1}) {
            RecordingFacts f = RecordingFacts.empty(RecordingSource.file(Path.of("/r/" + late + ".jfr")), false);
            f.summary.jvmStart = start;
            f.summary.span(span(start.plusMillis((long) (late * 1000)), start.plusSeconds(10)));
            facts.add(f);
        }
        RecordingFacts held = RecordingFacts.empty(RecordingSource.file(Path.of("/r/held.jfr")), false);
        held.summary.jvmStart = start;
        held.summary.agentOptions = "startup=before-main,out=/r";
        held.summary.span(span(start.plusSeconds(2), start.plusSeconds(10)));
        facts.add(held);
        assertThat(RecordingFacts.warnings(facts))
                .containsExactly("2 of 4 recordings began 0.70-1.20 s after their JVM started: pins, GCs and thread"
                        + " starts before that are not in them, so their counts are of what came after (the agent's"
                        + " startup=before-main records from the start)");
        assertThat(RecordingFacts.warnings(List.of(facts.get(1), held)))
                .containsExactly("1 of 2 recordings began 1.20 s after its JVM started: pins, GCs and thread starts"
                        + " before that are not in it, so its counts are of what came after (the agent's"
                        + " startup=before-main records from the start)");
    }

    private static RecordingSpan span(Instant from, Instant to) {
        return RecordingSpan.of(
                from.getEpochSecond() * 1_000_000_000L + from.getNano(),
                to.getEpochSecond() * 1_000_000_000L + to.getNano());
    }
}
