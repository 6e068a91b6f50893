package dev.loomscope.options;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as users write them (profiler intervals, thresholds): 10ms, 1s, 500us, 2m, 1h, 0. */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s|m|h)");

    private Durations() {}

    public static boolean valid(String s) {
        return s.equals("0") || DURATION.matcher(s.strip()).matches();
    }

    public static Duration parse(String s) {
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = DURATION.matcher(s.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration: " + s);
        }
        double v = Double.parseDouble(m.group(1));
        double nanos = switch (m.group(2)) {
            case "ns" -> v;
            case "us" -> v * 1e3;
            case "ms" -> v * 1e6;
            case "s" -> v * 1e9;
            case "m" -> v * 60e9;
            default -> v * 3600e9;
        };
        return Duration.ofNanos(Math.round(nanos));
    }
}
