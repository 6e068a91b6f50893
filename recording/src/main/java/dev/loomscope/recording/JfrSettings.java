package dev.loomscope.recording;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * JFR settings ({@code event#setting -> value}, as a {@code .jfc} file and {@code Recording.setSettings} take them)
 * built from the events loomscope reads: the agent's recording and {@code watch}'s stream both take theirs from here,
 * so that what one enables the other enables alike (a pin's stack and threshold, the periodic figures a second).
 */
public final class JfrSettings {
    /** How often the periodic figures (CPU load, thread statistics) are read: once a second, as every line shows. */
    public static final Duration EVERY_SECOND = Duration.ofSeconds(1);

    private final Map<String, String> settings;

    private JfrSettings(Map<String, String> base) {
        settings = new HashMap<>(base);
    }

    /** Settings that start from {@code base} (a named configuration's, or none). */
    public static JfrSettings from(Map<String, String> base) {
        return new JfrSettings(base);
    }

    /**
     * What every loomscope reading of a JVM wants: pins from {@code pinThreshold} and failed submits, each with its
     * stack; the machine's context switch rate every {@code contextSwitchPeriod}; garbage collections; the JVM's and
     * the machine's CPU and the live threads every second.
     */
    public JfrSettings loom(Duration pinThreshold, Duration contextSwitchPeriod) {
        enable(JdkEvents.VIRTUAL_THREAD_PINNED, true);
        settings.put(JdkEvents.VIRTUAL_THREAD_PINNED + "#threshold", text(pinThreshold));
        enable(JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED, true);
        period(JdkEvents.THREAD_CONTEXT_SWITCH_RATE, contextSwitchPeriod);
        enable(JdkEvents.GARBAGE_COLLECTION);
        period(JdkEvents.JAVA_THREAD_STATISTICS, EVERY_SECOND);
        return period(JdkEvents.CPU_LOAD, EVERY_SECOND);
    }

    /** {@code event} on. */
    public JfrSettings enable(String event) {
        settings.put(event + "#enabled", "true");
        return this;
    }

    /** {@code event} on, with or without its stack trace. */
    public JfrSettings enable(String event, boolean stackTrace) {
        settings.put(event + "#stackTrace", Boolean.toString(stackTrace));
        return enable(event);
    }

    /** {@code event} off. */
    public JfrSettings disable(String event) {
        settings.put(event + "#enabled", "false");
        return this;
    }

    /** A periodic {@code event} on, every {@code period}. */
    public JfrSettings period(String event, Duration period) {
        settings.put(event + "#period", text(period));
        return enable(event);
    }

    /**
     * A periodic {@code event} on, at a period JFR names ({@code endChunk}, {@code beginChunk}, {@code everyChunk}).
     */
    public JfrSettings period(String event, String period) {
        settings.put(event + "#period", period);
        return enable(event);
    }

    /** Any other setting of {@code event} ({@code throttle}, say). */
    public JfrSettings set(String event, String setting, String value) {
        settings.put(event + "#" + setting, value);
        return this;
    }

    /** The settings, a copy. */
    public Map<String, String> map() {
        return Map.copyOf(settings);
    }

    /** Whether {@code settings} (a recording's, as its MXBean gives them) have {@code event} on. */
    public static boolean enabled(Map<String, String> settings, String event) {
        return "true".equals(settings.get(event + "#enabled"));
    }

    /** {@code event}'s {@code setting} in {@code settings} ({@code threshold}, {@code period}), or null. */
    public static String value(Map<String, String> settings, String event, String setting) {
        return settings.get(event + "#" + setting);
    }

    /** A span as JFR's settings write one ({@code 20 ms}, {@code 1500 ns}). */
    public static String text(Duration d) {
        return d.toNanos() % 1_000_000 == 0 ? d.toMillis() + " ms" : d.toNanos() + " ns";
    }
}
