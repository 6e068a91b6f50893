package dev.loomscope.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One option passed to a loomscope process, declared once: the parser that reads it, the help that lists it, the docs'
 * tables and the code that writes a command line for another process all take its name, type, default and bounds from
 * here.
 *
 * @param name as written, without dashes: {@code runs} is a workload's {@code --runs}, {@code interval} the agent's
 *     {@code interval=}
 * @param type what values it takes
 * @param defaultValue the value when it is not given, as written; when the program works it out, that rule in words ("8
 *     per CPU")
 * @param min the least value of an {@link Type#INTEGER}; of a {@link Type#DURATION}, 1 when 0 is not allowed
 * @param max the greatest value of an {@link Type#INTEGER}
 * @param choices the values of a {@link Type#CHOICE} (an item {@code *.jfc} takes any value ending in {@code .jfc}),
 *     the items of a {@link Type#LIST}
 * @param description what it means, one sentence or a few, plain text
 */
public record Option(
        String name, Type type, String defaultValue, long min, long max, List<String> choices, String description) {

    /** What values an option takes. */
    public enum Type {
        TEXT,
        PATH,
        INTEGER,
        /** One of {@link Option#choices}. */
        CHOICE,
        /** Items of {@link Option#choices} joined with {@code +}, or {@code off}. */
        LIST,
        /** {@code true} or {@code false}; given bare, true. */
        FLAG,
        /** As {@link Durations} reads them: 10ms, 1s, 0. */
        DURATION,
        /** As {@link Sizes} reads them: 0, 500m. */
        BYTES
    }

    public Option {
        choices = List.copyOf(choices);
    }

    public static Option text(String name, String defaultValue, String description) {
        return new Option(name, Type.TEXT, defaultValue, 0, 0, List.of(), description);
    }

    public static Option path(String name, String defaultValue, String description) {
        return new Option(name, Type.PATH, defaultValue, 0, 0, List.of(), description);
    }

    public static Option integer(String name, long defaultValue, long min, long max, String description) {
        return integer(name, Long.toString(defaultValue), min, max, description);
    }

    /** An integer whose default the program works out, given in words. */
    public static Option integer(String name, String defaultInWords, long min, long max, String description) {
        return new Option(name, Type.INTEGER, defaultInWords, min, max, List.of(), description);
    }

    public static Option choice(String name, String defaultValue, List<String> choices, String description) {
        return new Option(name, Type.CHOICE, defaultValue, 0, 0, choices, description);
    }

    public static Option list(String name, String defaultValue, List<String> items, String description) {
        return new Option(name, Type.LIST, defaultValue, 0, 0, items, description);
    }

    public static Option flag(String name, String description) {
        return new Option(name, Type.FLAG, "false", 0, 0, List.of(), description);
    }

    /** A duration; {@code zeroAllowed} false when 0 would mean nothing sensible (a sampling interval). */
    public static Option duration(String name, String defaultValue, boolean zeroAllowed, String description) {
        return new Option(name, Type.DURATION, defaultValue, zeroAllowed ? 0 : 1, 0, List.of(), description);
    }

    /** A duration above 0, or {@code off} for what it times not to happen at all. */
    public static Option durationOrOff(String name, String defaultValue, String description) {
        return new Option(name, Type.DURATION, defaultValue, 1, 0, List.of("off"), description);
    }

    public static Option bytes(String name, String defaultValue, String description) {
        return new Option(name, Type.BYTES, defaultValue, 0, 0, List.of(), description);
    }

    /** As a workload's command line takes it: {@code --runs}. */
    public String flag() {
        return "--" + name;
    }

    /**
     * As the agent's options take it: {@code threads=virtual}. A value this option does not take is a bug of the
     * caller's (the user's words go through {@link #problem}), so it throws.
     */
    public String is(String value) {
        String problem = problem(value);
        if (problem != null || value.contains(",")) {
            throw new IllegalArgumentException(
                    name + "=" + value + ": " + (problem != null ? problem : "a comma ends an option's value"));
        }
        return name + "=" + value;
    }

    /** Why {@code value} is not a value of this option (what is expected), or null when it is one. */
    public String problem(String value) {
        String v = value == null ? "" : value.strip();
        return switch (type) {
            case TEXT, PATH -> v.isEmpty() ? "must not be empty" : null;
            case INTEGER -> integerProblem(v);
            case CHOICE -> canonical(v) != null ? null : "expected " + expected();
            case LIST ->
                v.equals("off") || List.of(v.split("\\+", -1)).stream().allMatch(i -> choices.contains(i))
                        ? null
                        : "expected " + expected();
            case FLAG -> v.equals("true") || v.equals("false") ? null : "expected true or false";
            case DURATION ->
                choices.contains(v)
                        ? null
                        : !Durations.valid(v) || (min > 0 && Durations.parse(v).isZero())
                                ? "expected " + expected()
                                : null;
            case BYTES -> Sizes.valid(v) ? null : "expected " + expected();
        };
    }

    /** {@code --runs 0: must be between 1 and 100000} when {@code value} is not a value of this option, else null. */
    public String complaint(String value) {
        String problem = problem(value);
        return problem == null ? null : flag() + " " + value + ": " + problem;
    }

    private String integerProblem(String v) {
        long n;
        try {
            n = Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
            return "not a whole number";
        }
        if (n < min || n > max) {
            return max == Long.MAX_VALUE ? "must be at least " + min : "must be between " + min + " and " + max;
        }
        return null;
    }

    /** The choice {@code value} names, as declared (choices match whatever the case), or null. */
    public String canonical(String value) {
        for (String c : choices) {
            if (c.startsWith("*")
                    ? value.toLowerCase(Locale.ROOT).endsWith(c.substring(1).toLowerCase(Locale.ROOT))
                            && value.length() > c.length() - 1
                    : c.equalsIgnoreCase(value)) {
                return c.startsWith("*") ? value : c;
            }
        }
        return null;
    }

    /** What a value looks like, in words: "a whole number from 1 to 100000", "platform or virtual". */
    public String expected() {
        return switch (type) {
            case TEXT -> "text";
            case PATH -> "a path";
            case INTEGER ->
                max == Long.MAX_VALUE ? "a whole number from " + min : "a whole number from " + min + " to " + max;
            case CHOICE -> or(choices);
            case LIST -> String.join(", ", choices) + " (joined with +) or off";
            case FLAG -> "true or false (given bare: true)";
            case DURATION ->
                (min > 0 ? "a duration above 0" : "a duration") + " such as "
                        + (defaultValue.equals("0") ? "30s" : defaultValue)
                        + (choices.isEmpty() ? "" : ", or " + or(choices));
            case BYTES -> "a size such as 500m";
        };
    }

    /** The values column of a table: a number's range, else {@link #expected()}. */
    public String values() {
        return type == Type.INTEGER ? (max == Long.MAX_VALUE ? min + " or more" : min + "-" + max) : expected();
    }

    static String or(List<String> items) {
        if (items.size() < 2) {
            return String.join("", items);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " or " + items.get(items.size() - 1);
    }

    /**
     * The options as a Markdown table (option, default, values, meaning), named as written ({@code dashed}:
     * {@code --runs}).
     */
    public static String markdown(List<Option> options, boolean dashed) {
        List<String> rows = new ArrayList<>();
        rows.add("| option | default | values | meaning |");
        rows.add("|---|---|---|---|");
        for (Option o : options) {
            rows.add("| `" + (dashed ? o.flag() : o.name) + "` | " + cell(o.defaultValue) + " | " + cell(o.values())
                    + " | " + cell(o.description) + " |");
        }
        return String.join("\n", rows) + "\n";
    }

    private static String cell(String s) {
        return s.replace("|", "\\|");
    }
}
