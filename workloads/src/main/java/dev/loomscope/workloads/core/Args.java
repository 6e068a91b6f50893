package dev.loomscope.workloads.core;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** {@code --name value} / {@code --name=value} / {@code --flag} options, checked against what a workload takes. */
public final class Args {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Set<String> used = new TreeSet<>();
    private final Map<String, String> defaults = new LinkedHashMap<>();

    public Args(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (shortFlag(a)) {
                values.put(a.substring(1), "true"); // ab-style -k
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
            }
        }
    }

    private static boolean shortFlag(String a) {
        return a.length() == 2 && a.charAt(0) == '-' && Character.isLetter(a.charAt(1));
    }

    public String string(String name, String def) {
        used.add(name);
        defaults.putIfAbsent(name, def);
        return values.getOrDefault(name, def);
    }

    public String oneOf(String name, String def, List<String> allowed) {
        defaults.putIfAbsent(name, String.join("|", allowed) + " (default " + def + ")");
        String v = string(name, def);
        if (!allowed.contains(v)) {
            throw new BadArgumentException("--" + name + " " + v + ": expected one of " + String.join(", ", allowed));
        }
        return v;
    }

    public int integer(String name, int def, int min, int max) {
        long v = longValue(name, def, min, max);
        return (int) v;
    }

    public long longValue(String name, long def, long min, long max) {
        String s = string(name, Long.toString(def)).replace("_", "");
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new BadArgumentException("--" + name + " " + s + ": not a whole number");
        }
        if (v < min || v > max) {
            throw new BadArgumentException("--" + name + " " + v + ": must be between " + min + " and " + max);
        }
        return v;
    }

    public boolean flag(String name) {
        String v = string(name, "false");
        if (!v.equals("true") && !v.equals("false")) {
            throw new BadArgumentException("--" + name + " " + v + ": expected true or false");
        }
        return v.equals("true");
    }

    public boolean has(String name) {
        used.add(name);
        defaults.putIfAbsent(name, "(not set)");
        return values.containsKey(name);
    }

    /** Every option read so far with its default, in the order read: the workload's help. */
    public Map<String, String> defaults() {
        return java.util.Collections.unmodifiableMap(defaults);
    }

    /** Call after reading every option: names what was given but not understood. */
    public void rejectUnknown(String workload) {
        Set<String> unknown = new TreeSet<>(values.keySet());
        unknown.removeAll(used);
        if (!unknown.isEmpty()) {
            throw new BadArgumentException(workload + ": unknown option --" + String.join(", --", unknown)
                    + " (valid: --" + String.join(", --", used) + ")");
        }
    }
}
