package dev.loomscope.analyzer.views;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.reduce.CannedEvent;
import dev.loomscope.analyzer.reduce.HeldMonitorReducer;
import dev.loomscope.analyzer.reduce.HeldPerRequestTest;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.events.HeldMonitorEvent;
import dev.loomscope.events.LibraryEvent;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * advise's judgement of what the looks found, against a tenth of the carriers: a site matters only when found at enough
 * looks to tell it from chance, and less than a tenth is an all-clear only after enough looks to rule a tenth out;
 * otherwise it says there were too few looks to tell.
 */
class AdviseViewTest {
    private static final SummaryReducer.Carriers TWO = new SummaryReducer.Carriers(2, "--carriers");
    private static final Instant T0 = Instant.parse("2026-11-28T12:00:00Z");

    @Test
    void aMeanMattersOnlyWhenItsIntervalStaysAboveNoneAndNothingIsClearOnlyAfterTheRuleOfThree() {
        // one look that found one thread: a mean of 1, but no interval: it cannot tell
        assertThat(AdvisePrediction.finding(new HeldMonitorReducer.Mean(1, Double.NaN), 1, TWO))
                .isEqualTo(AdvisePrediction.Finding.UNSURE);
        assertThat(AdvisePrediction.finding(new HeldMonitorReducer.Mean(1, 0.3), 100, TWO))
                .isEqualTo(AdvisePrediction.Finding.MATTERS);
        assertThat(AdvisePrediction.finding(new HeldMonitorReducer.Mean(0.3, 0.4), 100, TWO))
                .isEqualTo(AdvisePrediction.Finding.UNSURE);
        assertThat(AdvisePrediction.finding(new HeldMonitorReducer.Mean(0.05, 0.04), 100, TWO))
                .isEqualTo(AdvisePrediction.Finding.CLEAR);
        // under a tenth on average: clear once the looks are enough, even where the interval reaches a tenth (a ceiling
        // still 9x the load)
        assertThat(AdvisePrediction.finding(new HeldMonitorReducer.Mean(0.03, 0.19), 31, TWO))
                .isEqualTo(AdvisePrediction.Finding.CLEAR);
        assertThat(AdvisePrediction.finding(new HeldMonitorReducer.Mean(0.1, 0.2), 10, TWO))
                .isEqualTo(AdvisePrediction.Finding.UNSURE);
        // none found: 3/n below a tenth of 2 carriers from 15 looks
        assertThat(AdvisePrediction.looksToRuleOut(TWO)).isEqualTo(15);
        assertThat(AdvisePrediction.looksToRuleOut(new SummaryReducer.Carriers(8, "--carriers")))
                .isEqualTo(4);
        assertThat(AdvisePrediction.finding(new HeldMonitorReducer.Mean(0, 0), 14, TWO))
                .isEqualTo(AdvisePrediction.Finding.UNSURE);
        assertThat(AdvisePrediction.finding(new HeldMonitorReducer.Mean(0, 0), 15, TWO))
                .isEqualTo(AdvisePrediction.Finding.CLEAR);
    }

    @Test
    void oneLookThatFoundAThreadEnteringAMonitorIsTooFewToTellNotAPin() {
        RecordingFacts f = looks(1, 1, HeldMonitorEvent.ENTERING);
        List<Table> tables = AdviseView.of(f, TWO, new AdvisePrediction.Load(300, "--rate", null, false), 5);
        assertThat(tables.get(0).rows().get(0)[10]).isEqualTo("too few looks to tell");
        assertThat(bottomLine(tables.get(1)))
                .startsWith("too few looks to tell: 1 looks, where telling a tenth of the 2 carriers held from none"
                        + " takes at least 15");
    }

    @Test
    void aThreadHoldingAMonitorAtEveryLookMattersOnJdk21To23Only() {
        RecordingFacts f = looks(40, 1, HeldMonitorEvent.HOLDING);
        List<Table> tables = AdviseView.of(f, TWO, new AdvisePrediction.Load(100, "--rate", null, false), 5);
        assertThat(tables.get(0).rows().get(0)[10]).isEqualTo("yes");
        assertThat(tables.get(0).rows().get(0)[8]).isEqualTo(10.0); // 1 thread at 100/s: 10 ms a request
        assertThat(bottomLine(tables.get(1)))
                .startsWith("switch on JDK 24 or later")
                .contains("10.0 ms held a request, 2 carriers serve at most 200/s");
    }

