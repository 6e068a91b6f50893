package dev.loomscope.workloads.core;

import dev.loomscope.options.Option;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code --name value} / {@code --name=value} / {@code --flag} options, each checked against its declaration
 * ({@link Option}).
 */
public final class Args {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Set<String> used = new TreeSet<>();
    /** Options given without a value: a flag's true, any other's mistake. */
    private final Set<String> bare = new TreeSet<>();

    public Args(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (shortFlag(a)) {
                values.put(a.substring(1), "true"); // ab-style -k
                bare.add(a.substring(1));
                continue;
            }
            if (!a.startsWith("--") || a.length() == 2) {
                throw new BadArgumentException("unexpected argument '" + a + "' (options look like --runs 5)");
            }
            String name = a.substring(2);
            int eq = name.indexOf('=');
            if (eq >= 0) {
                values.put(name.substring(0, eq), name.substring(eq + 1));
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--") && !shortFlag(args.get(i + 1))) {
                values.put(name, args.get(++i));
            } else {
                values.put(name, "true");
                bare.add(name);
            }
        }
    }

    private static boolean shortFlag(String a) {
        return a.length() == 2 && a.charAt(0) == '-' && Character.isLetter(a.charAt(1));
    }

    /** The option's value as given, or null; checked against its declaration. */
    private String given(Option o) {
        used.add(o.name());
        String v = values.get(o.name());
        if (v != null && bare.contains(o.name()) && o.type() != Option.Type.FLAG) {
            throw new BadArgumentException(o.flag() + ": needs a value (" + o.expected() + ")");
        }
        String complaint = v == null ? null : o.complaint(v);
        if (complaint != null) {
            throw new BadArgumentException(complaint);
        }
        return v;
    }

    /** An integer option whose declared default is a number. */
    public int integer(Option o) {
        return (int) longValue(o, Long.parseLong(o.defaultValue()));
    }

    /** An integer option whose default the workload works out ({@code computedDefault}). */
    public int integer(Option o, int computedDefault) {
        return (int) longValue(o, computedDefault);
    }

    public long longValue(Option o, long computedDefault) {
        String v = given(o);
        return v == null ? computedDefault : Long.parseLong(v.strip().replace("_", ""));
    }

    /** A choice, spelled as declared. */
    public String choice(Option o) {
        String v = given(o);
        return v == null ? o.defaultValue() : o.canonical(v.strip());
    }

    public boolean flag(Option o) {
        String v = given(o);
        return v == null ? Boolean.parseBoolean(o.defaultValue()) : v.strip().equals("true");
    }

    /** A text or path option; null when not given. */
    public String string(Option o) {
        return given(o);
    }

    public boolean has(Option o) {
        given(o);
        return values.containsKey(o.name());
    }

    /** Call after reading every option: names what was given but not understood. */
    public void rejectUnknown(String workload) {
        Set<String> unknown = new TreeSet<>(values.keySet());
        unknown.removeAll(used);
        if (!unknown.isEmpty()) {
            throw new BadArgumentException(workload + ": unknown option --" + String.join(", --", unknown)
                    + (used.isEmpty() ? " (it takes none)" : " (valid: --" + String.join(", --", used) + ")"));
        }
    }
}
