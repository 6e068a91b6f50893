package dev.loomscope.analyzer.report;

import dev.loomscope.analyzer.compare.CompareView;
import dev.loomscope.analyzer.compare.Comparer;
import dev.loomscope.analyzer.compare.MetricResult;
import dev.loomscope.analyzer.compare.Words;
import dev.loomscope.analyzer.reduce.Flames;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.analyzer.reduce.ThreadCpu;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.threads.ThreadAnalysis;
import dev.loomscope.analyzer.threads.ThreadsView;
import dev.loomscope.analyzer.views.ThreadCpuView;
import dev.loomscope.analyzer.views.Views;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.flamegraphs.render.SampleGraph;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.RecordingSource;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The self-contained report: {@code DIR/index.html} (inline CSS and SVG, nothing fetched) with the verdicts on top, per
 * metric a boxplot and a scatter with regression lines and prediction bands and the statistics, the pinning, GC, heap
 * and context-switch sections, and links to a flame graph per group and the differential graph of each group against
 * the baseline (files beside it).
 */
public final class HtmlReport {

    /**
     * Extra lines the study adds: what was run, what failed, and what it measured beside the verdicts (the recording's
     * cost, the verdicts without a recording, the machine's thread start).
     */
    public record Extras(
            String heading,
            List<String> runLines,
            List<String> failures,
            List<String> measured,
            List<Path> threadDumps,
            List<Path> runRecordings,
            List<String> charts,
            List<String> verdictLines,
            List<String> bottomLines,
            Words words) {
        public static final Extras NONE = new Extras(null, List.of(), List.of(), List.of());

        public Extras(String heading, List<String> runLines, List<String> failures, List<String> measured) {
            this(
                    heading,
                    runLines,
                    failures,
                    measured,
                    List.of(),
                    List.of(),
                    List.of(),
                    null,
                    List.of(),
                    Words.WORKLOAD);
        }

        /** These extras with the JSON thread dumps beside the recordings (a section of their own). */
        public Extras withThreadDumps(List<Path> dumps) {
            return new Extras(
                    heading,
                    runLines,
                    failures,
                    measured,
                    List.copyOf(dumps),
                    runRecordings,
                    charts,
                    verdictLines,
                    bottomLines,
                    words);
        }

        /** These extras with each run line's recording (null: none kept), linked from the line. */
        public Extras withRunRecordings(List<Path> recordings) {
            return new Extras(
                    heading,
                    runLines,
                    failures,
                    measured,
                    threadDumps,
                    Collections.unmodifiableList(new ArrayList<>(recordings)),
                    charts,
                    verdictLines,
                    bottomLines,
                    words);
        }

        /**
         * These extras with charts (inline SVG) drawn under what was measured (a service's latency against the offered
         * rate).
         */
        public Extras withCharts(List<String> svgs) {
            return new Extras(
                    heading,
                    runLines,
                    failures,
                    measured,
                    threadDumps,
                    runRecordings,
                    List.copyOf(svgs),
                    verdictLines,
                    bottomLines,
                    words);
        }

        /**
         * These extras with the verdict lines as the terminal printed them (the report lists the other metrics' apart,
         * as more) and each workload's bottom line, which heads the report.
         */
        public Extras withVerdicts(List<String> lines, List<String> bottom) {
            return withVerdicts(lines, bottom, Words.WORKLOAD);
        }

        /** As {@link #withVerdicts(List, List)}, the verdicts said in {@code w} (a service's: per request, windows). */
        public Extras withVerdicts(List<String> lines, List<String> bottom, Words w) {
            return new Extras(
                    heading,
                    runLines,
                    failures,
                    measured,
                    threadDumps,
                    runRecordings,
                    charts,
                    List.copyOf(lines),
                    List.copyOf(bottom),
                    w);
        }
    }

    private HtmlReport() {}

    /**
     * One comparison in the report ({@code name} null when alone): the groups its statistics and sections come from,
     * and the groups its flame graphs come from (the same groups, or in a study the profiled JVMs that were not timed).
     */
    public record Part(
            String name,
            Map<String, List<RecordingFacts>> groups,
            List<MetricResult> results,
            Map<String, List<RecordingFacts>> flameGroups) {
        public Part(String name, Map<String, List<RecordingFacts>> groups, List<MetricResult> results) {
            this(name, groups, results, groups);
        }
    }

    public static Path write(
            Path dir, Map<String, List<RecordingFacts>> groups, List<MetricResult> results, Extras extras) {
        return write(dir, List.of(new Part(null, groups, results)), extras);
    }

