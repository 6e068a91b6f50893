package dev.loomscope.options;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's options, async-profiler style ({@code key=value,key=value}), from the environment variable
 * {@code LOOMSCOPE_AGENT_OPTS} and the {@code -javaagent} argument (which wins). Bad input never stops the application:
 * it becomes a warning and the default is used.
 */
public final class AgentOptions {
    /**
     * The system property by which the agent tells the application how its recording stands
     * ({@code startup=background}): {@link #STARTING}, then {@link #RECORDING} or {@link #OFF}.
     */
    public static final String STATE_PROPERTY = "loomscope.agent.state";

    public static final String STARTING = "starting";
    public static final String RECORDING = "recording";
    public static final String OFF = "off";
    /** The agent's JMX bean in a running JVM, which tools ask who owns the locks threads are parked on. */
    public static final String CONTROL_BEAN = "dev.loomscope:type=Agent";
    /** The name of the agent's JFR recording, by which {@code watch --agent} finds it in a running JVM. */
    public static final String RECORDING_NAME = "loomscope";

    public static final Option OUT =
            Option.path("out", "./loomscope-recordings", "directory for the .jfr and .html files");
    public static final Option LABEL =
            Option.text("label", "the main class or jar", "name of this run, first part of the file names");
    public static final Option THREADS = Option.choice(
            "threads",
            "unknown",
            List.of("platform", "virtual", "mixed", "unknown"),
            "thread kind of this run, stored in the recording");
    public static final Option DURATION =
            Option.duration("duration", "0", true, "stop recording after this long (0: when the JVM exits)");
    public static final Option STARTUP = Option.choice(
            "startup",
            "background",
            List.of("background", "before-main"),
            "background: the recording starts on a thread of its own while the application starts (JFR takes 0.3-0.5 s"
                    + " to start), and what happens before it runs is not recorded; before-main: the application's main"
                    + " waits until the recording runs. The system property loomscope.agent.state says starting,"
                    + " recording or off");
    public static final Option PINNED_THRESHOLD = Option.duration(
            "pinned-threshold",
            "1ms",
            true,
            "record pinned virtual threads at least this long (the JDK's default, 20 ms, hides most)");
    public static final Option TRACE_PINNED = Option.choice(
            "trace-pinned",
            "short",
            List.of("off", "short", "full"),
            "print pins on stderr: short from the JDK call the first application frame made (8 frames, and below them"
                    + " every class initializer, application native frame and application frame that called into native"
                    + " code), each pinning stack and reason once (again when a pin there lasts ten times longer), at"
                    + " most 20 new ones and 1,000 in all, its repeats and the rest counted and summarised every 10 s"
                    + " (a few lines, the most pinned first); control and bidi characters escaped; full every pin with"
                    + " its whole stack; printed as JFR flushes (once a second), from the first virtual thread on"
                    + " (until then nothing is parsed: platform-only apps pay nothing for it); at exit the pins not"
                    + " printed yet are read from the recording's last chunks");
    public static final Option STALL = Option.durationOrOff(
            "stall",
            "10s",
            "when no virtual thread could get a carrier for this long (every carrier held, none moving), write two"
                    + " thread dumps beside the recording (JSON, or plain text where the JDK cannot write JSON), record"
                    + " a loomscope.SchedulerStall event and say so in one line on stderr (the application runs on;"
                    + " watched only once the application runs virtual threads; at most 3 stalls a JVM are dumped)");
    /** The word of {@link #WORK} that names the requests of the servers the agent knows: its default. */
    public static final String REQUESTS = "requests";

