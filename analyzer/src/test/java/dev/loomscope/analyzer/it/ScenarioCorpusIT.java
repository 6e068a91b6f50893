package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.scenarios.Corpus;
import dev.loomscope.analyzer.scenarios.Scenario;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps advise's score on the scenario corpus from falling: a subset of the corpus (a pin every JDK
 * keeps in two ways, a pool, a spin, three healthy controls) each recorded on platform threads on
 * JDK 21 with the agent's defaults under its rate, advise on the recording, its hazards against the
 * scenario's known answer. The whole corpus, with what study --app then measures, is
 * benchmarks/scenarios.sh's (docs/analyzer.md publishes its table).
 */
class ScenarioCorpusIT {
    @TempDir
    Path dir;

    @Test
    void adviseFindsTheKnownHazardsAndNothingOnTheControls() throws Exception {
        Path java = Path.of(Jdk21IT.jdk21());
        Corpus.Score score = new Corpus.Score();
        StringBuilder said = new StringBuilder();
        for (Scenario s : List.of(Scenario.CLASS_INIT, Scenario.JNA_NATIVE, Scenario.SEMAPHORE, Scenario.YIELD_SPIN, Scenario.IO_SLEEP,
                Scenario.REENTRANT_LOCK, Scenario.HTTP_DOWNSTREAM)) {
            Corpus.Prediction p = Corpus.advise(Corpus.record(s, java, Fixtures.AGENT, dir, 12), s.rate());
            score.add(s.hazards(), p.found());
            said.append(s.label()).append(": ").append(p.sites()).append(" (").append(p.bottomLine()).append(")\n");
            // every hazard said names its frame
            assertThat(p.sites()).allSatisfy(site -> assertThat(site).containsPattern("\\((\\w+\\.java:\\d+|Native Method)\\)"));
            if (s.control()) {
                assertThat(p.bottomLine()).as(said.toString()).startsWith("switch: ").doesNotContain("and mind");
            }
        }
        assertThat(score.precision()).as(score + "\n" + said).isGreaterThanOrEqualTo(0.8);
        assertThat(score.recall()).as(score + "\n" + said).isGreaterThanOrEqualTo(0.8);
    }
}
