package dev.loomscope.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {

    @Test
    void defaultsWhenNothingIsGiven() {
        AgentOptions o = AgentOptions.parse(null, null);
        assertThat(o.warnings()).isEmpty();
        assertThat(o.string(AgentOptions.OUT)).isEqualTo("./loomscope-recordings");
        assertThat(o.duration(AgentOptions.PINNED_THRESHOLD)).isEqualTo(Duration.ofMillis(1));
        assertThat(o.duration(AgentOptions.INTERVAL)).isEqualTo(Duration.ofMillis(10));
        assertThat(o.profile()).containsExactly("cpu");
        assertThat(o.string(AgentOptions.TRACE_PINNED)).isEqualTo("short");
        assertThat(o.on(AgentOptions.RECORD_ENV)).isFalse();
        assertThat(o.on(AgentOptions.FLAME)).isTrue();
        assertThat(o.cpuEngine()).isEqualTo("ctimer");
    }

    @Test
    void engineNamesTheCpuSampler() {
        assertThat(AgentOptions.parse(null, "engine=perf").cpuEngine())
                .isEqualTo("cpu"); // async-profiler's name for perf_events
        assertThat(AgentOptions.parse(null, "engine=jfr").cpuEngine()).isEqualTo("jfr");
        assertThat(AgentOptions.parse(null, "engine=jfr-cpu-time").cpuEngine()).isEqualTo("jfr-cpu-time");
        AgentOptions bad = AgentOptions.parse(null, "engine=cpu");
        assertThat(bad.cpuEngine()).isEqualTo("ctimer");
        assertThat(bad.warnings())
                .singleElement()
                .asString()
                .contains("engine")
                .contains("ctimer, itimer, perf, jfr or jfr-cpu-time");
    }

    @Test
    void agentArgumentOverridesTheEnvironment() {
        AgentOptions o = AgentOptions.parse("label=env,threads=platform", "label=arg");
        assertThat(o.string(AgentOptions.LABEL)).isEqualTo("arg");
        assertThat(o.string(AgentOptions.THREADS)).isEqualTo("platform");
        assertThat(o.given()).isEqualTo("label=env,threads=platform,label=arg");
    }

    @Test
    void profileListsTakePlusOrCommas() {
        assertThat(AgentOptions.parse(null, "profile=cpu+wall").profile()).containsExactly("cpu", "wall");
        AgentOptions o = AgentOptions.parse(null, "profile=cpu,wall,alloc,label=x");
        assertThat(o.profile()).containsExactly("cpu", "wall", "alloc");
        assertThat(o.string(AgentOptions.LABEL)).isEqualTo("x");
        assertThat(o.warnings()).isEmpty();
        assertThat(AgentOptions.parse(null, "profile=off").profile()).isEmpty();
        AgentOptions off = AgentOptions.parse(null, "profile=cpu,off");
        assertThat(off.profile()).containsExactly("cpu"); // off is not an item of a list
        assertThat(off.warnings()).singleElement().asString().startsWith("unknown option 'off' ignored");
    }

    @Test
    void stallIsADurationOrOff() {
        assertThat(AgentOptions.parse(null, "").duration(AgentOptions.STALL)).hasSeconds(10);
        assertThat(AgentOptions.parse(null, "stall=off").duration(AgentOptions.STALL))
                .isZero();
        assertThat(AgentOptions.parse(null, "stall=500ms").duration(AgentOptions.STALL))
                .hasMillis(500);
        AgentOptions zero = AgentOptions.parse(null, "stall=0");
        assertThat(zero.warnings())
                .containsExactly(
                        "bad value '0' for stall (expected a duration above 0 such as 10s, or off); using 10s");
        assertThat(zero.duration(AgentOptions.STALL)).hasSeconds(10);
        // off is stall's own word: a duration that has no use for it refuses it
        assertThat(AgentOptions.parse(null, "pinned-threshold=off").warnings())
                .singleElement()
                .asString()
                .startsWith("bad value 'off' for pinned-threshold");
    }

    @Test
    void aMistypedOptionIsNamedWithTheOneMeant() {
        assertThat(AgentOptions.parse(null, "intervall=5ms").warnings())
                .singleElement()
                .asString()
                .startsWith("unknown option 'intervall' ignored; did you mean interval? (valid: out, label,");
    }

    @Test
    void unknownAndMalformedOptionsWarnAndKeepDefaults() {
        AgentOptions o = AgentOptions.parse(null, "colour=blue,interval=fast,threads=green,out");
        assertThat(o.warnings())
                .containsExactly(
                        "unknown option 'colour' ignored (valid: out, label, threads, duration, startup,"
                                + " pinned-threshold, trace-pinned, stall, work, profile, engine, interval, cstack,"
                                + " settings, ctxsw-period, held-monitors, max-age, max-size, flame, record-env,"
                                + " libdir, help)",
                        "bad value 'fast' for interval (expected a duration above 0 such as 10ms); using 10ms",
                        "bad value 'green' for threads (expected platform, virtual, mixed or unknown); using unknown",
                        "option 'out' needs a value (a path); using ./loomscope-recordings");
        assertThat(o.duration(AgentOptions.INTERVAL)).isEqualTo(Duration.ofMillis(10));
        assertThat(o.problems())
                .containsExactly(
                        "unknown option 'colour' (valid: out, label, threads, duration, startup, pinned-threshold,"
                                + " trace-pinned, stall, work, profile, engine, interval, cstack, settings,"
                                + " ctxsw-period, held-monitors, max-age, max-size, flame, record-env, libdir, help)",
                        "bad value 'fast' for interval (expected a duration above 0 such as 10ms)",
                        "bad value 'green' for threads (expected platform, virtual, mixed or unknown)",
                        "option 'out' needs a value (a path)");
    }

    @Test
    void workTakesJfrsMethodFilterSyntax() {
        assertThat(AgentOptions.parse(null, "").string(AgentOptions.WORK))
                .isEqualTo(AgentOptions.REQUESTS); // the servers' requests by default
        assertThat(AgentOptions.parse(null, "work=off").work()).isEmpty(); // none
        AgentOptions o = AgentOptions.parse(
                null, "threads=virtual,work=com.example.Handler::handle;@jakarta.ws.rs.GET,profile=off");
        assertThat(o.warnings()).isEmpty();
        assertThat(o.string(AgentOptions.WORK)).isEqualTo("com.example.Handler::handle;@jakarta.ws.rs.GET");
    }

    @Test
    void sizesAndDurations() {
        assertThat(AgentOptions.parse(null, "max-size=500m").maxSizeBytes()).isEqualTo(500L << 20);
        assertThat(AgentOptions.parse(null, "max-size=2g").maxSizeBytes()).isEqualTo(2L << 30);
        assertThat(Durations.parse("500us")).isEqualTo(Duration.ofNanos(500_000));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void choicesMatchWhateverTheCaseAndKeepTheirSpelling() {
        AgentOptions o = AgentOptions.parse(null, "threads=Virtual,settings=/etc/Web.JFC,interval=0");
        assertThat(o.string(AgentOptions.THREADS)).isEqualTo("virtual");
        assertThat(o.string(AgentOptions.SETTINGS)).isEqualTo("/etc/Web.JFC");
        assertThat(o.warnings())
                .containsExactly("bad value '0' for interval (expected a duration above 0 such as 10ms); using 10ms");
    }

    @Test
    void helpListsEveryOptionWithDefaultValuesAndMeaning() {
        String help = AgentOptions.helpText();
        for (Option s : AgentOptions.TABLE) {
            assertThat(help).contains("  " + s.name() + " ");
        }
        assertThat(help.lines()
                        .filter(l -> l.startsWith("  pinned-threshold"))
                        .findFirst()
                        .orElseThrow())
                .contains("default 1ms")
                .contains("a duration");
        assertThat(help.lines()).allMatch(l -> l.length() <= 110, "no line runs past 110 columns");
    }

    /**
     * Options another process's agent is given are written by the same handles that read them: what is written is read
     * back.
     */
    @Test
    void theHandlesWriteWhatTheParserReadsBack() {
        String line = AgentOptions.line(
                AgentOptions.OUT.is("/tmp/r"),
                AgentOptions.THREADS.is("virtual"),
                AgentOptions.STARTUP.is("before-main"),
                AgentOptions.PROFILE.is("cpu+alloc"),
                AgentOptions.INTERVAL.is("1ms"));
        assertThat(line).isEqualTo("out=/tmp/r,threads=virtual,startup=before-main,profile=cpu+alloc,interval=1ms");
        AgentOptions o = AgentOptions.parse(null, line);
        assertThat(o.warnings()).isEmpty();
        assertThat(o.out()).hasToString("/tmp/r");
        assertThat(o.string(AgentOptions.STARTUP)).isEqualTo("before-main");
        assertThat(o.profile()).containsExactly("cpu", "alloc");
        assertThat(o.duration(AgentOptions.INTERVAL)).isEqualTo(Duration.ofMillis(1));
        // a value the option does not take, or one the line would split, is the writer's bug: it throws rather than
        // write it
        Assertions.assertThatThrownBy(() -> AgentOptions.THREADS.is("green"))
                .hasMessageStartingWith("threads=green: expected");
        Assertions.assertThatThrownBy(() -> AgentOptions.LABEL.is("a,b"))
                .hasMessage("label=a,b: a comma ends an option's value");
    }
}
