package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.scenarios.Corpus;
import dev.loomscope.analyzer.scenarios.Scenario;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps advise's score on the scenario corpus from falling: a subset of the corpus (a pin every JDK keeps in two ways,
 * a pool, a spin, three healthy controls) each recorded on platform threads on JDK 21 with the agent's defaults under
 * its rate, advise on the recording, its hazards against the scenario's known answer. The whole corpus, with what study
 * --app then measures, is benchmarks/scenarios.sh's (docs/analyzer.md publishes its table).
 */
class ScenarioCorpusIT {
    @TempDir
    Path dir;

    @Test
    void adviseFindsTheKnownHazardsAndNothingOnTheControls() throws Exception {
        Path java = Path.of(Jdk21IT.jdk21());
        Corpus.Score score = new Corpus.Score();
        StringBuilder said = new StringBuilder();
        for (Scenario s : List.of(
                Scenario.CLASS_INIT,
                Scenario.JNA_NATIVE,
                Scenario.SEMAPHORE,
                Scenario.YIELD_SPIN,
                Scenario.IO_SLEEP,
                Scenario.REENTRANT_LOCK,
                Scenario.HTTP_DOWNSTREAM)) {
            Corpus.Prediction p = Corpus.advise(Corpus.record(s, java, Fixtures.AGENT, dir, 20), s.rate());
            score.add(s.hazards(), p.found());
            said.append(s.label())
                    .append(": ")
                    .append(p.sites())
                    .append(" (")
                    .append(p.bottomLine())
                    .append(")\n");
            // every hazard said names its frame
            assertThat(p.sites())
                    .allSatisfy(site -> assertThat(site).containsPattern("\\((\\w+\\.java:\\d+|Native Method)\\)"));
            // a control's recording may have too few looks to tell (a busy machine's looks cost more, and keep to 1% of
            // the time): said, not a call
            if (s.control()
                    && !p.bottomLine().startsWith("switch: ")
                    && !p.bottomLine().startsWith("too few looks to tell")) {
                // nothing at a control's own work; beside a busy machine the waits to enter the JDK HTTP server's own
                // lock, taken as
                // each answer is written (the service's handler, lambda$main$0), can reach what matters: real, and the
                // scaffolding's
                assertThat(p.sites())
                        .as(said.toString())
                        .isNotEmpty()
                        .allSatisfy(site -> assertThat(site).contains("ScenarioService.lambda$main$0("));
            } else if (s.control()) {
                assertThat(p.bottomLine()).as(said.toString()).doesNotContain("and mind");
            }
        }
        assertThat(score.precision()).as(score + "\n" + said).isGreaterThanOrEqualTo(0.8);
        assertThat(score.recall()).as(score + "\n" + said).isGreaterThanOrEqualTo(0.8);
    }

    /**
     * Keeps watch's score on a subset of the corpus on JDK 25, where {@code synchronized} no longer pins and these are
     * the troubles left: carriers blocked in native code alarmed at the native frame within 30 s of the watch's start;
     * a spin that costs no other virtual thread its turn (a request waiting 5 ms in a yield loop, at 150 a second) and
     * a healthy control, no alarm. The whole corpus on both JDKs, with the false alarms' run length, is
     * benchmarks/scenarios.sh's (docs/analyzer.md publishes it).
     */
    @Test
    void watchAlarmsOnNativeBlockingAtItsFrameAndNotOnASpinWithRoomOrAControl() throws Exception {
        Path launcher = dir.resolve("loomscope");
        Files.writeString(
                launcher, "#!/bin/sh\nexec '" + ChildJvm.javaExecutable() + "' -jar '" + Fixtures.CLI + "' \"$@\"\n");
        assertThat(launcher.toFile().setExecutable(true)).isTrue();
        Path java = Path.of(ChildJvm.javaExecutable());
        Corpus.Watched blocked = Corpus.watch(Scenario.JNA_NATIVE, launcher, java, dir, 35);
        assertThat(blocked.alarms()).as(blocked.toString()).isNotEmpty();
        assertThat(blocked.alarms().get(0))
                .as(blocked.toString())
                .startsWith("native-blocking at ")
                .contains("Native.invokeInt");
        assertThat(blocked.firstAlarmSeconds()).as(blocked.toString()).isLessThanOrEqualTo(30);
        for (Scenario s : List.of(Scenario.YIELD_SPIN, Scenario.IO_SLEEP)) {
            Corpus.Watched w = Corpus.watch(s, launcher, java, dir, 20);
            assertThat(w.alarms()).as(s.label() + ": " + w).isEmpty();
        }
    }

    /**
     * A recording made without the agent (JFR's own, with Object.wait recorded from 1 ms): advise shows what the JDK's
     * events tell (the legacy future's waits, at their frame) and says what it lacks, rather than refusing it.
     */
    @Test
    void withoutTheAgentAdviseSaysWhatTheJdksEventsShowAndWhatItLacks() throws Exception {
        Path out = dir.resolve("jfr");
        Path recording = Corpus.record(
                Scenario.OBJECT_WAIT,
                Path.of(Jdk21IT.jdk21()),
                List.of("-XX:StartFlightRecording:filename=" + out.resolve("object-wait.jfr")
                        + ",jdk.JavaMonitorWait#threshold=1ms"),
                out,
                5);
        ChildJvm.Result r = Fixtures.cli(dir, "advise", "--format", "json", "--rate", "300", recording.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        JsonNode tables = new ObjectMapper().readTree(r.stdout()).get("tables");
        assertThat(tables.get(0).get("name").asText()).isEqualTo("advise-jdk-events");
        JsonNode first = tables.get(0).get("rows").get(0);
        assertThat(first.get("what").asText()).isEqualTo("waits in Object.wait");
        assertThat(first.get("site").asText())
                .startsWith("dev.loomscope.analyzer.scenarios.ScenarioService$Job.await:");
        assertThat(first.get("events").asLong()).isGreaterThan(100);
        assertThat(tables.get(0).get("notes").toString()).contains("what this recording lacks");
    }
}
