package dev.loomscope.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The capacity search: its steps on canned outcomes, and the capacity it finds on a server whose answer is known. */
class CapacitySearchTest {
    @Test
    void itDoublesUntilAMissThenBisectsToWithinFivePercent() {
        CapacitySearch s = new CapacitySearch(Slo.parse("p99=50ms"));
        double capacity = 300;
        int steps = 0;
        for (double rate = s.next(); !Double.isNaN(rate); rate = s.next()) {
            s.record(rate, rate <= capacity);
            steps++;
        }
        // 100, 200, 400 (miss), 300, 350 (miss), 325 (miss), 313 (miss): kept 300, missed 313, 4.3% apart
        assertThat(s.capacity()).isEqualTo(300);
        assertThat(steps).isEqualTo(7);
        assertThat(s.line("GET /"))
                .startsWith(
                        "GET /: capacity at p99 <= 50.0 ms (searched, 7 steps): 300/s (kept; 313/s missed it: within"
                                + " 4%)");
        CapacitySearch none = new CapacitySearch(Slo.parse("p99=50ms"));
        for (double rate = none.next(); !Double.isNaN(rate); rate = none.next()) {
            none.record(rate, false);
        }
        assertThat(none.line("GET /")).contains("below 1.5625/s (no rate tried kept it");
        CapacitySearch cut = new CapacitySearch(Slo.parse("p99=50ms"));
        assertThat(cut.stoppedLine("GET /"))
                .isEqualTo("GET /: capacity search at p99 <= 50.0 ms stopped after 0 steps: no rate judged yet");
        cut.record(100, true);
        cut.record(200, false);
        assertThat(cut.stoppedLine("GET /"))
                .isEqualTo("GET /: capacity search at p99 <= 50.0 ms stopped after 2 steps: kept at 100/s, missed at"
                        + " 200/s");
    }

    /**
     * After a ramp that kept up to 400/s and fell behind at 800/s, the search starts between them (600, 800, 700, 750,
     * 725: five steps where a search from 400/s took seven on PetClinic); the ramp's rates are judged themselves where
     * the search needs them, and a judged step that contradicts one drops it.
     */
    @Test
    void afterARampThatFellBehindItStartsBetweenItsRatesAndJudgesThemWhereNeeded() {
        CapacitySearch s = CapacitySearch.afterRamp(Slo.parse("p99=100ms"), 400, 800);
        assertThat(run(s, 700)).containsExactly(600.0, 800.0, 700.0, 750.0, 725.0);
        assertThat(s.line("GET /"))
                .startsWith(
                        "GET /: capacity at p99 <= 100 ms (searched, 5 steps, begun between the ramp's 400/s kept up"
                                + " and 800/s fallen behind): 700/s (kept; 725/s missed it: within 4%)");
        // warm, the service keeps what it fell behind at young: the search climbs on by a quarter a step, not doubling
        // (the capacity is near)
        CapacitySearch warmer = CapacitySearch.afterRamp(Slo.parse("p99=100ms"), 400, 800);
        assertThat(run(warmer, 820)).containsExactly(600.0, 800.0, 1000.0, 900.0, 850.0, 825.0);
        assertThat(warmer.capacity()).isEqualTo(800.0);
        assertThat(run(CapacitySearch.afterRamp(Slo.parse("p99=100ms"), 400, 800), 1300))
                .startsWith(600.0, 800.0, 1000.0, 1250.0, 1560.0);
        // a miss between them: the rate the ramp kept up with is judged next; missed too, the search halves below it
        CapacitySearch lower = CapacitySearch.afterRamp(Slo.parse("p99=100ms"), 400, 800);
        assertThat(run(lower, 300)).containsExactly(600.0, 400.0, 200.0, 300.0, 350.0, 325.0, 313.0);
        // a ramp that never fell behind: the search starts at its top, as before
        assertThat(run(CapacitySearch.afterRamp(Slo.parse("p99=100ms"), 400, Double.NaN), 700)
                        .get(0))
                .isEqualTo(400.0);
    }

    /**
     * A JVM that missed 600/s young (sustaining 500/s for its first two steps, 650/s after) and kept rates up to 575/s
     * later: converged on 575 and 600, the search takes 600/s once more, its last look; kept warm, the search goes on
     * above it and finds 650/s.
     */
    @Test
    void aMissedBoundJudgedBeforeTheKeptOneGetsALastLookWarm() {
        CapacitySearch s = CapacitySearch.afterRamp(Slo.parse("p99=100ms"), 400, 800);
        List<Double> tried = new ArrayList<>();
        for (double rate = s.next(); !Double.isNaN(rate); rate = s.next()) {
            tried.add(rate);
            s.record(rate, rate <= (tried.size() <= 2 ? 500 : 650));
            if (tried.size() == 5) {
                assertThat(s.lastLook())
                        .isEqualTo(
                                "then 600/s once more, the search's last look: it missed it at step 1, before it kept"
                                        + " any rate, and kept 575/s at step 5, warmer");
            }
        }
        assertThat(tried).containsExactly(600.0, 400.0, 500.0, 550.0, 575.0, 600.0, 800.0, 700.0, 650.0, 675.0);
        assertThat(s.capacity()).isEqualTo(650.0);
        assertThat(s.lastLook()).isNull();
        // a miss after the search kept rates is a warm JVM's: bisecting down to it is no reason for another look
        CapacitySearch warm = CapacitySearch.afterRamp(Slo.parse("p99=100ms"), 400, 800);
        assertThat(run(warm, 1040)).containsExactly(600.0, 800.0, 1000.0, 1250.0, 1130.0, 1070.0, 1040.0);
    }

