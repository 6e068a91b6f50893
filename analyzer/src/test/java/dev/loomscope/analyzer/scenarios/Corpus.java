package dev.loomscope.analyzer.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loomscope.analyzer.cli.Main;
import dev.loomscope.events.KnownLibrary;
import dev.loomscope.load.OpenLoop;
import dev.loomscope.load.Target;
import dev.loomscope.load.stats.Quantiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The corpus's runner: each scenario served on platform threads with the agent, under its rate for a while, then
 * {@code loomscope advise} on that recording, its hazards scored against the scenario's known answer; with
 * {@code --study}, {@code loomscope study --app} on both kinds of threads too, what virtual threads then did, against
 * the direction advise predicted. Writes {@code corpus.md} (the table docs/analyzer.md publishes) under {@code --out}.
 * With {@code --apps}, the real-application corpus ({@link App}) instead of the scenarios.
 *
 * <p>With {@code --watch SECONDS}, each scenario is also served on virtual threads without the agent under its rate
 * while {@code loomscope watch} watches it that long, a healthy control three times as long (its alarms counted: none
 * is right on a scenario virtual threads do not harm at that rate on that JDK, one or more on one they do) and then
 * {@code loomscope attach PID threads} reads two thread dumps (a deadlock or carrier starvation found or not: right
 * where the scenario is in trouble, wrong where it is not).
 *
 * <pre>
 * java -cp TEST_CLASSPATH dev.loomscope.analyzer.scenarios.Corpus --java JDK_HOME --agent AGENT_JAR --out DIR
 *     [--scenarios a,b | --apps all|a,b] [--seconds 20]
 *     [--loomscope LAUNCHER [--study true] [--watch SECONDS [--control-watch SECONDS] [--advise false]]]
 * </pre>
 */
public final class Corpus {
    private Corpus() {}

    /** What advise said of a scenario's platform recording. */
    public record Prediction(
            Set<Scenario.Hazard> found,
            List<String> sites,
            double ceiling21,
            double ceiling24,
            double held21,
            String bottomLine) {
        /** Virtual threads worse at {@code rate} on JDK 21-23 (24+ when {@code jdk24}): a ceiling below it. */
        public boolean worse(double rate, boolean jdk24) {
            double c = jdk24 ? ceiling24 : ceiling21;
            return !Double.isNaN(c) && c < rate;
        }
    }

    /** What one kind served in a study's measured windows: requests a second and the median window's latency p99. */
    public record Served(double rate, double p99) {}

    /** A study's two kinds, and the direction their difference takes. */
    public record Measured(Served platform, Served virtual, double offered) {
        /**
         * stuck (neither serves half the load), worse (virtual serves under 90% of platform's or its p99 over twice
         * platform's and 5 ms more), or same.
         */
        public String direction() {
            if (platform.rate() < offered / 2 && virtual.rate() < offered / 2) {
                return "stuck";
            }
            if (virtual.rate() < 0.9 * platform.rate() || virtual.p99() > 2 * platform.p99() + 5) {
                return "worse";
            }
            return "same";
        }
    }

    /** Hazards found and known over scenarios: the true ones, the false ones, the missed ones. */
    public static final class Score {
        private int truePositives;
        private int falsePositives;
        private int falseNegatives;

        public void add(Set<Scenario.Hazard> known, Set<Scenario.Hazard> found) {
            for (Scenario.Hazard h : found) {
                if (known.contains(h)) {
                    truePositives++;
                } else {
                    falsePositives++;
                }
            }
            for (Scenario.Hazard h : known) {
                falseNegatives += found.contains(h) ? 0 : 1;
            }
        }

        /** Of the hazards said, the share that were there; 1 when none was said. */
        public double precision() {
            return truePositives + falsePositives == 0 ? 1 : truePositives / (double) (truePositives + falsePositives);
        }