    /**
     * {@code JDK 21.0.8+9-LTS}: the version in a recording's JVM line ({@code jdk.JVMInformation}); the line itself
     * when it has none in brackets.
     */
    public static String jdk(String jvm) {
        String version = SummaryReducer.jdkVersion(jvm);
        return "JDK " + (version != null ? version : jvm);
    }

    public static Path write(Path dir, List<Part> parts, Extras extras) {
        try {
            Files.createDirectories(dir);
            Page page = new Page("loomscope report", "loomscope: platform threads vs virtual threads");
            StringBuilder h = page.body();
            meta(h, parts);
            verdicts(h, parts, extras);
            if (!extras.failures().isEmpty()) {
                h.append("<section id='failures'><h2>Failed runs</h2>\n<ul class='failures'>\n");
                extras.failures()
                        .forEach(f -> h.append("<li>").append(Svg.esc(f)).append("</li>\n"));
                h.append("</ul></section>\n");
            }
            for (Part part : parts) {
                part(h, dir, part, extras.words());
            }
            threadDumps(h, extras.threadDumps());
            runs(h, dir, extras);
            return page.write(
                    dir,
                    "made by loomscope; statistics: quartiles R type 7, Tukey fences 1.5 IQR, OLS with t-based 95%"
                            + " intervals, bootstrap CI of the median ratio, two-sided Mann-Whitney U, Cliff's delta",
                    PRINT_SCRIPT,
                    "-o");
        } catch (IOException e) {
            throw new BadDataException(
                    dir.toAbsolutePath() + ": cannot write the report: " + e.getMessage() + " (choose another -o)");
        }
    }

