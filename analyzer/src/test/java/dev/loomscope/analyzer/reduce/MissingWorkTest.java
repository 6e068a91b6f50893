package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.read.RecordingSource;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A recording whose agent was asked for work= and has none of it says so, wherever its warnings are shown (compare, report, study). */
class MissingWorkTest {
    @Test
    void aWorkFilterThatTimedNothingIsSaid() {
        RecordingFacts none = RecordingFacts.ofRuns(RecordingSource.file(Path.of("/r/a.jfr")), List.of());
        none.summary.agentOptions = "out=/r,label=a,work=demo.Api::io;demo.Api::legacy,threads=virtual";
        assertThat(RecordingFacts.warnings(List.of(none))).containsExactly("/r/a.jfr: the agent was asked to time work=demo.Api::io;demo.Api::legacy"
                + " and recorded no call of it: left out of service time and of throughput from work (the filter named no method that ran while it"
                + " recorded; the agent's exit line said which)");
        RecordingFacts first = RecordingFacts.ofRuns(RecordingSource.file(Path.of("/r/b.jfr")), List.of());
        first.summary.agentOptions = "work=demo.Api::io";
        assertThat(first.missingWork()).contains("work=demo.Api::io and recorded no call");
        RecordingFacts notAsked = RecordingFacts.ofRuns(RecordingSource.file(Path.of("/r/c.jfr")), List.of());
        notAsked.summary.agentOptions = "out=/r,label=c,framework=work";
        assertThat(notAsked.missingWork()).isNull();
    }
}
