package dev.loomscope.analyzer.cli;

import dev.loomscope.analyzer.read.BadInputException;
import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.read.RecordingSource;
import dev.loomscope.flamegraphs.jfr.BadRecordingException;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.NoSamplesException;
import dev.loomscope.flamegraphs.render.SampleKind;
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
        description = {"Flame graphs (async-profiler's HTML or collapsed stacks) from recordings, and differential graphs.",
            "Several recordings merge into one graph; --diff BASE NEW colours NEW by its change from BASE, both",
            "normalised to the same total samples."})
public final class FlameCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RECORDING", description = "recordings (files, globs, directories); with --diff: BASE NEW")
    List<String> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "the .html (or collapsed text) to write; collapsed goes to stdout without it")
    Path output;

    @Option(names = "--collapsed", description = "collapsed stacks (one line per stack and its count) instead of HTML")
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

    @Option(names = "--diff", description = "differential graph of two recordings: BASE NEW (NEW coloured by change from BASE)")
    boolean diff;

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
        if (output == null && !collapsed) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "name the .html to write with -o FILE (or use --collapsed)");
        }
        FlameOptions options = new FlameOptions(kind, threads, splitKind, regex("--include", include), regex("--exclude", exclude),
                from, to, title, reverse);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            if (diff) {
                if (inputs.size() != 2) {
                    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--diff takes two recordings: BASE NEW");
                }
                FlameRenderer.diff(paths(List.of(inputs.get(0))), paths(List.of(inputs.get(1))), options, collapsed, buf);
            } else {
                FlameRenderer.render(paths(inputs), options, collapsed, buf);
            }
        } catch (BadRecordingException | NoSamplesException e) {
            throw new BadInputException(e.getMessage(), e);
        }
        if (output == null) {
            spec.commandLine().getOut().print(buf.toString(StandardCharsets.UTF_8));
            spec.commandLine().getOut().flush();
        } else {
            write(output, buf);
            spec.commandLine().getErr().println("loomscope flame: wrote " + output.toAbsolutePath());
        }
        return Errors.OK;
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

    static List<Path> paths(List<String> args) {
        List<Path> out = new ArrayList<>();
        for (RecordingSource s : Inputs.resolve(args)) {
            out.addAll(s.parts());
        }
        return out;
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
            throw new BadInputException(abs + ": cannot write: " + e.getMessage() + " (choose another -o)");
        }
    }
}