    /**
     * When the page was written, the JDKs the recordings ran on and the one that wrote it; then the readers' warnings,
     * before anything else.
     */
    private static void meta(StringBuilder h, List<Part> parts) {
        // the JDK the recorded JVMs ran on is theirs; the one that wrote this page is named as such
        LinkedHashSet<String> ran = new LinkedHashSet<>();
        parts.forEach(p -> p.groups()
                .values()
                .forEach(l -> l.forEach(f -> {
                    if (f.summary.jvm != null) {
                        ran.add(jdk(f.summary.jvm));
                    }
                })));
        h.append("<p class='meta'>")
                .append(Svg.esc(ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME)))
                .append(ran.isEmpty() ? "" : " &middot; recorded on " + Svg.esc(String.join(", ", ran)))
                .append(" &middot; written by loomscope on JDK ")
                .append(Svg.esc(Runtime.version().toString()))
                .append("</p>\n");
        List<String> readerWarnings = RecordingFacts.warnings(parts.stream()
                .flatMap(p -> p.groups().values().stream())
                .flatMap(List::stream)
                .toList());
        if (!readerWarnings.isEmpty()) {
            // figures from part of a recording, or read another way, say so before anything else
            h.append("<section id='warnings' class='banner'><h2>Read with warnings</h2>\n<ul>\n");
            readerWarnings.forEach(w -> h.append("<li>").append(Svg.esc(w)).append("</li>\n"));
            h.append("</ul></section>\n");
        }
    }

    /**
     * The answer first: each workload's bottom line, every verdict in one chart, what was measured beside it, the
     * verdict lines one click away.
     */
    private static void verdicts(StringBuilder h, List<Part> parts, Extras extras) {
        h.append("<section id='verdicts'>\n");
        if (!extras.bottomLines().isEmpty()) {
            h.append("<ul class='bottom'>\n");
            extras.bottomLines()
                    .forEach(l -> h.append("<li>").append(Svg.esc(l)).append("</li>\n"));
            h.append("</ul>\n");
        }
        h.append(Forest.of(
                parts.stream().map(Part::name).toList(),
                parts.stream().map(Part::results).toList()));
        if (!extras.measured().isEmpty()) {
            h.append("<ul class='verdicts measured'>\n");
            extras.measured().forEach(l -> h.append("<li>").append(Svg.esc(l)).append("</li>\n"));
            h.append("</ul>\n");
        }
        extras.charts()
                .forEach(svg -> h.append("<figure class='chart'>").append(svg).append("</figure>\n"));
        List<String> every = new ArrayList<>();
        for (Part part : parts) {
            // every verdict line compare prints; the chart has the headline ones
            for (String v : CompareView.verdicts(part.results(), extras.words())) {
                every.add(part.name() == null ? v : part.name() + ": " + v);
            }
        }
        // the terminal's lines as it printed them; the other metrics' lines apart, said to be more
        List<String> verdictLines = extras.verdictLines() == null ? every : extras.verdictLines();
        h.append("<details class='lines'><summary>The verdicts as lines (")
                .append(verdictLines.size())
                .append("), as the terminal prints them</summary>\n<ul class='verdicts'>\n");
        verdictLines.forEach(v -> h.append("<li>").append(Svg.esc(v)).append("</li>\n"));
        if (verdictLines.isEmpty()) {
            h.append("<li>nothing to compare: no metric has values in two groups</li>\n");
        }
        h.append("</ul></details>\n");
        // the lines the terminal printed, said in the same words, are not said again
        Set<String> printed = Set.copyOf(verdictLines);
        List<String> more = every.stream().filter(v -> !printed.contains(v)).toList();
        if (!more.isEmpty()) {
            h.append("<details class='lines'><summary>More verdicts (")
                    .append(more.size())
                    .append("): the other metrics and spreads, which the terminal leaves out</summary>\n<ul"
                            + " class='verdicts'>\n");
            more.forEach(v -> h.append("<li>").append(Svg.esc(v)).append("</li>\n"));
            h.append("</ul></details>\n");
        }
        if (extras.heading() != null) {
            h.append("<p class='meta'>").append(Svg.esc(extras.heading())).append("</p>\n");
        }
        h.append("</section>\n");
    }

    /** What ran, a line each, with a link to its recording. */
    private static void runs(StringBuilder h, Path dir, Extras extras) {
        if (!extras.runLines().isEmpty()) {
            h.append("<section id='runs'><h2>What ran</h2>\n<pre>");
            for (int i = 0; i < extras.runLines().size(); i++) {
                h.append(Svg.esc(extras.runLines().get(i)));
                Path rec = i < extras.runRecordings().size()
                        ? extras.runRecordings().get(i)
                        : null;
                if (rec != null && Files.isRegularFile(rec)) {
                    String href = dir.toAbsolutePath()
                            .relativize(rec.toAbsolutePath())
                            .toString()
                            .replace(File.separatorChar, '/');
                    h.append("  <a href='")
                            .append(Svg.esc(href))
                            .append("'>")
                            .append(Svg.esc(rec.getFileName().toString()))
                            .append("</a>");
                }
                h.append('\n');
            }
            h.append("</pre></section>\n");
        }
    }

    /**
     * A part's flame graphs: from its profiled JVMs, or a line saying none were profiled; its threads' CPU tables
     * beside them.
     */
    private static void flameSection(StringBuilder h, Path dir, String id, String title, Part part, String baseline) {
        h.append("<section id='")
                .append(id)
                .append("flames'><h2>")
                .append(Svg.esc(title))
                .append("Flame graphs</h2>\n");
        if (part.flameGroups() != part.groups()) {
            h.append("<p class='meta'>From JVMs that ran the same workload with the CPU profile and were not timed (");
            h.append(Svg.esc(String.join(
                    ", ",
                    part.flameGroups().entrySet().stream()
                            .map(e -> e.getKey() + ": " + e.getValue().size())
                            .toList())));
            h.append("); the timed JVMs recorded without a profile, so the profiler's cost, larger for threads that"
                    + " start often, is not in the metrics.</p>\n");
        }
        h.append("<ul>\n");
        // the study's profiled JVMs (not timed): their graphs of the measured runs alone, without the warm-up
        boolean measuredOnly = part.flameGroups() != part.groups();
        Function<RecordingFacts, Flames.Cpu> cpus = Flames.cpus(measuredOnly);
        boolean unprofiled = part.flameGroups().values().stream()
                .flatMap(List::stream)
                .allMatch(f -> "off".equals(f.summary.profilingMode));
        if (unprofiled) {
            // one line for all: the recordings were made without a profile (as study --app's are), so there is nothing
            // to draw
            h.append("<li>no flame graphs: these recordings were made without a CPU profile (the agent's profile=off,"
                    + " as study --app records to keep the profiler's cost out of its figures; a run under the agent"
                    + " with profile=cpu gives one)</li>\n");
        } else {
            flames(dir, id, part.flameGroups(), baseline, cpus, measuredOnly)
                    .forEach(l -> h.append("<li>").append(l).append("</li>\n"));
        }
        h.append("</ul>\n");
        threadTables(part.flameGroups(), cpus).forEach(t -> h.append(HtmlTables.details(t)));
        h.append("</section>\n");
    }

    /** A part's metrics, each with its verdicts, its box plot and run strip, and the tables behind them. */
    private static void metrics(StringBuilder h, String id, String title, List<MetricResult> results, Words words) {
        h.append("<section id='")
                .append(id)
                .append("metrics'><h2>")
                .append(Svg.esc(title))
                .append("Metrics</h2>\n");
        for (MetricResult r : results) {
            h.append("<div class='metric'><h3>")
                    .append(Svg.esc(words.name(r.metric())))
                    .append(" (")
                    .append(Svg.esc(words.unit(r.metric())))
                    .append(", ")
                    .append(Svg.esc(r.metric().direction()))
                    .append(")</h3>\n");
            for (String g : r.comparisons().keySet()) {
                double ratio = r.comparisons().get(g).ratio();
                if (!Double.isNaN(ratio) && !Double.isInfinite(ratio)) {
                    h.append("<p class='verdict'>")
                            .append(Svg.esc(Comparer.verdict(r, g, words)))
                            .append("</p>\n");
                }
            }
            h.append("<div class='charts'>")
                    .append(Svg.boxplot(r))
                    .append(r.perRun() ? Svg.strip(r) : "")
                    .append("</div>\n");
            h.append(HtmlTables.details(CompareView.boxplots(List.of(r))));
            if (!r.regressions().isEmpty()) {
                h.append(HtmlTables.details(CompareView.regressions(List.of(r))));
            }
            if (!r.comparisons().isEmpty()) {
                h.append(HtmlTables.details(CompareView.comparisons(List.of(r))));
            }
            h.append("</div>\n");
        }
        h.append("</section>\n");
    }

    private static void part(StringBuilder h, Path dir, Part part, Words words) {
        String id = part.name() == null ? "" : safe(part.name()) + "-";
        String title = part.name() == null ? "" : part.name() + ": ";
        Map<String, List<RecordingFacts>> groups = part.groups();
        List<MetricResult> results = part.results();
        if (part.name() != null) {
            h.append("<h2 class='part' id='")
                    .append(id)
                    .append("part'>")
                    .append(Svg.esc(part.name()))
                    .append("</h2>\n");
        }
        h.append("<p class='meta'>");
        groups.forEach((g, fs) -> h.append(Svg.esc(g))
                .append(": ")
                .append(fs.size())
                .append(" recording")
                .append(fs.size() == 1 ? "" : "s")
                .append(" &middot; "));
        h.append("</p>\n");
        // pins in warm-ups or at start-up are said, not drawn as zero by the per-run charts
        groups.forEach((g, fs) -> {
            long pins = fs.stream().mapToLong(f -> f.pinning.all().count()).sum();
            long measured =
                    fs.stream().mapToLong(f -> f.pinsInMeasuredRuns().count()).sum();
            if (fs.stream().anyMatch(f -> !f.runs.measured().isEmpty()) && pins > measured) {
                h.append("<p class='meta'>")
                        .append(Svg.esc(String.format(
                                Locale.ROOT,
                                "%s: %,d of its %,d pins fell outside the measured runs (warm-up, start-up, between"
                                        + " runs): the per-run charts leave them out; the Pinning section has them all",
                                g,
                                pins - measured,
                                pins)))
                        .append("</p>\n");
            }
        });
        String baseline =
                results.isEmpty() ? baselineOf(groups) : results.get(0).baseline();
        flameSection(h, dir, id, title, part, baseline);
        metrics(h, id, title, results, words);
        List<RecordingFacts> all =
                groups.values().stream().flatMap(List::stream).toList();
        for (Views.View v : Views.ALL) {
            List<Table> tables = v.section() == null ? List.of() : v.forReport(all);
            if (!tables.isEmpty()) { // advise's: only recordings with looks have any
                section(h, id + v.name(), title + v.section(), tables);
            }
        }
    }

    /**
     * The thread dumps found beside the recordings, analysed as 'loomscope threads' does; a dump that cannot be read
     * says so.
     */
    private static void threadDumps(StringBuilder h, List<Path> dumps) {
        if (dumps.isEmpty()) {
            return;
        }
        h.append("<section id='threads'><h2>Thread dumps</h2>\n<p class='meta'>")
                .append(dumps.size())
                .append(" JSON thread dump(s) beside the recordings, as <code>loomscope threads</code> reads"
                        + " them.</p>\n");
        try {
            List<ThreadAnalysis> analyses = ThreadsView.analyse(dumps);
            List<String> found = analyses.stream()
                    .flatMap(a -> ThreadsView.findings(a).stream())
                    .toList();
            if (!found.isEmpty()) {
                h.append("<ul class='failures'>\n");
                found.forEach(f -> h.append("<li>").append(Svg.esc(f)).append("</li>\n"));
                h.append("</ul>\n");
            }
            ThreadsView.tables(analyses).forEach(t -> h.append(HtmlTables.details(t)));
        } catch (BadDataException e) {
            h.append("<p class='meta'>").append(Svg.esc(e.getMessage())).append("</p>\n");
        }
        h.append("</section>\n");
    }

    private static String baselineOf(Map<String, List<RecordingFacts>> groups) {
        return groups.containsKey("platform")
                ? "platform"
                : groups.keySet().iterator().next();
    }

    private static void section(StringBuilder h, String id, String title, List<Table> tables) {
        h.append("<section id='")
                .append(id)
                .append("'><h2>")
                .append(Svg.esc(title))
                .append("</h2>\n");
        tables.forEach(t -> h.append(HtmlTables.render(t)));
        h.append("</section>\n");
    }

    /**
     * One split-kind flame graph per group and a differential graph of each group vs the baseline; links, or why not.
     */
    static List<String> flames(
            Path dir,
            String prefix,
            Map<String, List<RecordingFacts>> groups,
            String baseline,
            Function<RecordingFacts, Flames.Cpu> cpus,
            boolean measuredOnly) {
        List<String> links = new ArrayList<>();
        for (Map.Entry<String, List<RecordingFacts>> g : groups.entrySet()) {
            String file = "flame-" + prefix + safe(g.getKey()) + ".html";
            List<RecordingSource> inputs = sources(g.getValue());
            try (OutputStream out = Files.newOutputStream(dir.resolve(file))) {
                FlameOptions options = Flames.Cpu.SPLIT.withTitle(g.getKey() + ": CPU flame graph");
                FlameSamples samples = Flames.of(g.getValue(), options, false, false, cpu -> cpu.split, cpus);
                SampleGraph graph = samples.graph(Flames.name(inputs));
                var drawn = FlameRenderer.render(graph, options, false, out);
                links.add("<a href='" + file + "'>" + Svg.esc(g.getKey()) + "</a>: CPU, " + drawn.total() + " samples, "
                        + (drawn.total() == 0 ? 0 : Math.round(100.0 * drawn.virtualTotal() / drawn.total()))
                        + "% on virtual threads"
                        + (measuredOnly ? window(g.getValue()) : "")
                        + "; the application's threads: the JVM's own (JIT compilers, GC), "
                        + Svg.esc(share(samples.jvmThreadShare()))
                        + " of the samples, are left out (the table below has them)");
            } catch (Exception e) {
                deleteQuietly(dir.resolve(file));
                links.add(Svg.esc(g.getKey()) + ": no flame graph (" + Svg.esc(String.valueOf(e.getMessage())) + ")");
            }
        }
        if (groups.containsKey(baseline)) {
            List<RecordingFacts> base = groups.get(baseline);
            for (Map.Entry<String, List<RecordingFacts>> g : groups.entrySet()) {
                if (g.getKey().equals(baseline)) {
                    continue;
                }
                String file = "flame-diff-" + prefix + safe(g.getKey()) + "-vs-" + safe(baseline) + ".html";
                try (OutputStream out = Files.newOutputStream(dir.resolve(file))) {
                    FlameOptions options = Flames.Cpu.DIFF.withTitle(g.getKey() + " vs " + baseline + ": differential");
                    FlameSamples before = Flames.of(base, options, true, true, cpu -> cpu.diff, cpus);
                    FlameSamples after = Flames.of(g.getValue(), options, true, true, cpu -> cpu.diff, cpus);
                    FlameRenderer.diff(
                            before.graph(Flames.name(sources(base))),
                            after.graph(Flames.name(sources(g.getValue()))),
                            options,
                            false,
                            out);
                    links.add("<a href='" + file + "'>" + Svg.esc(g.getKey()) + " vs " + Svg.esc(baseline)
                            + "</a>: differential (red: more than in " + Svg.esc(baseline)
                            + ", blue: less, yellow: not in " + Svg.esc(baseline)
                            + " at all; normalised by total samples; every stack starts at the code its thread runs, so"
                            + " both kinds' frames line up: "
                            + Svg.esc(share(before.alignedShare())) + " of " + Svg.esc(baseline) + "'s samples and "
                            + Svg.esc(share(after.alignedShare()))
                            + " of " + Svg.esc(g.getKey()) + "'s were aligned, the rest drawn whole)");
                } catch (Exception e) {
                    deleteQuietly(dir.resolve(file));
                    links.add(Svg.esc(g.getKey()) + " vs " + Svg.esc(baseline) + ": no differential graph ("
                            + Svg.esc(String.valueOf(e.getMessage())) + ")");
                }
            }
        }
        return links;
    }

    /**
     * Per group, the threads (virtual threads grouped by their code, carriers) with the most CPU samples: what the
     * flame graphs attribute.
     */
    static List<Table> threadTables(
            Map<String, List<RecordingFacts>> groups, Function<RecordingFacts, Flames.Cpu> cpus) {
        List<Table> tables = new ArrayList<>();
        groups.forEach((g, facts) -> {
            try {
                ThreadCpu cpu = Flames.threads(facts, cpus);
                Table t = ThreadCpuView.table(cpu, g, 10);
                if (t != null) {
                    tables.add(t);
                    Stream.of(ThreadCpuView.joined(cpu, g, 10), ThreadCpuView.spins(cpu, g, 10))
                            .filter(Objects::nonNull)
                            .forEach(tables::add);
                }
            } catch (BadDataException unreadable) {
                // the flame graph's line above says why this group has no samples
            }
        });
        return tables;
    }

    /** "; the measured runs only (warm-up left out)" where the recordings had warm-up runs, else nothing. */
    private static String window(List<RecordingFacts> facts) {
        return facts.stream().anyMatch(f -> Flames.measuredWindow(f) != null)
                ? "; the measured runs' time only (not the warm-up's)"
                : "";
    }

    private static List<RecordingSource> sources(List<RecordingFacts> facts) {
        return facts.stream().map(f -> f.source).toList();
    }

    private static String share(double s) {
        return Double.isNaN(s) ? "none" : Math.round(100 * s) + "%";
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // nothing to clean
        }
    }

    static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]+", "_");
    }

    static final String CSS = """
        body{font:14px/1.45 -apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;
          margin:16px auto;max-width:1120px;color:#222;padding:0 16px}
        h1{font-size:22px;margin:0 0 2px} h2{border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:28px}
        h3{margin:20px 0 6px}
        .meta{color:#666;margin:2px 0 8px} ul.bottom li{font-weight:600;margin:4px 0}
        ul.verdicts li{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;margin:2px 0}
        ul.measured{margin:6px 0;padding-left:20px}
        details.lines summary,details.stats summary{cursor:pointer;color:#245;font-size:13px}
        p.verdict{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;background:#f5f7fa;
          padding:4px 8px;margin:4px 0}
        .charts{display:flex;flex-wrap:wrap;gap:12px}
        svg{background:#fff;border:1px solid #e3e3e3;font-size:12px;max-width:100%;height:auto}
        svg.forest{border:none;display:block;margin:4px 0}
        table{border-collapse:collapse;margin:8px 0 12px;font-size:12px;display:block;overflow-x:auto;max-width:100%}
        th,td{border:1px solid #ddd;padding:3px 6px} th{background:#f0f0f0}
        th[title]{cursor:help;text-decoration:underline dotted}
        td.n{text-align:right;font-variant-numeric:tabular-nums} caption{text-align:left;font-weight:600;padding:4px 0}
        .banner{background:#fff4e5;border-left:4px solid #e08a00;padding:4px 12px}
        .note{color:#666;font-size:12px;margin:0 0 8px} ul.failures li{color:#b00020}
        footer{margin-top:40px;color:#888;font-size:12px}
        pre{background:#f7f7f7;padding:8px;overflow:auto;font-size:12px}
        @media print{
          @page{size:A4;margin:12mm}
          body{max-width:none;margin:0;padding:0;font-size:11px}
          details::details-content{content-visibility:visible;display:contents}
          details>summary{list-style:none}
          svg,.charts,.metric h3,p.verdict,tr{break-inside:avoid;page-break-inside:avoid}
          h2,h3{break-after:avoid;page-break-after:avoid}
          table{display:table;overflow:visible;font-size:9px}
          a{color:inherit;text-decoration:none}
        }
        """;

    /** Printing opens every closed details element (browsers without ::details-content print them closed). */
    static final String PRINT_SCRIPT = "<script>addEventListener('beforeprint',"
            + "()=>document.querySelectorAll('details').forEach(d=>d.open=true));</script>\n";
}
