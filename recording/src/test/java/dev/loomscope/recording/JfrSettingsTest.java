package dev.loomscope.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

class JfrSettingsTest {
    @Test
    void spansAreWrittenAsJfrsSettingsWriteThem() {
        assertThat(JfrSettings.text(Duration.ofMillis(20))).isEqualTo("20 ms");
        assertThat(JfrSettings.text(Duration.ofSeconds(1))).isEqualTo("1000 ms");
        assertThat(JfrSettings.text(Duration.ofNanos(1500))).isEqualTo("1500 ns");
    }

    /** What the agent's recording and watch's stream both enable, as a JDK recording takes it. */
    @Test
    void theLoomEventsArePinsWithStacksAndThePeriodicFiguresASecond() {
        Map<String, String> s = JfrSettings.from(Map.of(JdkEvents.SOCKET_READ + "#enabled", "true"))
                .loom(Duration.ofMillis(5), Duration.ofMillis(500))
                .disable(JdkEvents.SOCKET_READ)
                .map();
        assertThat(s)
                .containsEntry(JdkEvents.VIRTUAL_THREAD_PINNED + "#enabled", "true")
                .containsEntry(JdkEvents.VIRTUAL_THREAD_PINNED + "#stackTrace", "true")
                .containsEntry(JdkEvents.VIRTUAL_THREAD_PINNED + "#threshold", "5 ms")
                .containsEntry(JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED + "#stackTrace", "true")
                .containsEntry(JdkEvents.THREAD_CONTEXT_SWITCH_RATE + "#period", "500 ms")
                .containsEntry(JdkEvents.GARBAGE_COLLECTION + "#enabled", "true")
                .containsEntry(JdkEvents.CPU_LOAD + "#period", "1000 ms")
                .containsEntry(JdkEvents.JAVA_THREAD_STATISTICS + "#period", "1000 ms")
                .containsEntry(JdkEvents.SOCKET_READ + "#enabled", "false");
        assertThat(JfrSettings.enabled(s, JdkEvents.GARBAGE_COLLECTION)).isTrue();
        assertThat(JfrSettings.enabled(s, JdkEvents.SOCKET_READ)).isFalse();
        assertThat(JfrSettings.enabled(s, JdkEvents.EXECUTION_SAMPLE)).isFalse();
        assertThat(JfrSettings.value(s, JdkEvents.VIRTUAL_THREAD_PINNED, "threshold"))
                .isEqualTo("5 ms");
        assertThat(JfrSettings.value(s, JdkEvents.EXECUTION_SAMPLE, "period")).isNull();
        try (Recording r = new Recording(s)) {
            assertThat(r.getSettings()).containsAllEntriesOf(s);
        }
    }
}
