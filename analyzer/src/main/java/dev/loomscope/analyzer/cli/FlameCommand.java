package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.reduce.Flames;
import dev.loomscope.analyzer.reduce.ThreadCpu;
import dev.loomscope.analyzer.render.Format;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.views.FrameShareView;
import dev.loomscope.analyzer.views.ThreadCpuView;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.flamegraphs.render.NoSamplesException;
import dev.loomscope.flamegraphs.render.OtlpWriter;
import dev.loomscope.flamegraphs.render.PprofWriter;
import dev.loomscope.flamegraphs.render.SampleGraph;
import dev.loomscope.flamegraphs.render.SampleKind;
import dev.loomscope.flamegraphs.render.SampleTimeline;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.Said;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loomscope flame}: flame graphs in async-profiler's format from any .jfr. */
@Command(
        name = "flame",
        mixinStandardHelpOptions = true,
        description = {
            "Flame graphs (async-profiler's HTML or collapsed stacks, or pprof and OpenTelemetry profiles) from"
                    + " recordings, and differential graphs.",
            "Several recordings merge into one graph; --diff BASE NEW colours NEW by its change from BASE, both"
                    + " normalised to the same total samples."
        })
public final class FlameCommand extends CliCommand {
    @Parameters(
            arity = "1..*",
            paramLabel = "RECORDING",
            description = "recordings (files, globs, directories); with --diff: BASE NEW")
    List<String> inputs;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "the .html (collapsed text, pprof or OTLP profile) to write; collapsed goes to stdout without"
                    + " it")
    Path output;

    @Option(
            names = "--collapsed",
            description = "collapsed stacks (one line per stack and its count) instead of HTML: --format collapsed")
    boolean collapsed;

    @Option(
            names = "--event",
            defaultValue = "cpu",
            paramLabel = "KIND",
            description = "cpu, wall, alloc or lock (default: ${DEFAULT-VALUE})")
    String event;

    @Option(names = "--threads", description = "one root per thread")
    boolean threads;

    @Option(
            names = "--split-kind",
            description = "one root for virtual threads (on their carriers), one for platform threads")
    boolean splitKind;

    @Option(names = "--include", paramLabel = "REGEX", description = "keep only stacks with a frame matching REGEX")
    String include;

    @Option(names = "--exclude", paramLabel = "REGEX", description = "drop stacks with a frame matching REGEX")
    String exclude;

    @Option(
            names = "--from",
            paramLabel = "MS",
            defaultValue = "0",
            description = "start, ms from the recording's start (negative: from its end)")
    long from;

    @Option(names = "--to", paramLabel = "MS", defaultValue = "0", description = "end, likewise")
    long to;

    @Option(names = "--title", paramLabel = "TEXT", description = "the page title")
    String title;

    @Option(names = "--reverse", description = "reversed graph: callers above their callees")
    boolean reverse;

    @Option(
            names = "--app-only",
            description =
                    "only the application's threads (stacks with a Java frame), without the JVM's own: JIT compilers,"
                            + " GC, VM thread (the report draws so)")
    boolean appOnly;

    @Option(
            names = "--diff",
            description = "differential graph of two recordings: BASE NEW (NEW coloured by change from BASE)")
    boolean diff;

    @Option(
            names = "--raw",
            description =
                    "with --diff: stacks as recorded, async-profiler's converter's diff (by default every stack starts"
                            + " at the code its thread runs, without Thread.run or a virtual thread's carrier and"
                            + " continuation frames, so a platform and a virtual recording's frames line up)")
    boolean raw;

    @Option(
            names = "--top",
            paramLabel = "N",
            description = "instead of a graph, a table of the N frames with the most samples of their own (self and"
                    + " total shares); with --diff, of the N frames whose share changed most; with --threads, of the N"
                    + " threads with the most CPU: virtual threads (sampled by JFR) grouped by the code they run,"
                    + " carriers with their shares in virtual threads' code, mounting and the scheduler")
    Integer top;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            description = "a graph: html (the default), collapsed, pprof (a gzip'd profile.proto that go tool pprof,"
                    + " Pyroscope and Grafana read, each sample labelled thread_kind=virtual or platform, and"
                    + " virtual_thread_id where JFR recorded it) or otlp (an OpenTelemetry ProfilesData message, as"
                    + " async-profiler 4.5 writes it, attributes thread.kind and thread.id), or heatmap (an HTML page:"
                    + " samples by second and 50 ms within it, a map per thread kind); with --top: text (the default),"
                    + " csv, json or md")
    String format;

    /**
     * The graph formats, one table: each names what it needs of the aggregated samples beyond the stacks and their
     * counts, whether it draws two profiles' difference, and what it writes.
     */
    enum GraphFormat {
        HTML(true, "the .html to write with -o FILE (or use --collapsed)"),
        COLLAPSED(true, null),
        /** Each sample labelled with its virtual thread's id, where JFR recorded it. */
        PPROF(false, "the profile to write with -o FILE (a .pb.gz)"),
        OTLP(false, "the profile to write with -o FILE (a .otlp)"),
        /** Each sample's time. */
        HEATMAP(false, "the .html to write with -o FILE");

        /** Whether --diff draws with it. */
        final boolean diffs;
        /** What -o must name, null when standard output will do. */
        final String output;

        GraphFormat(boolean diffs, String output) {
            this.diffs = diffs;
            this.output = output;
        }

        /** {@code options} with what this format needs of the aggregator. */
        FlameOptions needs(FlameOptions options) {
            return switch (this) {
                case PPROF, OTLP -> options.withVirtualThreadIds(true);
                case HEATMAP -> options.withTimeline(true);
                case HTML, COLLAPSED -> options;
            };
        }

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        static GraphFormat named(String word) {
            return Arrays.stream(values())
                    .filter(f -> f.word().equals(word))
                    .findFirst()
                    .orElse(null);
        }

        static String words() {
            List<String> w = Arrays.stream(values()).map(GraphFormat::word).toList();
            return String.join(", ", w.subList(0, w.size() - 1)) + " or " + w.get(w.size() - 1);
        }
    }

    /** --top's formats. */
    static final List<Format> TABLE_FORMATS = List.of(Format.TEXT, Format.CSV, Format.JSON, Format.MD);

    @picocli.CommandLine.Mixin
    DebugOption debug;

    @Override
    public Integer call() throws IOException {
        // what the reader said, each once with a count, after the command succeeded: a file that fails says its one
        // line alone
        Map<String, Integer> warnings = new LinkedHashMap<>();
        int code = run(w -> warnings.merge(Said.oneLine(w), 1, Integer::sum));
        warnings.forEach(
                (w, n) -> stderr().println("loomscope flame: warning: " + w + (n > 1 ? " (" + n + " times)" : "")));
        return code;
    }

    private int run(Consumer<String> warn) throws IOException {
        SampleKind kind;
        try {
            kind = SampleKind.valueOf(event.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--event " + event + ": use cpu, wall, alloc or lock");
        }
        if (diff && inputs.size() != 2) {
            throw new UsageException("--diff takes two recordings: BASE NEW");
        }
        FlameOptions options = new FlameOptions(
                kind,
                threads,
                splitKind,
                regex("--include", include),
                regex("--exclude", exclude),
                from,
                to,
                title,
                reverse,
                appOnly,
                false,
                false);
        if (top != null) {
            return table(options, warn);
        }
        GraphFormat graph = graphFormat();
        options = graph.needs(options);
        collapsed = graph == GraphFormat.COLLAPSED;
        switch (graph) {
            case HEATMAP -> {
                return heatmap(options, warn);
            }
            case PPROF, OTLP -> {
                return profile(graph, options, warn);
            }
            case HTML, COLLAPSED -> {} // below
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        List<RecordingSource> sources = Inputs.resolve(diff ? List.of(inputs.get(0)) : inputs);
        List<RecordingSource> after = diff ? Inputs.resolve(List.of(inputs.get(1))) : List.of();
        // loomscope's reader aggregates the samples; async-profiler's renderer draws them
        if (diff) {
            // the page names which input is the base and which is drawn, unless --title says otherwise
            FlameOptions named = options.title() != null
                    ? options
                    : options.withTitle("loomscope " + options.kind().label() + " differential graph: " + inputs.get(1)
                            + " against the base " + inputs.get(0));
            FlameRenderer.diff(
                    Flames.graph(sources, options, true, !raw, warn),
                    Flames.graph(after, options, true, !raw, warn),
                    named,
                    collapsed,
                    buf);
        } else {
            FlameRenderer.render(Flames.graph(sources, options, false, false, warn), options, collapsed, buf);
        }
        emit(buf);
        if (output != null) {
            stderr().println("loomscope flame: wrote " + output.toAbsolutePath());
        }
        return Errors.OK;
    }

    /** The graph --format names (--collapsed: collapsed stacks; none: HTML), checked against --diff and -o. */
    private GraphFormat graphFormat() {
        GraphFormat graph = format == null
                ? (collapsed ? GraphFormat.COLLAPSED : GraphFormat.HTML)
                : GraphFormat.named(format.toLowerCase(Locale.ROOT));
        if (graph == null || collapsed && graph != GraphFormat.COLLAPSED) {
            throw new UsageException("--format " + format + ": a graph is " + GraphFormat.words()
                    + (collapsed ? " (and --collapsed is --format collapsed)" : "")
                    + "; text, csv, json and md are for --top");
        }
        if (diff && !graph.diffs) {
            throw new UsageException(
                    graph == GraphFormat.HEATMAP
                            ? "--format heatmap draws one profile's samples by time: without --diff"
                            : "--diff draws a differential flame graph; a profile viewer compares two profiles itself:"
                                    + " write each with --format " + graph.word()
                                    + (graph == GraphFormat.PPROF
                                            ? ", then go tool pprof -diff_base BASE.pb.gz NEW.pb.gz"
                                            : ""));
        }
        if (output == null && graph.output != null) {
            throw new UsageException("name " + graph.output);
        }
        return graph;
    }

    /** What the command made, to standard output or the -o file. */
    private void emit(ByteArrayOutputStream buf) {
        if (output == null) {
            stdout().print(buf.toString(StandardCharsets.UTF_8));
            stdout().flush();
        } else {
            write(output, buf);
        }
    }

    /**
     * {@code --format pprof} or {@code otlp}: the samples as a profile other tools read, each labelled with its thread
     * kind (and its virtual thread's id where JFR recorded it).
     */
    private int profile(GraphFormat profileFormat, FlameOptions options, Consumer<String> warn) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        List<RecordingSource> sources = Inputs.resolve(inputs);
        FlameSamples samples = Flames.of(sources, options, false, false, warn);
        SampleGraph graph = Flames.graph(samples, Flames.name(sources));
        String sampleType = PprofWriter.sampleType(options.kind());
        if (profileFormat == GraphFormat.PPROF) {
            PprofWriter.write(graph, sampleType, 0, options.include(), options.exclude(), buf);
        } else {
            OtlpWriter.write(graph, sampleType, 0, samples.span(), options.include(), options.exclude(), buf);
        }
        emit(buf);
        stderr().println("loomscope flame: wrote " + output.toAbsolutePath());
        return Errors.OK;
    }

    /** {@code --format heatmap}: the samples by time, a map per thread kind, as an HTML page. */
    private int heatmap(FlameOptions options, Consumer<String> warn) {
        List<RecordingSource> sources = Inputs.resolve(inputs);
        // each recording on its own time axis: JVMs that ran apart share no clock worth drawing
        Map<String, SampleTimeline> timelines = new LinkedHashMap<>();
        BadDataException none = null;
        for (RecordingSource source : sources) {
            List<RecordingSource> one = List.of(source);
            try {
                timelines.put(
                        Flames.name(one),
                        Flames.timeline(Flames.of(one, options, false, false, warn), Flames.name(one)));
            } catch (BadDataException noSamples) {
                if (sources.size() == 1 || !(noSamples.getCause() instanceof NoSamplesException)) {
                    throw noSamples;
                }
                none = noSamples; // one recording without samples of the kind leaves the others' maps
                warn.accept(noSamples.getMessage() + ": left out of the heatmap");
            }
        }
        if (timelines.isEmpty()) {
            throw none;
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        SampleTimeline.writeHeatmaps(
                options.title() != null
                        ? options.title()
                        : "loomscope " + options.kind().label() + " heatmap: " + String.join(", ", inputs),
                timelines.size() == 1 ? Map.of("", timelines.values().iterator().next()) : timelines,
                buf);
        emit(buf);
        stderr().println("loomscope flame: wrote " + output.toAbsolutePath());
        return Errors.OK;
    }

    /** {@code --top}: the frames of one profile, or those that changed most between two, as a table. */
    private int table(FlameOptions options, Consumer<String> warn) throws IOException {
        if (top < 1) {
            throw new UsageException("--top " + top + ": give how many frames to list (1 or more)");
        }
        Format tableFormat = format == null
                ? Format.TEXT
                : TABLE_FORMATS.stream()
                        .filter(f -> f.name().equalsIgnoreCase(format))
                        .findFirst()
                        .orElse(null);
        if (tableFormat == null || collapsed) {
            throw new UsageException("--top prints a table: --format text, csv, json or md");
        }
        Table table;
        List<Table> more = new ArrayList<>();
        if (threads) {
            if (diff || options.kind() != SampleKind.CPU) {
                throw new UsageException("--top with --threads lists the CPU by thread of one profile: without --diff,"
                        + " with --event cpu");
            }
            ThreadCpu cpu = ThreadCpu.of(Inputs.resolve(inputs), options, warn);
            table = ThreadCpuView.table(cpu, String.join(", ", inputs), top);
            if (table == null) {
                throw new BadDataException(
                        String.join(", ", inputs) + ": no CPU samples (record them with the agent option profile=cpu)");
            }
            Stream.of(
                            ThreadCpuView.joined(cpu, String.join(", ", inputs), top),
                            ThreadCpuView.spins(cpu, String.join(", ", inputs), top))
                    .filter(Objects::nonNull)
                    .forEach(more::add);
        } else if (diff) {
            table = FrameShareView.diff(
                    Flames.graph(Inputs.resolve(List.of(inputs.get(0))), options, true, !raw, warn),
                    Flames.graph(Inputs.resolve(List.of(inputs.get(1))), options, true, !raw, warn),
                    inputs.get(0),
                    inputs.get(1),
                    top);
        } else {
            table = FrameShareView.top(
                    Flames.graph(Inputs.resolve(inputs), options, false, false, warn), String.join(", ", inputs), top);
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        buf.writeBytes(tableFormat
                .render(Stream.concat(Stream.of(table), more.stream()).toList())
                .getBytes(StandardCharsets.UTF_8));
        emit(buf);
        return Errors.OK;
    }

    private Pattern regex(String option, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Pattern.compile(value);
        } catch (PatternSyntaxException e) {
            throw new UsageException(option + " " + value + ": not a regular expression (" + e.getDescription() + ")");
        }
    }

    static void write(Path output, ByteArrayOutputStream buf) {
        Path abs = output.toAbsolutePath();
        try {
            if (abs.getParent() != null) {
                Files.createDirectories(abs.getParent());
            }
            try (OutputStream os = Files.newOutputStream(abs)) {
                buf.writeTo(os);
            }
        } catch (IOException e) {
            throw new BadDataException(abs + ": cannot write: " + e.getMessage() + " (choose another -o)");
        }
    }
}