    @Test
    void fortyLooksThatFoundNothingSaySwitch() {
        List<Table> tables = AdviseView.of(
                looks(40, 0, HeldMonitorEvent.HOLDING), TWO, new AdvisePrediction.Load(100, "--rate", null, false), 5);
        assertThat(bottomLine(tables.get(1))).startsWith("switch: nothing the looks found would hold the carriers");
        assertThat(bottomLine(AdviseView.of(
                                looks(10, 0, HeldMonitorEvent.HOLDING),
                                TWO,
                                new AdvisePrediction.Load(100, "--rate", null, false),
                                5)
                        .get(1)))
                .startsWith("too few looks to tell: 10 looks");
    }

    /**
     * A server counted 100 requests a second for 40 s while the JVM used 0.25 of the machine's 2 hardware threads
     * (jdk.CPULoad each second) and one thread held a monitor at every look: 5 ms of CPU a request, so the CPU serves
     * at most 400/s, where the 2 carriers would serve 200/s at 10 ms held: the carriers bind first, and both are said.
     */
    @Test
    void theCpuBoundStandsBesideTheCarriers() {
        RecordingFacts f = served(0);
        AdvisePrediction.Load load = AdvisePrediction.load(f, 0);
        AdvisePrediction.CpuBound cpu = AdvisePrediction.cpuBound(f, load);
        assertThat(cpu.cores()).isCloseTo(0.5, Offset.offset(1e-9));
        assertThat(cpu.msPerRequest()).isCloseTo(5.0, Offset.offset(0.05));
        assertThat(cpu.ceiling()).isCloseTo(400, Offset.offset(4.0));
        List<Table> tables = AdviseView.of(f, TWO, load, 5);
        assertThat(bottomLine(tables.get(1)))
                .contains("10.0 ms held a request, 2 carriers serve at most 200/s")
                .contains("the CPU serves at most about 40");
        // a young JVM: its compilers took 200 ms a second (2 ms a request) of the 5 ms, which a warm one does not spend
        for (int sec = 0; sec < 41; sec++) {
            f.summary.fields(new CannedEvent(
                    "jdk.CompilerStatistics",
                    T0.plusSeconds(sec).plusMillis(500),
                    Map.of("totalTimeSpent", Duration.ofMillis(200L * sec))));
        }
        AdvisePrediction.CpuBound young = AdvisePrediction.cpuBound(f, load);
        assertThat(young.msPerRequest()).isCloseTo(5.0, Offset.offset(0.05));
        assertThat(young.compilerMs()).isCloseTo(2.0, Offset.offset(0.1));
        assertThat(young.ceiling()).isCloseTo(2000 / 3.0, Offset.offset(25.0));
        assertThat(AdviseView.of(f, TWO, load, 5).get(1).notes())
                .anyMatch(n -> n.contains("ms of CPU a request, of which the JIT compilers took up to 2"));
    }