    public static final Option WORK = Option.text(
            "work",
            REQUESTS,
            "the application's unit of work (a request, a job): methods in JFR's filter syntax, several joined by ;"
                    + " (com.example.Handler::handle;@jakarta.ws.rs.GET), and requests, the requests of the servers the"
                    + " agent knows (Tomcat, Jetty, Undertow's servlets, the JDK's HttpServer handlers, Spring WebFlux,"
                    + " Vert.x; counted only on the last two), the default; off for none. Every call is counted and"
                    + " timed by the agent, the same on every JDK, and recorded a second at a time"
                    + " (loomscope.WorkWindow: the count and a histogram of the durations; a method called over 100,000"
                    + " times a second has one call in 64 timed), and compare, summary, report, export, advise, watch"
                    + " and study give calls a second, service time p50/p99 and pins per call; a filter the user named"
                    + " that times nothing is said at exit");
    public static final Option PROFILE =
            Option.list("profile", "cpu", List.of("cpu", "wall", "alloc", "lock"), "async-profiler events");
    public static final Option ENGINE = Option.choice(
            "engine",
            "ctimer",
            List.of("ctimer", "itimer", "perf", "jfr", "jfr-cpu-time"),
            "who samples cpu: ctimer, itimer (async-profiler's timer engines: Java and native frames), perf"
                    + " (perf_events: Java, native and kernel frames; its per-thread event costs on every OS context"
                    + " switch, which slows platform threads most), jfr (JFR's own sampler, Java frames; async-profiler"
                    + " is not loaded for cpu), jfr-cpu-time (JFR's CPU-time sampler, JDK 25+ on Linux: Java frames by"
                    + " CPU time, as ctimer, no native library; elsewhere jfr with a warning)");
    public static final Option INTERVAL =
            Option.duration("interval", "10ms", false, "sampling interval for cpu and wall");
    public static final Option CSTACK = Option.choice(
            "cstack",
            "vm",
            List.of("vm", "vmx", "fp", "dwarf", "lbr", "no"),
            "native stack walking (vm: mixed mode, Java + native frames, + kernel frames with engine=perf)");
    public static final Option SETTINGS = Option.choice(
            "settings",
            "default",
            List.of("default", "profile", "*.jfc"),
            "JFR settings the loomscope events are added to: default or profile (both without the per-thread"
                    + " jdk.ThreadStart, jdk.ThreadEnd, jdk.OldObjectSample, jdk.ThreadCPULoad and the per-call"
                    + " jdk.SocketRead, jdk.SocketWrite), or a .jfc as it is");
    public static final Option CTXSW_PERIOD =
            Option.duration("ctxsw-period", "1s", false, "how often process context switches are recorded");
    public static final Option HELD_MONITORS = Option.durationOrOff(
            "held-monitors",
            "100ms",
            "how often, on average, the platform threads are looked at for where a virtual thread would hold its"
                    + " carrier (blocking while holding a monitor, waiting to enter one, in Object.wait, under a class"
                    + " initializer, in the application's native code; and spinning, CPU runs across looks and waits"
                    + " for a pool or semaphore): loomscope.HeldMonitor events, which loomscope advise reads; each"
                    + " thread's stack walked in a handshake with it alone (no safepoint), its monitors read from the"
                    + " bytecode, the next look put off to keep the looks within 1% of a CPU; not on a run labelled"
                    + " threads=virtual, whose virtual threads they cannot see");
    public static final Option MAX_AGE = Option.duration(
            "max-age", "0", true, "keep at most this much history in the JFR disk repository (0: unlimited)");
    public static final Option MAX_SIZE =
            Option.bytes("max-size", "0", "keep at most this much in the JFR disk repository (0: unlimited)");
    public static final Option FLAME =
            Option.choice("flame", "on", List.of("on", "off"), "write a flame graph .html beside the .jfr at the end");
    public static final Option RECORD_ENV = Option.choice(
            "record-env",
            "off",
            List.of("on", "off"),
            "record environment variables, system properties and processes (may hold secrets)");
    public static final Option LIBDIR =
            Option.path("libdir", "~/.cache/loomscope", "where async-profiler's library is extracted");
    public static final Option HELP =
            Option.flag("help", "print this table on stderr and record nothing (the application runs on)");

    /** Every option of the agent, in the order {@code help} and the README list them. */
    public static final List<Option> TABLE = List.of(
            OUT,
            LABEL,
            THREADS,
            DURATION,
            STARTUP,
            PINNED_THRESHOLD,
            TRACE_PINNED,
            STALL,
            WORK,
            PROFILE,
            ENGINE,
            INTERVAL,
            CSTACK,
            SETTINGS,
            CTXSW_PERIOD,
            HELD_MONITORS,
            MAX_AGE,
            MAX_SIZE,
            FLAME,
            RECORD_ENV,
            LIBDIR,
            HELP);

    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final String given;
    private boolean help;

