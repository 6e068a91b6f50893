package dev.loomscope.options;

import java.util.Locale;
import java.util.regex.Pattern;

/** Sizes as users write them (the JFR repository's bound): 0, 1024, 64k, 500m, 2g, a trailing b allowed. */
public final class Sizes {
    private static final Pattern SIZE = Pattern.compile("\\d+[kmg]?b?", Pattern.CASE_INSENSITIVE);

    private Sizes() {}

    public static boolean valid(String s) {
        return s.equals("0") || SIZE.matcher(s).matches();
    }

    /** The size in bytes; {@code s} must be {@link #valid}. */
    public static long parse(String s) {
        String v = s.toLowerCase(Locale.ROOT).replace("b", "");
        if (v.equals("0") || v.isEmpty()) {
            return 0;
        }
        char unit = v.charAt(v.length() - 1);
        long mult = switch (unit) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        return Long.parseLong(Character.isDigit(unit) ? v : v.substring(0, v.length() - 1)) * mult;
    }
}