    /**
     * A library the agent saw load with a known hazard is said whatever the looks found: HikariCP 7.0.2's yield spin on
     * every JDK and Connector/J 8's synchronized I/O on 21-23, each with the release that fixes it, in a table and the
     * bottom line's last words; HikariCP 7.1.0 (the fix) and Connector/J 9.1.0 say nothing; a version not told is a
     * hazard not ruled out.
     */
    @Test
    void aLoadedLibraryWithAKnownHazardIsSaidWithItsFixWhateverTheLoad() {
        RecordingFacts f = looks(40, 0, HeldMonitorEvent.HOLDING);
        f.summary.fields(new CannedEvent(
                LibraryEvent.NAME,
                T0,
                Map.of(
                        "library",
                        "HikariCP",
                        "version",
                        "7.0.2",
                        "location",
                        "jar:nested:/srv/app.jar/!BOOT-INF/lib/HikariCP-7.0.2.jar!/")));
        f.summary.fields(new CannedEvent(
                LibraryEvent.NAME, T0, Map.of("library", "MySQL Connector/J", "version", "", "location", "")));
        List<Table> tables = AdviseView.of(f, TWO, new AdvisePrediction.Load(100, "--rate", null, false), 5);
        Table libraries = tables.stream()
                .filter(t -> t.name().equals("advise-libraries"))
                .findFirst()
                .orElseThrow();
        assertThat(libraries.rows()).hasSize(2);
        assertThat(libraries.rows().get(0)).startsWith("HikariCP", "7.0.2");
        assertThat(libraries.rows().get(0)[3]).isEqualTo("every JDK");
        assertThat(libraries.rows().get(0)[4]).isEqualTo("7.1.0");
        assertThat(libraries.rows().get(1)).startsWith("MySQL Connector/J", "not told (a shaded or unpacked jar)");
        assertThat(libraries.rows().get(1)[3]).isEqualTo("21-23");
        assertThat(bottomLine(tables.get(1)))
                .startsWith("switch")
                .contains("; and mind: HikariCP 7.0.2 ConcurrentBag spins in Thread.yield")
                .contains("take HikariCP 7.1.0 or later (HikariCP issue #2398, fixed by pull request #2402)")
                .contains("MySQL Connector/J (its version not told: check it is 9.0.0 or later)");
        RecordingFacts fixed = looks(40, 0, HeldMonitorEvent.HOLDING);
        fixed.summary.fields(new CannedEvent(
                LibraryEvent.NAME, T0, Map.of("library", "HikariCP", "version", "7.1.0", "location", "")));
        fixed.summary.fields(new CannedEvent(
                LibraryEvent.NAME, T0, Map.of("library", "MySQL Connector/J", "version", "9.1.0", "location", "")));
        List<Table> none = AdviseView.of(fixed, TWO, new AdvisePrediction.Load(100, "--rate", null, false), 5);
        assertThat(none).noneMatch(t -> t.name().equals("advise-libraries"));
        assertThat(bottomLine(none.get(1))).doesNotContain("mind");
    }

    /**
     * The registry's view (the report's section) advises only the recordings with looks whose processors are known, and
     * shows their sites and carriers; a virtual-thread recording beside them adds nothing.
     */
    @Test
    void theReportsSectionAdvisesOnlyTheRecordingsWithLooks() {
        RecordingFacts looked = looks(40, 1, HeldMonitorEvent.HOLDING);
        looked.summary.hardwareThreads = 2;
        RecordingFacts virtual = RecordingFacts.empty(RecordingSource.file(Path.of("/canned/virtual.jfr")), false);
        virtual.summary.hardwareThreads = 2;
        RecordingFacts unknown = looks(40, 1, HeldMonitorEvent.HOLDING); // no processors said: not advised here
        assertThat(AdviseView.looked(looked)).isTrue();
        assertThat(AdviseView.looked(virtual)).isFalse();
        assertThat(AdviseView.looked(unknown)).isFalse();
        List<Table> section = Views.named("advise").forReport(List.of(virtual, looked, unknown));
        assertThat(section).extracting(Table::name).containsExactly("advise-sites", "advise-carriers");
        assertThat(section.get(0).rows()).hasSize(1);
        assertThat(Views.named("advise").forReport(List.of(virtual))).isEmpty();
    }

    /**
     * A recording of {@code looks} looks 100 ms apart, each finding {@code threads} threads doing {@code what} at one
     * site.
     */
    /**
     * A server that started for {@code startUp} seconds (3 threads holding a monitor at every look, no request
     * counted), then counted 100 requests a second for 40 s while the JVM used 0.25 of the machine's 2 hardware threads
     * (jdk.CPULoad each second) and one thread held a monitor at every look.
     */
    private static RecordingFacts served(int startUp) {
        RecordingFacts f = RecordingFacts.empty(RecordingSource.file(Path.of("/canned/cpu.jfr")), false);
        f.summary.span(RecordingSpan.of(
                T0.minusSeconds(startUp).toEpochMilli() * 1_000_000,
                T0.plusSeconds(40).toEpochMilli() * 1_000_000));
        for (int look = 0; look < 10 * startUp; look++) {
            held(f, T0.minusSeconds(startUp).plusMillis(100L * look), 3);
        }
        f.summary.fields(new CannedEvent(
                "jdk.CPUInformation",
                T0,
                Map.of("hwThreads", 2L))); // as the reader hands the summary its decoded types
        for (int sec = 0; sec < 40; sec++) {
            f.summary.fields(new CannedEvent(
                    "jdk.CPULoad",
                    T0.plusSeconds(sec).plusMillis(500),
                    Map.of("jvmUser", 0.2, "jvmSystem", 0.05, "machineTotal", 0.3)));
            f.dispatch(HeldPerRequestTest.window(T0.plusSeconds(sec + 1), 100));
            for (int look = 0; look < 10; look++) {
                held(f, T0.plusMillis(1000L * sec + 100L * look), 1);
            }
        }
        return f;
    }

