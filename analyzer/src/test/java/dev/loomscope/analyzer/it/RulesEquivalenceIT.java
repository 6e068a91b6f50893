package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.read.JmcReader;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.rules.LoomscopeRule;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.RunnableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.Severity;

/**
 * loomscope's rules judge the same whichever way they read a recording: in JMC (its parser and item API, as JDK Mission
 * Control runs them) and in {@code loomscope rules} (loomscope's reader), on recordings where each rule has something
 * to say: pins, platform thread starts, scheduler samples, and a plain JFR recording without loomscope's events.
 */
class RulesEquivalenceIT {
    @TempDir
    static Path dir;

    @Test
    void everyRuleJudgesTheSameOnLoomscopesReaderAsInJmc() throws Exception {
        Path plain = Fixtures.plain(dir, "plain.jfr", "", 1, 1);
        int judged = 0;
        for (Path recording : List.of(
                Fixtures.fixture(dir, 3, 2), Fixtures.sleep(dir, "platform"), Fixtures.sleep(dir, "virtual"), plain)) {
            IItemCollection items = JmcReader.load(List.of(recording));
            RecordingFacts facts = RecordingFacts.of(
                    Inputs.resolve(List.of(recording.toString())).get(0));
            for (LoomscopeRule rule : LoomscopeRule.all()) {
                RunnableFuture<IResult> evaluation =
                        rule.createEvaluation(items, IPreferenceValueProvider.DEFAULT_VALUES, null);
                evaluation.run();
                IResult inJmc = evaluation.get();
                LoomscopeRule.Verdict ours = rule.judge(facts);
                String what = rule.getName() + " on " + recording.getFileName();
                assertThat(ours.severity()).as(what).isEqualTo(inJmc.getSeverity());
                assertThat(spanFree(ours.summary())).as(what).isEqualTo(spanFree(inJmc.getSummary()));
                if (ours.severity() != Severity.NA && ours.severity() != Severity.OK) {
                    assertThat(ours.explanation()).as(what).isEqualTo(inJmc.getExplanation());
                    assertThat(ours.solution()).as(what).isEqualTo(inJmc.getSolution());
                }
                judged += ours.severity() == Severity.NA ? 0 : 1;
            }
        }
        assertThat(judged).isGreaterThanOrEqualTo(10);
    }

    /**
     * A summary without the figures that depend on where the recording starts and ends: loomscope's reader takes that
     * from the chunk headers, JMC's item API from the first and last event.
     */
    static String spanFree(String summary) {
        return summary.replaceAll(
                        "\\d+\\.\\d+% of (\\d+ carriers'|one carrier's) time over the recording( \\(\\d+\\.\\d+"
                                + " carriers)?",
                        "% of $1 time over the recording")
                .replaceAll("in \\d+\\.\\d s", "in s")
                .replaceAll("up to [\\d,]+ a second", "up to a second")
                .replaceAll("about \\d+%", "about %");
    }
}
