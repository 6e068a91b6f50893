package dev.loomscope.agent.options;

import dev.loomscope.flamegraphs.profiler.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The agent's options, async-profiler style ({@code key=value,key=value}), from the environment
 * variable {@code LOOMSCOPE_AGENT_OPTS} and the {@code -javaagent} argument (which wins). Bad input
 * never stops the application: it becomes a warning and the default is used.
 */
public final class AgentOptions {
    private static final Set<String> KINDS = Set.of("cpu", "wall", "alloc", "lock");
    private static final Pattern SIZE = Pattern.compile("\\d+[kmg]?b?", Pattern.CASE_INSENSITIVE);

    public static final List<OptionSpec> TABLE = List.of(
            spec("out", "directory for the .jfr and .html files", "path", "./loomscope-recordings", s -> !s.isBlank(), "a directory"),
            spec("label", "name of this run, first part of the file names", "text", "the main class or jar", s -> !s.isBlank(), "text"),
            spec("threads", "thread kind of this run, stored in the recording", "", "unknown",
                    oneOf("platform", "virtual", "mixed", "unknown"), "platform, virtual, mixed or unknown"),
            spec("duration", "stop recording after this long (0: when the JVM exits)", "duration", "0", Durations::valid, "a duration such as 30s"),
            spec("pinned-threshold", "record pinned virtual threads at least this long", "duration", "1ms", Durations::valid, "a duration such as 1ms"),
            spec("trace-pinned", "print pinned virtual threads on stderr while the app runs", "", "short",
                    oneOf("off", "short", "full"), "off, short or full"),
            new OptionSpec("profile", "async-profiler events: cpu, wall, alloc, lock (several: cpu+wall), or off", "list", "cpu",
                    true, s -> s.equals("off") || List.of(s.split("\\+")).stream().allMatch(KINDS::contains), "cpu, wall, alloc, lock (joined with +) or off"),
            spec("engine", "who samples cpu: ctimer, itimer (async-profiler's timers: Java and native frames), perf (perf_events:"
                    + " adds kernel frames, costs on every OS context switch), jfr (JFR's sampler, Java frames; async-profiler not loaded),"
                    + " jfr-cpu-time (JFR's CPU-time sampler, JDK 25+ on Linux: Java frames by CPU time, as ctimer; else jfr)", "", "ctimer",
                    oneOf("perf", "ctimer", "itimer", "jfr", "jfr-cpu-time"), "perf, ctimer, itimer, jfr or jfr-cpu-time"),
            spec("interval", "sampling interval for cpu and wall", "duration", "10ms", s -> Durations.valid(s) && !s.equals("0"), "a duration such as 10ms"),
            spec("cstack", "native stack walking (vm: mixed mode Java + native, + kernel with engine=perf)", "", "vm",
                    oneOf("vm", "vmx", "fp", "dwarf", "lbr", "no"), "vm, vmx, fp, dwarf, lbr or no"),
            spec("settings", "JFR settings the loomscope events are added to (default and profile without the per-thread"
                    + " jdk.ThreadStart, jdk.ThreadEnd, jdk.OldObjectSample, jdk.ThreadCPULoad and the per-call jdk.SocketRead,"
                    + " jdk.SocketWrite; a .jfc as it is)", "", "default",
                    s -> s.equals("default") || s.equals("profile") || s.endsWith(".jfc"), "default, profile or a .jfc path"),
            spec("ctxsw-period", "how often process context switches are recorded", "duration", "1s", s -> Durations.valid(s) && !s.equals("0"), "a duration such as 1s"),
            spec("max-age", "keep at most this much history on disk (0: unlimited)", "duration", "0", Durations::valid, "a duration such as 1h"),
            spec("max-size", "keep at most this much on disk (0: unlimited)", "bytes", "0", s -> s.equals("0") || SIZE.matcher(s).matches(), "a size such as 500m"),
            spec("flame", "write a flame graph .html beside the .jfr at the end", "", "on", oneOf("on", "off"), "on or off"),
            spec("record-env", "record environment variables, system properties and processes (may hold secrets)", "", "off",
                    oneOf("on", "off"), "on or off"),
            spec("libdir", "where async-profiler's library is extracted", "path", "~/.cache/loomscope", s -> !s.isBlank(), "a directory"),
            spec("help", "print this table on stderr and record nothing (the application runs on)", "", "", s -> true, ""));

    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private final String given;
    private boolean help;

    private AgentOptions(String given) {
        this.given = given;
    }

    private static OptionSpec spec(String name, String meaning, String unit, String def, Predicate<String> valid, String expected) {
        return new OptionSpec(name, meaning, unit, def, false, valid, expected);
    }

