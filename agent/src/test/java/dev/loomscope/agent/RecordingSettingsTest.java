package dev.loomscope.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.options.AgentOptions;
import dev.loomscope.recording.JdkEvents;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordingSettingsTest {

    @Test
    void namedSettingsLeaveTheCostlyEventsOffAndEnableWhatTheAnalyzerReads() throws Exception {
        for (String named : new String[] {"default", "profile"}) {
            Map<String, String> s = RecordingSettings.build(AgentOptions.parse(null, "settings=" + named), null);
            assertThat(RecordingSettings.OFF_WITH_NAMED_SETTINGS)
                    .allSatisfy(e -> assertThat(s).as(named).containsEntry(e + "#enabled", "false"));
            assertThat(s)
                    .containsEntry("jdk.VirtualThreadPinned#enabled", "true")
                    .containsEntry("jdk.VirtualThreadPinned#threshold", "1 ms")
                    .containsEntry("jdk.ObjectAllocationSample#enabled", "true")
                    .containsEntry("jdk.GarbageCollection#enabled", "true")
                    .containsEntry("loomscope.ContextSwitches#enabled", "true")
                    .containsEntry("jdk.ExecutionSample#enabled", "false");
        }
    }

    @Test
    void aJfcOfTheUsersOwnKeepsWhatItSays() throws Exception {
        Path jfc = Path.of(System.getProperty("java.home"), "lib", "jfr", "default.jfc");
        Map<String, String> s =
                RecordingSettings.build(AgentOptions.parse(null, "settings=" + jfc), JdkEvents.EXECUTION_SAMPLE);
        assertThat(RecordingSettings.OFF_WITH_NAMED_SETTINGS)
                .allSatisfy(e -> assertThat(s).containsEntry(e + "#enabled", "true"));
        assertThat(s)
                .containsEntry("jdk.ExecutionSample#enabled", "true")
                .containsEntry("jdk.ExecutionSample#period", "10 ms");
    }
}