    /** A look at {@code at} that found {@code threads} holding a monitor while they slept. */
    private static void held(RecordingFacts f, Instant at, long threads) {
        look(f, at, HeldMonitorEvent.HOLDING, threads);
    }

    /** A look at {@code at} that found {@code threads} (none: nothing) {@code what} while they slept. */
    private static void look(RecordingFacts f, Instant at, String what, long threads) {
        f.dispatch(new CannedEvent(
                "loomscope.HeldMonitorSample",
                at,
                Duration.ofMillis(1),
                Map.of("interval", 100L, "platformThreads", 20)));
        if (threads == 0) {
            return;
        }
        f.dispatch(new CannedEvent(
                "loomscope.HeldMonitor",
                at,
                Map.of(
                        "what",
                        what,
                        "threads",
                        threads,
                        "site",
                        "app.Api.legacy(Api.java:39)",
                        "blockedIn",
                        "java.lang.Thread.sleep",
                        "stack",
                        "java.lang.Thread.sleep\napp.Api.legacy(Api.java:39)")));
    }

    /**
     * Given {@code --rate}, a recording that holds its start-up (3 threads held at every look for 20 s, no request
     * counted) is judged over the span of its counted requests as without it: 10 ms held a request at 100/s, 200/s on 2
     * carriers, not the whole recording's 1.67 threads (16.7 ms, 120/s). Without counted requests, the whole recording,
     * said so.
     */
    @Test
    void aGivenRateIsTakenOverTheCountedRequestsSpanNotTheStartUp() {
        RecordingFacts f = served(20);
        AdvisePrediction.Load given = AdvisePrediction.load(f, 100);
        assertThat(given.from()).startsWith("--rate, the looks over the requests counted 39.9 s from 20.0 s into");
        AdvisePrediction.Prediction p = AdvisePrediction.predict(f, AdvisePrediction.PIN_21, TWO, given);
        assertThat(p.msPerRequest()).isCloseTo(10.0, Offset.offset(0.3));
        assertThat(p.ceiling()).isCloseTo(200, Offset.offset(6.0));
        // at a rate it was not served at, the same looks: the rate given, not the requests counted, divides them
        assertThat(AdvisePrediction.predict(f, AdvisePrediction.PIN_21, TWO, AdvisePrediction.load(f, 50))
                        .msPerRequest())
                .isCloseTo(20.0, Offset.offset(0.6));
        RecordingFacts uncounted = looks(40, 1, HeldMonitorEvent.HOLDING);
        assertThat(AdvisePrediction.load(uncounted, 100).from()).isEqualTo("--rate, over the whole recording");
    }

    private static RecordingFacts looks(int looks, int threads, String what) {
        RecordingFacts f = RecordingFacts.empty(RecordingSource.file(Path.of("/canned/app.jfr")), false);
        f.summary.span(RecordingSpan.of(
                T0.toEpochMilli() * 1_000_000, T0.plusMillis(100L * looks).toEpochMilli() * 1_000_000));
        for (int i = 0; i < looks; i++) {
            look(f, T0.plusMillis(100L * i), what, threads);
        }
        return f;
    }

    private static String bottomLine(Table t) {
        return t.notes().stream()
                .filter(n -> n.startsWith("bottom line: "))
                .findFirst()
                .orElseThrow()
                .substring("bottom line: ".length());
    }
}