        /** Of the hazards there, the share said; 1 when none was there. */
        public double recall() {
            return truePositives + falseNegatives == 0 ? 1 : truePositives / (double) (truePositives + falseNegatives);
        }

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "precision %.2f (%d of %d said), recall %.2f (%d of %d there)",
                    precision(),
                    truePositives,
                    truePositives + falsePositives,
                    recall(),
                    truePositives,
                    truePositives + falseNegatives);
        }
    }

    /**
     * Serves {@code c} on platform threads with the agent (its defaults, as a team would record production) under its
     * rate for {@code seconds}, then stops it as an operator would (SIGTERM: the agent writes its recording); returns
     * the recording.
     */
    public static Path record(Case c, Path java, Path agent, Path dir, double seconds)
            throws IOException, InterruptedException {
        Path out = dir.resolve(c.label());
        return record(
                c,
                java,
                List.of("-javaagent:" + agent + "=out=" + out + ",label=" + c.label()
                        + ",threads=platform,profile=off,flame=off"),
                out,
                seconds);
    }

    /**
     * {@link #record} with the JVM options given (a recording made without the agent), the recording written to
     * {@code out}.
     */
    public static Path record(Case c, Path java, List<String> jvmOptions, Path out, double seconds)
            throws IOException, InterruptedException {
        Files.createDirectories(out);
        int port = freePort();
        Path log = out.resolve("service.log");
        Process p = new ProcessBuilder(c.words(java, jvmOptions, port, false))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            Target t = ready(c, p, port, log);
            try (OpenLoop load = new OpenLoop(t, c.rate(), 64, 10_000)) {
                load.window((long) (seconds * 1e9));
            }
        } finally {
            p.destroy();
            p.waitFor();
        }
        try (Stream<Path> files = Files.list(out)) {
            return files.filter(f -> f.toString().endsWith(".jfr"))
                    .findFirst()
                    .orElseThrow(() -> new IOException(c.label() + ": no recording in " + out));
        }
    }

    /** The service's target once it answers (within two minutes: an application's start-up on a busy machine). */
    private static Target ready(Case c, Process p, int port, Path log) throws IOException, InterruptedException {
        Target t = Target.of("http://127.0.0.1:" + port + c.path());
        for (int i = 0; i < 1200 && !t.answers(1000); i++) {
            if (!p.isAlive()) {
                throw new IOException(c.label() + ": the service ended before it answered: " + Files.readString(log));
            }
            Thread.sleep(100);
        }
        return t;
    }

    /**
     * {@code loomscope advise} on a recording at the rate it was recorded at (0: without {@code --rate}, the requests
     * the agent counted telling it), read from its JSON.
     */
    public static Prediction advise(Path recording, int rate) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> args = new ArrayList<>(List.of("advise", "--format", "json"));
        if (rate > 0) {
            args.addAll(List.of("--rate", Integer.toString(rate)));
        }
        args.add(recording.toString());
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        if (code != 0) {
            throw new IOException("advise " + recording + " exited " + code + ": " + err);
        }
        JsonNode tables = new ObjectMapper().readTree(out.toString()).get("tables");
        Set<Scenario.Hazard> found = EnumSet.noneOf(Scenario.Hazard.class);
        List<String> sites = new ArrayList<>();
        for (JsonNode row : tables.get(0).get("rows")) {
            if ("yes".equals(row.get("matters").asText())) {
                Scenario.Hazard h = Scenario.Hazard.of(row.get("what").asText());
                if (h != null) {
                    found.add(h);
                }
                sites.add(row.get("what").asText() + " at " + row.get("site").asText());
            }
        }
        for (JsonNode table : tables) {
            if (table.get("name").asText().equals("advise-libraries")) {
                for (JsonNode row : table.get("rows")) {
                    Scenario.Hazard h = Scenario.Hazard.ofLibrary(
                            KnownLibrary.named(row.get("library").asText()));
                    if (h != null) {
                        found.add(h);
                        sites.add(row.get("library").asText() + " "
                                + row.get("version").asText() + ": "
                                + row.get("hazard").asText());
                    }
                }
            }
        }
        JsonNode jdks = tables.get(1).get("rows");
        String bottom = "";
        for (JsonNode note : tables.get(1).get("notes")) {
            if (note.asText().startsWith("bottom line: ")) {
                bottom = note.asText().substring("bottom line: ".length());
            }
        }
        return new Prediction(
                found,
                sites,
                number(jdks.get(0), "ceiling"),
                number(jdks.get(1), "ceiling"),
                number(jdks.get(0), "held"),
                bottom);
    }

    private static double number(JsonNode row, String field) {
        JsonNode v = row.get(field);
        return v == null || v.isNull() || !v.isNumber() ? Double.NaN : v.asDouble();
    }

    /** {@code loomscope study --app} on the case, one recorded JVM a kind, no controls: what each kind served. */
    public static Measured study(Case c, Path launcher, Path javaHome, Path dir)
            throws IOException, InterruptedException {
        Path out = dir.resolve("study-" + c.label());
        List<String> cmd = List.of(
                launcher.toString(),
                "study",
                "--java",
                javaHome.toString(),
                "--app",
                c.command(),
                "--url",
                "http://localhost:{port}" + c.path(),
                "--rate",
                Integer.toString(c.rate()),
                "--forks",
                "1",
                "--controls",
                "0",
                "--windows",
                "3",
                "--max-warmup",
                "10s",
                "--ready-timeout",
                "120",
                "--out",
                out.toString());
        Path log = dir.resolve("study-" + c.label() + ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        p.waitFor();
        return new Measured(
                served(out.resolve("recordings/app-platform-1/load.csv")),
                served(out.resolve("recordings/app-virtual-1/load.csv")),
                c.rate());
    }

    /** The measured windows of a load client's results: answered a second over them all, the median window's p99. */
    static Served served(Path csv) throws IOException {
        if (!Files.exists(csv)) {
            return new Served(0, Double.NaN);
        }
        List<String> lines = Files.readAllLines(csv);
        List<String> header = Arrays.asList(lines.get(0).split(","));
        int nanos = header.indexOf("nanos");
        int warmup = header.indexOf("warmup");
        int units = header.indexOf("units");
        int p99 = header.indexOf("p99LatencyMs");
        long answered = 0;
        long time = 0;
        List<Double> p99s = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            if (f.length <= p99 || Boolean.parseBoolean(f[warmup])) {
                continue;
            }
            answered += Long.parseLong(f[units]);
            time += Long.parseLong(f[nanos]);
            p99s.add(Double.parseDouble(f[p99]));
        }
        p99s.sort(null);
        return new Served(
                time == 0 ? 0 : answered / (time / 1e9), p99s.isEmpty() ? Double.NaN : p99s.get(p99s.size() / 2));
    }

    /**
     * What watch raised on the scenario on virtual threads (each alarm's kind and frame), the seconds its refreshes
     * covered before the first (NaN: none), and whether threads then found it stuck.
     */
    public record Watched(List<String> alarms, double firstAlarmSeconds, boolean stuck) {}

    /**
     * Serves {@code c} on virtual threads without the agent under its rate, watched for {@code seconds}, then two
     * thread dumps read.
     */
    public static Watched watch(Case c, Path loomscope, Path java, Path dir, double seconds)
            throws IOException, InterruptedException {
        Path out = dir.resolve("watch-" + c.label());
        Files.createDirectories(out);
        int port = freePort();
        Path log = out.resolve("service.log");
        Process p = new ProcessBuilder(c.words(java, List.of(), port, true))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        List<String> alarms = new ArrayList<>();
        double first = Double.NaN;
        boolean stuck;
        try {
            Target t = ready(c, p, port, log);
            try (OpenLoop load = new OpenLoop(t, c.rate(), 64, 10_000)) {
                Thread loader = Thread.ofPlatform().daemon().start(() -> load.window((long) ((seconds + 10) * 1e9)));
                Process w = new ProcessBuilder(
                                loomscope.toString(),
                                "watch",
                                Long.toString(p.pid()),
                                "--format",
                                "json",
                                "--duration",
                                (long) seconds + "s")
                        .redirectError(out.resolve("watch.err").toFile())
                        .redirectOutput(out.resolve("watch.jsonl").toFile())
                        .start();
                w.waitFor();
                ObjectMapper json = new ObjectMapper();
                double watched = 0;
                for (String line : Files.readAllLines(out.resolve("watch.jsonl"))) {
                    JsonNode n = line.isBlank() ? null : json.readTree(line);
                    if (n != null && "tick".equals(n.path("type").asText())) {
                        watched += n.path("seconds").asDouble();
                    }
                    if (n != null && "alarm".equals(n.path("type").asText())) {
                        if (alarms.isEmpty()) {
                            first = watched;
                        }
                        alarms.add(n.path("alarm").asText() + " at "
                                + n.path("where").asText());
                    }
                }
                Process threads = new ProcessBuilder(
                                loomscope.toString(),
                                "attach",
                                "--dumps",
                                out.toString(),
                                Long.toString(p.pid()),
                                "threads")
                        .redirectErrorStream(true)
                        .redirectOutput(out.resolve("threads.txt").toFile())
                        .start();
                stuck = threads.waitFor() == 1;
                loader.interrupt();
            }
        } finally {
            p.destroyForcibly();
            p.waitFor();
        }
        return new Watched(alarms, first, stuck);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i], args[i + 1]);
        }
        Path javaHome = Path.of(o.getOrDefault("--java", System.getProperty("java.home")));
        Path java = javaHome.resolve("bin/java");
        Path agent = Path.of(o.getOrDefault("--agent", "agent/target/loomscope-agent.jar"))
                .toAbsolutePath();
        Path dir = Path.of(o.getOrDefault("--out", "target/corpus")).toAbsolutePath();
        double seconds = Double.parseDouble(o.getOrDefault("--seconds", "20"));
        Path loomscope =
                o.containsKey("--loomscope") ? Path.of(o.get("--loomscope")).toAbsolutePath() : null;
        Path launcher = Boolean.parseBoolean(o.get("--study")) ? loomscope : null;
        double watchSeconds = Double.parseDouble(o.getOrDefault("--watch", "0"));
        double controlSeconds =
                Double.parseDouble(o.getOrDefault("--control-watch", Double.toString(3 * watchSeconds)));
        boolean advise = Boolean.parseBoolean(o.getOrDefault("--advise", "true"));
        if ((launcher != null || watchSeconds > 0) && loomscope == null) {
            throw new IllegalArgumentException(
                    "--study and --watch run loomscope: give its launcher, --loomscope PATH");
        }
        List<Case> scenarios;
        if (o.containsKey("--apps")) {
            scenarios = o.get("--apps").equals("all")
                    ? List.of(App.values())
                    : Arrays.stream(o.get("--apps").split(","))
                            .<Case>map(App::named)
                            .toList();
        } else {
            scenarios = o.containsKey("--scenarios")
                    ? Arrays.stream(o.get("--scenarios").split(","))
                            .<Case>map(Scenario::named)
                            .toList()
                    : List.of(Scenario.values());
        }
        Files.createDirectories(dir);
        boolean jdk24 = feature(javaHome) >= 24;
        Score score = new Score();
        StringBuilder md = new StringBuilder();
        md.append("| scenario | rate | known hazards | advise found (sites that matter) | JDK 21-23 ceiling | 24+"
                        + " ceiling | predicted on 21 / 24+")
                .append(
                        launcher == null
                                ? ""
                                : " | measured: platform, virtual (served/s, p99 ms) | direction measured | as known"
                                        + " | ceiling / served on virtual")
                .append(" |\n|---|---|---|---|---|---|---")
                .append(launcher == null ? "" : "|---|---|---|---")
                .append("|\n");
        Score watchScore = new Score();
        Score threadsScore = new Score();
        StringBuilder watched = new StringBuilder();
        int directions = 0;
        int directionsRight = 0;
        int predictionsRight = 0;
        double healthyWatched = 0;
        int falseAlarms = 0;
        List<Double> ceilingErrors = new ArrayList<>();
        for (Case s : scenarios) {
            String known = jdk24 ? s.jdk25() : s.jdk21();
            if (advise) {
                Path recording = record(s, java, agent, dir, seconds);
                Prediction p = advise(recording, s.adviseAtRate() ? s.rate() : 0);
                score.add(s.hazards(), p.found());
                String predicted = (p.worse(s.rate(), false) ? "worse" : "not worse") + " / "
                        + (p.worse(s.rate(), true) ? "worse" : "not worse");
                md.append("| ")
                        .append(s.label())
                        .append(" | ")
                        .append(s.rate())
                        .append("/s | ")
                        .append(labels(s.hazards()))
                        .append(" | ")
                        .append(p.sites().isEmpty() ? "none" : String.join("; ", p.sites()))
                        .append(" | ")
                        .append(ceiling(p.ceiling21()))
                        .append(" | ")
                        .append(ceiling(p.ceiling24()))
                        .append(" | ")
                        .append(predicted);
                if (launcher != null) {
                    Measured m = study(s, launcher, javaHome, dir);
                    directions++;
                    directionsRight += m.direction().equals(known) ? 1 : 0;
                    predictionsRight +=
                            p.worse(s.rate(), jdk24) == m.direction().equals("worse") ? 1 : 0;
                    // the ceiling is what virtual threads serve at most: held to what they served where it binds
                    double ceiling = jdk24 ? p.ceiling24() : p.ceiling21();
                    String error = "-";
                    if (p.worse(s.rate(), jdk24) && m.virtual().rate() > 0) {
                        double e = ceiling / m.virtual().rate() - 1;
                        ceilingErrors.add(Math.abs(e));
                        error = String.format(Locale.ROOT, "%+.0f%%", 100 * e);
                    }
                    md.append(String.format(
                            Locale.ROOT,
                            " | %.0f/s %.1f ms, %.0f/s %.1f ms | %s | %s | %s",
                            m.platform().rate(),
                            m.platform().p99(),
                            m.virtual().rate(),
                            m.virtual().p99(),
                            m.direction(),
                            known,
                            error));
                }
                md.append(" |\n");
                System.out.println(s.label() + ": known " + labels(s.hazards()) + ", found " + labels(p.found()) + " ("
                        + p.bottomLine() + ")");
            }
            if (watchSeconds > 0) {
                // the controls longer: false alarms
                double secondsWatched = s.control() ? controlSeconds : watchSeconds;
                Watched w = watch(s, loomscope, java, dir, secondsWatched);
                // one token: "in trouble"
                Set<Scenario.Hazard> trouble = known.equals("same") ? Set.of() : Set.of(Scenario.Hazard.MONITOR);
                watchScore.add(trouble, w.alarms().isEmpty() ? Set.of() : Set.of(Scenario.Hazard.MONITOR));
                threadsScore.add(trouble, w.stuck() ? Set.of(Scenario.Hazard.MONITOR) : Set.of());
                if (trouble.isEmpty()) {
                    healthyWatched += secondsWatched;
                    falseAlarms += w.alarms().size();
                }
                watched.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %.0f s | %d | %s | %s | %s |%n",
                        s.label(),
                        known,
                        secondsWatched,
                        w.alarms().size(),
                        w.alarms().isEmpty() ? "none" : String.join("; ", w.alarms()),
                        Double.isNaN(w.firstAlarmSeconds())
                                ? "-"
                                : String.format(Locale.ROOT, "%.0f s", w.firstAlarmSeconds()),
                        w.stuck() ? "stuck or starved" : "nothing stuck"));
                System.out.println(s.label() + ": watched, "
                        + (w.alarms().isEmpty() ? "no alarm" : String.join("; ", w.alarms())));
            }
        }
        if (advise) {
            md.append("\nadvise's hazards over ")
                    .append(scenarios.size())
                    .append(o.containsKey("--apps") ? " applications: " : " scenarios: ")
                    .append(score)
                    .append('\n');
        }
        if (launcher != null) {
            double[] errors = ceilingErrors.stream().mapToDouble(d -> d).toArray();
            md.append(String.format(
                    Locale.ROOT,
                    "study --app on JDK %d: the direction measured as known in %d of %d; advise's ceiling (worse: below"
                            + " the rate) as measured in %d of %d; where it binds, its error against what virtual"
                            + " threads served: %s%n",
                    feature(javaHome),
                    directionsRight,
                    directions,
                    predictionsRight,
                    directions,
                    errors.length == 0
                            ? "none bound"
                            : String.format(
                                    Locale.ROOT,
                                    "median %.0f%%, largest %.0f%% (%d cases)",
                                    100 * Quantiles.of(errors, 0.5),
                                    100 * Arrays.stream(errors).max().orElseThrow(),
                                    errors.length)));
        }
        if (watchSeconds > 0) {
            md.append(String.format(
                            Locale.ROOT,
                            "%n| scenario (virtual threads, no agent, JDK %d) | virtual threads at the rate | watched |"
                                    + " alarms | which | first alarm after | threads"
                                    + " |%n|---|---|---|---|---|---|---|%n",
                            feature(javaHome)))
                    .append(watched);
            md.append("\nwatch: a scenario in trouble (worse or stuck) raised an alarm, one not in trouble none: ")
                    .append(watchScore)
                    .append('\n');
            md.append("threads (two dumps 2 s apart after the watch): a deadlock or carrier starvation found where in"
                            + " trouble, nothing where not: ")
                    .append(threadsScore)
                    .append('\n');
            md.append(String.format(
                    Locale.ROOT,
                    "false alarms on the services not in trouble: %d in %.0f s watched (%s)%n",
                    falseAlarms,
                    healthyWatched,
                    falseAlarms == 0
                            ? "none seen: the run length to a false alarm is longer than that"
                            : String.format(Locale.ROOT, "one every %.0f s on average", healthyWatched / falseAlarms)));
        }
        Files.writeString(dir.resolve("corpus.md"), md.toString());
        System.out.println(md);
    }

    /** The JDK's feature version, from its release file. */
    static int feature(Path javaHome) throws IOException {
        for (String line : Files.readAllLines(javaHome.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                return Integer.parseInt(v.split("[.+-]")[0]);
            }
        }
        throw new IOException(javaHome + "/release: no JAVA_VERSION");
    }

    private static String ceiling(double c) {
        return Double.isNaN(c) ? "none" : String.format(Locale.ROOT, "%.0f/s", c);
    }

    static String labels(Set<Scenario.Hazard> hazards) {
        return hazards.isEmpty()
                ? "none"
                : hazards.stream().map(Scenario.Hazard::label).collect(Collectors.joining(", "));
    }
}