    private static Predicate<String> oneOf(String... allowed) {
        List<String> a = List.of(allowed);
        return s -> a.contains(s.toLowerCase(Locale.ROOT));
    }

    /** Parses the environment variable's options, then the agent argument's. */
    public static AgentOptions parse(String env, String agentArgs) {
        String joined = join(env, agentArgs);
        AgentOptions o = new AgentOptions(joined);
        o.read(env);
        o.read(agentArgs);
        return o;
    }

    private static String join(String a, String b) {
        boolean hasA = a != null && !a.isBlank();
        boolean hasB = b != null && !b.isBlank();
        return hasA && hasB ? a.strip() + "," + b.strip() : hasA ? a.strip() : hasB ? b.strip() : "";
    }

    private void read(String text) {
        if (text == null || text.isBlank()) {
            return;
        }
        String lastListKey = null;
        for (String token : text.split(",")) {
            token = token.strip();
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            String key = eq < 0 ? token : token.substring(0, eq).strip();
            String value = eq < 0 ? null : token.substring(eq + 1).strip();
            if (eq < 0 && lastListKey != null && find(lastListKey).valid().test(token)) {
                set(lastListKey, values.get(lastListKey) + "+" + token); // profile=cpu,wall
                continue;
            }
            OptionSpec spec = find(key);
            lastListKey = spec != null && spec.list() ? key : null;
            if (spec == null) {
                warnings.add("unknown option '" + key + "' ignored (valid: " + names() + ")");
            } else if (key.equals("help")) {
                help = true;
            } else if (value == null || value.isEmpty()) {
                warnings.add("option '" + key + "' needs a value (" + spec.expected() + "); using " + spec.defaultValue());
            } else if (!spec.valid().test(value)) {
                warnings.add("bad value '" + value + "' for " + key + " (expected " + spec.expected() + "); using " + spec.defaultValue());
                lastListKey = null;
            } else {
                set(key, value);
            }
        }
    }

    private void set(String key, String value) {
        values.put(key, value);
    }

    private static OptionSpec find(String name) {
        for (OptionSpec s : TABLE) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    private static String names() {
        return String.join(", ", TABLE.stream().map(OptionSpec::name).toList());
    }

    /** The options as given (env, then agent argument), for the recording. */
    public String given() {
        return given;
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public boolean helpRequested() {
        return help;
    }

    public String string(String name) {
        String v = values.get(name);
        return v != null ? v : find(name).defaultValue();
    }

    public boolean isSet(String name) {
        return values.containsKey(name);
    }

    public Duration duration(String name) {
        return Durations.parse(string(name));
    }

    public boolean on(String name) {
        return string(name).equalsIgnoreCase("on");
    }

    public Path out() {
        return Path.of(string("out"));
    }

    /** Profile kinds; empty for off. */
    public List<String> profile() {
        String p = string("profile");
        return p.equals("off") ? List.of() : List.of(p.split("\\+"));
    }

    /**
     * The engine option in async-profiler's words: perf_events is its "cpu" engine. The default is
     * ctimer: perf_events costs on every OS context switch (on echo at steady state 0.93 of the
     * throughput without the agent against 1.01 for ctimer, docs/benchmarks.md), a cost that falls
     * on platform threads and so skews the very comparison loomscope makes.
     */
    public String cpuEngine() {
        String e = string("engine");
        return e.equals("perf") ? "cpu" : e;
    }

    /** max-size in bytes (0: unlimited). */
    public long maxSizeBytes() {
        String s = string("max-size").toLowerCase(Locale.ROOT).replace("b", "");
        if (s.equals("0") || s.isEmpty()) {
            return 0;
        }
        char unit = s.charAt(s.length() - 1);
        long mult = switch (unit) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        return Long.parseLong(Character.isDigit(unit) ? s : s.substring(0, s.length() - 1)) * mult;
    }

    /** The option table as text: name, meaning, unit, default. */
    public static String helpText() {
        StringBuilder sb = new StringBuilder();
        sb.append("loomscope agent options: -javaagent:loomscope-agent.jar=key=value,key=value")
                .append(" (also from LOOMSCOPE_AGENT_OPTS)\n");
        sb.append(String.format("  %-17s %-9s %-22s %s%n", "option", "unit", "default", "meaning"));
        for (OptionSpec s : TABLE) {
            sb.append(String.format("  %-17s %-9s %-22s %s%n", s.name(), s.unit(), s.defaultValue(), s.meaning()));
        }
        return sb.toString();
    }
}