    /** The rates a search tries on a service that keeps the objective up to {@code capacity}. */
    private static List<Double> run(CapacitySearch s, double capacity) {
        List<Double> tried = new ArrayList<>();
        for (double rate = s.next(); !Double.isNaN(rate); rate = s.next()) {
            tried.add(rate);
            s.record(rate, rate <= capacity);
        }
        return tried;
    }

    /**
     * A miss while the service was still warming up is taken once more before it bounds the search, once a search; a
     * miss of a service warm bounds it at once, and so does every later one.
     */
    @Test
    void aMissWhileWarmingUpIsTakenOnceMoreOnceASearch() {
        CapacitySearch s = new CapacitySearch(Slo.parse("p99=50ms"));
        s.record(100, true, true);
        s.record(200, true, true);
        s.record(400, false, true); // cold: compiling still
        assertThat(s.retrying(400)).isTrue();
        assertThat(s.next()).isEqualTo(400);
        s.record(400, true, false); // warm, it keeps 400/s
        assertThat(s.next()).isEqualTo(800);
        s.record(800, false, true); // the search's one try again was taken: this miss bounds
        assertThat(s.retrying(800)).isFalse();
        assertThat(s.next()).isEqualTo(600);
        s.record(600, false, false); // a warm service's miss bounds at once
        assertThat(s.next()).isEqualTo(500);
        assertThat(s.line("GET /")).contains("(searched, 6 steps)");
    }

    /**
     * A search of {@code server}'s capacity at p99 <= 800 ms over {@code connections}: a warm-up of 2-3 s and 2 windows
     * of a second a step.
     */
    private static LoadSpec search(KnownAnswerServer server, int connections) {
        return Spec.of(server.url())
                .search("p99=800ms")
                .connections(connections)
                .warmup(Duration.ofSeconds(2), Duration.ofSeconds(3))
                .windows(2, Duration.ofSeconds(1))
                .build();
    }

    /**
     * A server slow while young (10 workers holding a request 200 ms for its first 4 s, 50/s; then 10 ms, 1,000/s), as
     * a JVM compiling: the search's first step, 100/s, misses on the young server's backlog, is taken once more, and
     * kept: the search goes on above it.
     */
    @Test
    void aYoungServersMissIsTakenOnceMoreAndKept() throws Exception {
        try (KnownAnswerServer server = new KnownAnswerServer(10, 10, 200, 4)) {
            LoadSpec spec = search(server, 50);
            StoppedRun stopped = StoppedRun.of(spec, "at 200/s");
            String text = stopped.text();
            assertThat(text.toString())
                    .as(text.toString())
                    .containsPattern("GET /: missed p99 <= 800 ms at 100/s \\(.*; taken once more before it bounds the"
                            + " search: (still warming up|it kept pace|the search's first miss)")
                    .containsPattern("GET /: kept p99 <= 800 ms at 100/s \\(");
        }
    }

    /**
     * 10 workers holding a request 200 ms serve 50 a second: the search finds that within 5%, on either thread kind of
     * the server.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void onAKnownAnswerItFindsTheCapacityWithinFivePercent(boolean virtual) throws Exception {
        try (KnownAnswerServer server = new KnownAnswerServer(10, 200, virtual)) {
            LoadSpec spec = search(server, 50);
            StringWriter text = new StringWriter();
            new LoadRun(spec, new PrintWriter(text, true), null).run();
            Matcher m = Pattern.compile(
                            "capacity at p99 <= 800(?:\\.0)? ms \\(searched, \\d+ steps\\): ([\\d.]+)/s \\(kept")
                    .matcher(text.toString());
            assertThat(m.find()).as(text.toString()).isTrue();
            assertThat(Double.parseDouble(m.group(1)))
                    .as(text.toString())
                    .isCloseTo(server.capacity(), Percentage.withPercentage(5));
            // the service's workers set it, not the client's 50 connections (50 / 200 ms carry 250/s)
            assertThat(text.toString()).doesNotContain("connections was busy");
        }
    }

    /**
     * 64 workers holding a request 100 ms serve 640 a second, but 5 connections carry at most 50: the search finds the
     * connections' 50/s and says that every connection was busy while the service answered as fast as below it, each
     * request line saying so with Little's law's bound.
     */
    @Test
    void aCapacitySetByTheClientsConnectionsIsSaidToBeThem() throws Exception {
        try (KnownAnswerServer server = new KnownAnswerServer(64, 100, false)) {
            LoadSpec spec = search(server, 5);
            StringWriter text = new StringWriter();
            new LoadRun(spec, new PrintWriter(text, true), null).run();
            Matcher m = Pattern.compile(
                            "capacity at p99 <= 800(?:\\.0)? ms \\(searched, \\d+ steps\\): ([\\d.]+)/s \\(kept;"
                                    + " [\\d.]+/s missed it: within \\d+%\\); every one of the client's 5 connections"
                                    + " was busy at [\\d.]+/s while the service answered as at [\\d.]+/s \\(from its"
                                    + " send p50 1\\d\\d\\.\\d ms against 1\\d\\d\\.\\d ms\\): the connections, not the"
                                    + " service, may be the limit")
                    .matcher(text.toString());
            assertThat(m.find()).as(text.toString()).isTrue();
            assertThat(Double.parseDouble(m.group(1))).as(text.toString()).isBetween(40.0, 52.0);
            // the first rate, 100/s, twice what 5 connections carry: Little's law's bound beside the busy connections
            assertThat(text.toString())
                    .containsPattern(
                            "at 100/s: .*every connection busy \\([45]\\.\\d of 5 on average\\): due requests waited in"
                                    + " the client for one, and at 1\\d\\d\\.\\d ms a request from its send \\(the"
                                    + " mean\\) 5 connections carry at most (?:4\\d|50)/s");
        }
    }
}
