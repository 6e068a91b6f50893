package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.errors.BadDataException;
import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.read.ParserRejectedException;
import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.analyzer.read.RecordingSource;
import dev.loomscope.analyzer.reduce.Flames;
import dev.loomscope.analyzer.reduce.ThreadCpu;
import dev.loomscope.analyzer.render.Format;
import dev.loomscope.analyzer.views.FrameShareView;
import dev.loomscope.analyzer.views.ThreadCpuView;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.NoSamplesException;
import dev.loomscope.flamegraphs.render.SampleKind;
import dev.loomscope.recording.BadRecordingException;
import dev.loomscope.recording.fast.FastReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loomscope flame}: flame graphs in async-profiler's format from any .jfr. */
@Command(name = "flame", mixinStandardHelpOptions = true,
        description = {"Flame graphs (async-profiler's HTML or collapsed stacks, or pprof profiles) from recordings, and differential graphs.",
            "Several recordings merge into one graph; --diff BASE NEW colours NEW by its change from BASE, both normalised to the "
                    + "same total samples."})
public final class FlameCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RECORDING", description = "recordings (files, globs, directories); with --diff: BASE NEW")
    List<String> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "the .html (collapsed text, pprof profile) to write; collapsed goes to"
            + " stdout without it")
    Path output;

    @Option(names = "--collapsed", description = "collapsed stacks (one line per stack and its count) instead of HTML: --format collapsed")
    boolean collapsed;

    @Option(names = "--event", defaultValue = "cpu", paramLabel = "KIND", description = "cpu, wall, alloc or lock (default: ${DEFAULT-VALUE})")
    String event;

    @Option(names = "--threads", description = "one root per thread")
    boolean threads;

    @Option(names = "--split-kind", description = "one root for virtual threads (on their carriers), one for platform threads")
    boolean splitKind;

    @Option(names = "--include", paramLabel = "REGEX", description = "keep only stacks with a frame matching REGEX")
    String include;

    @Option(names = "--exclude", paramLabel = "REGEX", description = "drop stacks with a frame matching REGEX")
    String exclude;

    @Option(names = "--from", paramLabel = "MS", defaultValue = "0", description = "start, ms from the recording's start (negative: from its end)")
    long from;

    @Option(names = "--to", paramLabel = "MS", defaultValue = "0", description = "end, likewise")
    long to;

    @Option(names = "--title", paramLabel = "TEXT", description = "the page title")
    String title;

    @Option(names = "--reverse", description = "reversed graph: callers above their callees")
    boolean reverse;

    @Option(names = "--app-only", description = "only the application's threads (stacks with a Java frame), without the JVM's own: JIT compilers,"
            + " GC, VM thread (the report draws so)")
    boolean appOnly;

    @Option(names = "--diff", description = "differential graph of two recordings: BASE NEW (NEW coloured by change from BASE)")
    boolean diff;

    @Option(names = "--raw", description = "with --diff: stacks as recorded, async-profiler's converter's diff (by default every stack starts at"
            + " the code its thread runs, without Thread.run or a virtual thread's carrier and continuation frames, so a platform and a"
            + " virtual recording's frames line up)")
    boolean raw;

    @Option(names = "--top", paramLabel = "N", description = "instead of a graph, a table of the N frames with the most samples of their own"
            + " (self and total shares); with --diff, of the N frames whose share changed most; with --threads, of the N threads with the most"
            + " CPU: virtual threads (sampled by JFR) grouped by the code they run, carriers with their shares in virtual threads' code,"
            + " mounting and the scheduler")
    Integer top;

    @Option(names = "--format", paramLabel = "FORMAT", description = "a graph: html (the default), collapsed, or pprof (a gzip'd profile.proto"
            + " that go tool pprof, Pyroscope and Grafana read, each sample labelled thread_kind=virtual or platform); with --top: text (the"
            + " default), csv, json or md")
    String format;

    /** The graph formats, and --top's. */
    static final List<String> GRAPH_FORMATS = List.of("html", "collapsed", "pprof");
    static final List<Format> TABLE_FORMATS = List.of(Format.TEXT, Format.CSV, Format.JSON, Format.MD);

    @picocli.CommandLine.Mixin
    DebugOption debug;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        SampleKind kind;
        try {
            kind = SampleKind.valueOf(event.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--event " + event + ": use cpu, wall, alloc or lock");
        }
        if (diff && inputs.size() != 2) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--diff takes two recordings: BASE NEW");
        }
        FlameOptions options = new FlameOptions(kind, threads, splitKind, regex("--include", include), regex("--exclude", exclude),
                from, to, title, reverse, appOnly);
        java.util.function.Consumer<String> warn = w -> spec.commandLine().getErr().println("loomscope flame: warning: " + RecordingReader.oneLine(w));
        if (top != null) {
            return table(options, warn);
        }
        String graphFormat = format == null ? (collapsed ? "collapsed" : "html") : format.toLowerCase(Locale.ROOT);
        if (!GRAPH_FORMATS.contains(graphFormat) || collapsed && !graphFormat.equals("collapsed")) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--format " + format + ": a graph is html, collapsed or pprof"
                    + (collapsed ? " (and --collapsed is --format collapsed)" : "") + "; text, csv, json and md are for --top");
        }
        collapsed = graphFormat.equals("collapsed");
        if (graphFormat.equals("pprof")) {
            return pprof(options, warn);
        }
        if (output == null && !collapsed) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name the .html to write with -o FILE (or use --collapsed)");
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        List<RecordingSource> sources = Inputs.resolve(diff ? List.of(inputs.get(0)) : inputs);
        List<RecordingSource> after = diff ? Inputs.resolve(List.of(inputs.get(1))) : List.of();
        try {
            // loomscope's reader aggregates the samples; async-profiler's renderer draws them
            if (diff) {
                FlameRenderer.diff(Flames.graph(sources, options, true, !raw, warn), Flames.graph(after, options, true, !raw, warn), options,
                        collapsed, buf);
            } else {
                FlameRenderer.render(Flames.graph(sources, options, false, false, warn), options, collapsed, buf);
            }
        } catch (FastReader.UnsupportedException | ParserRejectedException olderFormat) {
            buf.reset();
            if (diff && !raw) {
                warn.accept("--diff: stacks not aligned at the thread's own code for recordings of JFR format 1.x (before JDK 11), which async-profiler's"
                        + " converter reads");
            }
            if (from != 0 || to != 0) {
                warn.accept("--from/--to: not applied to recordings of JFR format 1.x (before JDK 11), which async-profiler's converter draws whole");
            }
            drawWithAsyncProfilersReader(sources, after, options, warn, buf);
        }
        emit(buf);
        if (output != null) {
            spec.commandLine().getErr().println("loomscope flame: wrote " + output.toAbsolutePath());
        }
        return Errors.OK;
    }

    /** What the command made, to standard output or the -o file. */
    private void emit(ByteArrayOutputStream buf) {
        if (output == null) {
            spec.commandLine().getOut().print(buf.toString(StandardCharsets.UTF_8));
            spec.commandLine().getOut().flush();
        } else {
            write(output, buf);
        }
    }

    /** {@code --format pprof}: the samples as a pprof profile, each labelled with its thread kind. */
    private int pprof(FlameOptions options, java.util.function.Consumer<String> warn) throws IOException {
        if (diff) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--diff draws a differential flame graph; pprof compares two"
                    + " profiles itself: write each with --format pprof, then go tool pprof -diff_base BASE.pb.gz NEW.pb.gz");
        }
        if (output == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name the profile to write with -o FILE (a .pb.gz)");
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            dev.loomscope.flamegraphs.render.PprofWriter.write(Flames.graph(Inputs.resolve(inputs), options, false, false, warn),
                    dev.loomscope.flamegraphs.render.PprofWriter.sampleType(options.kind()), 0, options.include(), options.exclude(), buf);
        } catch (FastReader.UnsupportedException | ParserRejectedException olderFormat) {
            throw new BadDataException(String.join(", ", inputs) + ": --format pprof reads recordings of JFR format 2, JDK 11's and later (draw older"
                    + " ones as html or collapsed)", olderFormat);
        }
        emit(buf);
        spec.commandLine().getErr().println("loomscope flame: wrote " + output.toAbsolutePath());
        return Errors.OK;
    }

    /** {@code --top}: the frames of one profile, or those that changed most between two, as a table. */
    private int table(FlameOptions options, java.util.function.Consumer<String> warn) throws IOException {
        if (top < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--top " + top + ": give how many frames to list (1 or more)");
        }
        Format tableFormat = format == null ? Format.TEXT
                : TABLE_FORMATS.stream().filter(f -> f.name().equalsIgnoreCase(format)).findFirst().orElse(null);
        if (tableFormat == null || collapsed) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--top prints a table: --format text, csv, json or md");
        }
        dev.loomscope.analyzer.render.Table table;
        try {
            if (threads) {
                if (diff || options.kind() != SampleKind.CPU) {
                    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--top with --threads lists the CPU by thread of one"
                            + " profile: without --diff, with --event cpu");
                }
                table = ThreadCpuView.table(ThreadCpu.of(Inputs.resolve(inputs), options, warn), String.join(", ", inputs), top);
                if (table == null) {
                    throw new BadDataException(String.join(", ", inputs) + ": no CPU samples (record them with the agent option profile=cpu)");
                }
            } else if (diff) {
                table = FrameShareView.diff(Flames.graph(Inputs.resolve(List.of(inputs.get(0))), options, true, !raw, warn),
                        Flames.graph(Inputs.resolve(List.of(inputs.get(1))), options, true, !raw, warn), inputs.get(0), inputs.get(1), top);
            } else {
                table = FrameShareView.top(Flames.graph(Inputs.resolve(inputs), options, false, false, warn), String.join(", ", inputs), top);
            }
        } catch (FastReader.UnsupportedException | ParserRejectedException olderFormat) {
            throw new BadDataException(String.join(", ", inputs) + ": --top reads recordings of JFR format 2, JDK 11's and later (draw older ones as a"
                    + " graph, without --top)", olderFormat);
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        buf.writeBytes(tableFormat.render(List.of(table)).getBytes(StandardCharsets.UTF_8));
        emit(buf);
        return Errors.OK;
    }

    /**
     * A format loomscope's reader leaves to others (1.x, before JDK 11): async-profiler's own converter
     * reads the files, as they are ready to parse.
     */
    private void drawWithAsyncProfilersReader(List<RecordingSource> sources, List<RecordingSource> after, FlameOptions options,
            java.util.function.Consumer<String> warn, ByteArrayOutputStream buf) throws IOException {
        java.util.Map<String, String> shownAs = new java.util.HashMap<>();
        readable(sources, warn, shownAs, base -> readable(after, warn, shownAs, changed -> {
            try {
                FlameRenderer.renderOlderFormat(diff ? base : null, diff ? changed : base, options, collapsed, buf);
            } catch (BadRecordingException | NoSamplesException e) {
                String message = e.getMessage();
                for (var name : shownAs.entrySet()) {
                    message = message.replace(name.getKey(), name.getValue()); // an expanded or cut copy is the user's file
                }
                throw new BadDataException(message, e);
            }
            return null;
        }));
    }

    private Pattern regex(String option, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Pattern.compile(value);
        } catch (PatternSyntaxException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), option + " " + value + ": not a regular expression ("
                    + e.getDescription() + ")");
        }
    }

    /** What async-profiler's converter draws from: plain files, ready to parse. */
    interface Drawing<T> {
        T draw(List<Path> files) throws IOException;
    }

    /**
     * Hands {@code body} the recordings as files async-profiler's converter can read: expanded when
     * compressed, truncated chunks cut off (with a warning).
     */
    static <T> T readable(List<RecordingSource> sources, java.util.function.Consumer<String> warnings, java.util.Map<String, String> shownAs,
            Drawing<T> body) throws IOException {
        return readable(sources, 0, new ArrayList<>(), warnings, shownAs, body);
    }

    private static <T> T readable(List<RecordingSource> sources, int i, List<Path> files, java.util.function.Consumer<String> warnings,
            java.util.Map<String, String> shownAs, Drawing<T> body) throws IOException {
        if (i == sources.size()) {
            return body.draw(files);
        }
        return RecordingReader.withReadableParts(sources.get(i), warnings, r -> {
            for (RecordingReader.Part part : r.parts()) {
                shownAs.put(part.readable().toAbsolutePath().toString(), part.original().toAbsolutePath().toString());
            }
            List<Path> more = new ArrayList<>(files);
            more.addAll(r.paths());
            return readable(sources, i + 1, more, warnings, shownAs, body);
        });
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