    private AgentOptions(String given) {
        this.given = given;
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
            if (eq < 0 && lastListKey != null && find(lastListKey).choices().contains(token)) {
                set(lastListKey, values.get(lastListKey) + "+" + token); // profile=cpu,wall
                continue;
            }
            Option spec = find(key);
            lastListKey = spec != null && spec.type() == Option.Type.LIST ? key : null;
            if (spec == null) {
                String valid = Nearest.didYouMean(key, names()) + " (valid: " + String.join(", ", names()) + ")";
                problem("unknown option '" + key + "'" + valid, "unknown option '" + key + "' ignored" + valid);
            } else if (key.equals("help")) {
                help = true;
            } else if (value == null || value.isEmpty()) {
                String what = "option '" + key + "' needs a value (" + spec.expected() + ")";
                problem(what, what + "; using " + spec.defaultValue());
            } else if (spec.problem(value) != null) {
                String what = "bad value '" + value + "' for " + key + " (expected " + spec.expected() + ")";
                problem(what, what + "; using " + spec.defaultValue());
                lastListKey = null;
            } else {
                set(key, spec.type() == Option.Type.CHOICE ? spec.canonical(value) : value);
            }
        }
    }

    private void set(String key, String value) {
        values.put(key, value);
    }

    private static Option find(String name) {
        for (Option s : TABLE) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    private static List<String> names() {
        return TABLE.stream().map(Option::name).toList();
    }

    /** The options as given (env, then agent argument), for the recording. */
    public String given() {
        return given;
    }

    /**
     * One thing wrong: said alone (for a caller that refuses it) and as the agent's warning, with what the agent does
     * about it.
     */
    private void problem(String problem, String warning) {
        problems.add(problem);
        warnings.add(warning);
    }

    /** What is wrong with the options, each without what the agent does about it: for a caller that refuses them. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public boolean helpRequested() {
        return help;
    }

    /** The value of {@code option} (one of {@link #TABLE}), as given or its default. */
    public String string(Option option) {
        String v = values.get(option.name());
        return v != null ? v : option.defaultValue();
    }

    public boolean isSet(Option option) {
        return values.containsKey(option.name());
    }

    /** A duration option's value; {@code off} is zero. */
    public Duration duration(Option option) {
        String v = string(option);
        return v.equals("off") ? Duration.ZERO : Durations.parse(v);
    }

    /** The {@link #WORK} filter to install: empty when it is {@link #OFF}. */
    public String work() {
        String v = string(WORK);
        return v.equals(OFF) ? "" : v;
    }

    public boolean on(Option option) {
        return string(option).equalsIgnoreCase("on");
    }

    public Path out() {
        return Path.of(string(OUT));
    }

    /**
     * The agent's options written for another process's {@code -javaagent:JAR=} (or LOOMSCOPE_AGENT_OPTS): each
     * {@link Option#is} a value, joined as {@link #parse} reads them.
     */
    public static String line(String... assignments) {
        return String.join(",", assignments);
    }

    /** Profile kinds; empty for off. */
    public List<String> profile() {
        String p = string(PROFILE);
        return p.equals("off") ? List.of() : List.of(p.split("\\+"));
    }

    /**
     * The engine option in async-profiler's words: perf_events is its "cpu" engine. The default is ctimer: perf_events
     * costs on every OS context switch (docs/benchmarks.md measures it), a cost that falls on platform threads and so
     * skews the very comparison loomscope makes.
     */
    public String cpuEngine() {
        String e = string(ENGINE);
        return e.equals("perf") ? "cpu" : e;
    }

    /** max-size in bytes (0: unlimited). */
    public long maxSizeBytes() {
        return Sizes.parse(string(MAX_SIZE));
    }

    /** The option table as text: each option with its default and values, then what it means, wrapped. */
    public static String helpText() {
        StringBuilder sb = new StringBuilder();
        sb.append("loomscope agent options: -javaagent:loomscope-agent.jar=key=value,key=value")
                .append(" (also from LOOMSCOPE_AGENT_OPTS)\n");
        for (Option o : TABLE) {
            sb.append(String.format(
                    "  %-17s default %s; %s%n",
                    o.name(), o.defaultValue().isEmpty() ? "-" : o.defaultValue(), o.values()));
            wrap(o.description(), 100 - 6)
                    .forEach(line -> sb.append("      ").append(line).append('\n'));
        }
        return sb.toString();
    }

    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
