package dev.loomscope.analyzer.reduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.RecordingSource;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threads a look found, as a mean over the looks each weighted by the time since the one before: looks grow sparse
 * where they are costly (many threads busy), and each of them stands for the periods skipped before it.
 */
class HeldMonitorReducerTest {
    private static final Instant T0 = Instant.parse("2026-11-28T00:00:00Z");
    private static final String[] JDK_PACKAGES = {"java.", "javax.", "jdk.", "sun.", "com.sun."};

    @TempDir
    Path dir;

    @Test
    void aLookAfterSkippedPeriodsStandsForThem() {
        HeldMonitorReducer h = new HeldMonitorReducer();
        // quiet looks at 0, 100, 200 and 300 ms find none; then busy, costly looks 400 ms apart, at 700, 1100 and 1500
        // ms, find 4 each
        long[] at = {0, 100, 200, 300, 700, 1100, 1500};
        for (int i = 0; i < at.length; i++) {
            Instant t = T0.plusMillis(at[i]);
            h.add(new CannedEvent(
                    "loomscope.HeldMonitorSample",
                    t,
                    Duration.ofNanos(500_000),
                    Map.of("platformThreads", 20L, "interval", 100L)));
            if (at[i] >= 700) {
                h.add(new CannedEvent(
                        "loomscope.HeldMonitor",
                        t.plusNanos(600_000),
                        Map.of(
                                "sample",
                                (long) i + 1,
                                "what",
                                "blocks holding a monitor",
                                "threads",
                                4L,
                                "site",
                                "demo.Api.legacy(Api.java:39)",
                                "stack",
                                "java.lang.Thread.sleep0(Native Method)")));
            }
        }
        HeldMonitorReducer.Mean m = h.mean(Set.of("blocks holding a monitor"));
        // weights: the first look the median step (250 ms), then 100, 100, 100, 400, 400, 400: 4 x 1,200 / 1,750 =
        // 2.743 (unweighted: 12 / 7 = 1.714)
        assertThat(m.mean()).isCloseTo(4 * 1200 / 1750.0, within(1e-9));
        // weighted variance (550 x m^2 + 1,200 x (4 - m)^2) / 1,750 over Kish's effective number 1,750^2 / 572,500 less
        // one
        double mean = 4 * 1200 / 1750.0;
        double variance = (550 * mean * mean + 1200 * (4 - mean) * (4 - mean)) / 1750;
        assertThat(m.half()).isCloseTo(1.96 * Math.sqrt(variance / (1750.0 * 1750 / 572_500 - 1)), within(1e-9));
        assertThat(h.samples()).isEqualTo(7);
        assertThat(h.lookSpanSeconds()).isCloseTo(1.5, within(1e-9));
        assertThat(h.lookMillis().quantile(0.5)).isCloseTo(0.5, within(1e-9));
        assertThat(h.mean(Set.of("waits to enter a monitor")).mean()).isZero();
    }

    @Test
    void looksThatAllFoundTheSameStillLeaveTheRuleOfThreesWidth() {
        HeldMonitorReducer h = new HeldMonitorReducer();
        // 200 looks 100 ms apart each find one thread holding: a share of the time under 3 / 200 with another count is
        // not ruled out
        for (int i = 0; i < 200; i++) {
            Instant t = T0.plusMillis(100L * i);
            h.add(new CannedEvent(
                    "loomscope.HeldMonitorSample",
                    t,
                    Duration.ofNanos(500_000),
                    Map.of("platformThreads", 20L, "interval", 100L)));
            h.add(new CannedEvent(
                    "loomscope.HeldMonitor",
                    t.plusNanos(600_000),
                    Map.of(
                            "sample",
                            (long) i + 1,
                            "what",
                            "blocks holding a monitor",
                            "threads",
                            1L,
                            "site",
                            "demo.Api.legacy(Api.java:39)",
                            "stack",
                            "java.lang.Thread.sleep0(Native Method)")));
        }
        HeldMonitorReducer.Mean m = h.mean(Set.of("blocks holding a monitor"));
        assertThat(m.mean()).isEqualTo(1.0);
        assertThat(m.half()).isCloseTo(3 / 200.0, within(1e-12));
        // the exact one-sided 95% bound on a share none of 200 looks found (Clopper-Pearson: 1 - 0.05^(1/200)) lies
        // inside it
        assertThat(m.high() - 1).isGreaterThan(1 - Math.pow(0.05, 1 / 200.0));
    }

    /**
     * Datadog's tracer recorded by JFR without the agent: the JDK's monitor events at an application frame (okhttp's
     * and okio's threads) are sites; those whose stack is the JDK's code alone (its cleaner, its reference handler) are
     * left out, as many as the JDK's own reader finds there.
     */
    @Test
    void theJdksMonitorEventsInItsOwnCodeAloneAreNoSite() throws Exception {
        Path file = dir.resolve("dd-trace-java.jfr");
        try (InputStream in = new GZIPInputStream(
                Files.newInputStream(Path.of("src/test/resources/corpus/peers/dd-trace-java.jfr.gz")))) {
            Files.copy(in, file);
        }
        HeldMonitorReducer h = RecordingFacts.of(RecordingSource.file(file)).held;
        Map<String, Long> sites = new TreeMap<>();
        long own = 0;
        long ownNanos = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String type = e.getEventType().getName();
            if (!type.equals(JdkEvents.JAVA_MONITOR_ENTER) && !type.equals(JdkEvents.JAVA_MONITOR_WAIT)) {
                continue;
            }
            RecordedFrame app = e.getStackTrace().getFrames().stream()
                    .filter(f -> !jdk(f.getMethod().getType().getName()))
                    .findFirst()
                    .orElse(null);
            if (app == null) {
                own++;
                ownNanos += e.getDuration().toNanos();
            } else {
                sites.merge(
                        type + " " + app.getMethod().getType().getName() + "."
                                + app.getMethod().getName() + ":" + app.getLineNumber(),
                        1L,
                        Long::sum);
            }
        }
        Map<String, Long> found = new TreeMap<>();
        h.jdkSites().forEach((site, n) -> found.put(site.event() + " " + site.site(), n.events()));
        assertThat(found).isEqualTo(sites).containsKey("jdk.JavaMonitorWait datadog.okhttp3.ConnectionPool$1.run:67");
        assertThat(own).isPositive();
        assertThat(h.jdkOwn().events()).isEqualTo(own);
        assertThat(h.jdkOwn().nanos()).isEqualTo(ownNanos);
    }

    private static boolean jdk(String className) {
        for (String p : JDK_PACKAGES) {
            if (className.startsWith(p) && !className.startsWith("com.sun.jna.")) {
                return true;
            }
        }
        return false;
    }
}
