package dev.loomscope.flamegraphs.render;

import dev.loomscope.recording.BadRecordingException;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import one.convert.Arguments;
import one.convert.FlameGraph;

/**
 * Flame graphs in async-profiler's own HTML format and colours (or collapsed stacks) from any .jfr: async-profiler
 * recordings (cpu, wall, alloc, lock) and plain JDK recordings (jdk.ExecutionSample).
 */
public final class FlameRenderer {

    /** What was drawn: sample totals, for callers that report them. */
    public record Drawn(long total, long virtualTotal) {}

    private FlameRenderer() {}

    /**
     * One graph from one or more recordings of JFR format 2, JDK 11's or later (merged), read with loomscope's reader
     * ({@link FlameSamples}).
     */
    public static Drawn render(List<Path> inputs, FlameOptions options, boolean collapsed, OutputStream out)
            throws BadRecordingException, NoSamplesException {
        return render(
                FlameSamples.read(inputs, options, false).graph(FlameSamples.name(inputs)), options, collapsed, out);
    }

    /**
     * A differential graph: {@code after}'s frames coloured by how their share changed from {@code before}, both
     * brought to the same total first; stacks as recorded (frame names normalised), as async-profiler's converter draws
     * a diff.
     */
    public static Drawn diff(
            List<Path> before, List<Path> after, FlameOptions options, boolean collapsed, OutputStream out)
            throws BadRecordingException, NoSamplesException {
        return diff(
                FlameSamples.read(before, options, true).graph(FlameSamples.name(before)),
                FlameSamples.read(after, options, true).graph(FlameSamples.name(after)),
                options,
                collapsed,
                out);
    }

    /**
     * Each side's multiplier in a differential graph: both brought to the same total, each multiplied by the other's
     * total divided by their common divisor (exact, no rounding); 1 for an empty side.
     */
    private static long[] scales(long beforeTotal, long afterTotal) {
        long gcd = BigInteger.valueOf(beforeTotal)
                .gcd(BigInteger.valueOf(afterTotal))
                .longValue();
        return gcd == 0
                ? new long[] {1, 1}
                : new long[] {Math.max(1, afterTotal / gcd), Math.max(1, beforeTotal / gcd)};
    }

    /** A recording a reader failed on, named: bad input (exit 2), not a bug. */
    static BadRecordingException unreadable(Path p, Exception e) {
        return new BadRecordingException(BadRecordingException.said(p, e), e);
    }

    /** One graph from samples another reader aggregated ({@link SampleGraph}). */
    public static Drawn render(SampleGraph samples, FlameOptions options, boolean collapsed, OutputStream out) {
        FlameGraph graph = new FlameGraph(arguments(options, collapsed));
        samples.drawInto(graph, 1);
        dump(graph, out);
        return new Drawn(samples.total(), samples.virtualTotal());
    }

    /**
     * A differential graph from aggregated samples, both brought to the same total as {@link #diff(List, List,
     * FlameOptions, boolean, OutputStream)} does.
     */
    public static Drawn diff(
            SampleGraph before, SampleGraph after, FlameOptions options, boolean collapsed, OutputStream out) {
        Arguments args = arguments(options, collapsed);
        args.diff = true;
        args.norm = true;
        // the roots and the legend on the first screen; a deep graph drawn upwards opens on blank space
        args.inverted = true;
        long[] scale = scales(before.total(), after.total());
        FlameGraph base = new FlameGraph(args);
        before.drawInto(base, scale[0]);
        FlameGraph graph = new FlameGraph(args);
        after.drawInto(graph, scale[1]);
        graph.diff(base);
        dump(graph, out, DIFF_LEGEND);
        return new Drawn(after.total(), after.virtualTotal());
    }

    /**
     * async-profiler's way to name a method frame: a C function ({@code cFrame}) by its name, a Java method as
     * {@code class/name.method}; {@code norm} folds lambda and hidden-class suffixes, as in differential graphs.
     */
    public static String methodName(String internalClassName, String method, boolean cFrame, boolean norm) {
        if (internalClassName == null || internalClassName.isEmpty() || cFrame) {
            return method;
        }
        String cls = norm ? normalized(internalClassName) : internalClassName;
        return method == null || method.isEmpty() ? cls : cls + '.' + method;
    }

    /**
     * A class frame (allocated or locked class): dotted, arrays as {@code []}, as async-profiler's converter shows it.
     */
    public static String className(String symbol) {
        int depth = 0;
        while (depth < symbol.length() && symbol.charAt(depth) == '[') {
            depth++;
        }
        String name;
        if (depth == 0) {
            name = symbol;
        } else {
            name = switch (depth < symbol.length() ? symbol.charAt(depth) : ' ') {
                case 'B' -> "byte";
                case 'C' -> "char";
                case 'S' -> "short";
                case 'I' -> "int";
                case 'J' -> "long";
                case 'Z' -> "boolean";
                case 'F' -> "float";
                case 'D' -> "double";
                case 'L' -> symbol.substring(depth + 1, Math.max(depth + 1, symbol.length() - 1));
                default -> symbol.substring(depth);
            };
        }
        return name.replace('/', '.') + "[]".repeat(depth);
    }

    /** Drops a trailing numeric suffix ({@code Foo$$Lambda/0x123}, {@code Foo$$Lambda+0x00007f...../123}). */
    private static String normalized(String cls) {
        for (int i = cls.length() - 2; i > 0; i--) {
            char c = cls.charAt(i);
            if (c == '/' || c == '.') {
                char next = cls.charAt(i + 1);
                if (next >= '0' && next <= '9') {
                    int end = i;
                    if (i > 19 && cls.charAt(i - 19) == '+' && cls.charAt(i - 18) == '0') {
                        end = i - 19;
                    }
                    return cls.substring(0, end);
                }
                break;
            }
        }
        return cls;
    }

    private static Arguments arguments(FlameOptions o, boolean collapsed) {
        Arguments args = new Arguments();
        args.output = collapsed ? "collapsed" : "html";
        args.title = SafeHtml.text(
                o.title() != null
                        ? o.title()
                        : "loomscope " + o.kind().label() + " flame graph"); // the page puts it raw into <h1>
        args.threads = o.threads();
        args.include = o.include();
        args.exclude = o.exclude();
        args.reverse = o.reverse();
        args.alloc = o.kind() == SampleKind.ALLOC;
        args.lock = o.kind() == SampleKind.LOCK;
        return args;
    }

    /**
     * What a differential page's colours mean (async-profiler's page explains the frame types only): its script colours
     * a frame by the change of its samples, yellow when the base has no such frame.
     */
    static final String DIFF_LEGEND =
            "Differential graph: this profile against the base, both scaled to the same total samples. <span"
                    + " style='background: rgb(255,120,120)'>&nbsp;Red&nbsp;</span>: more samples than in the base (the"
                    + " deeper, the larger the change); <span style='background:"
                    + " rgb(120,120,255)'>&nbsp;blue&nbsp;</span>: fewer; <span style='background:"
                    + " #e0e0e0'>&nbsp;grey&nbsp;</span>: as many; <span style='background:"
                    + " #ffdd33'>&nbsp;yellow&nbsp;</span>: only in this profile (the base has no such stack). Stacks"
                    + " only the base has are not drawn. Drawn from the root down (I flips it).";

    /** The graph's page or collapsed stacks; a page has its data script made inert first ({@link SafeHtml}). */
    private static void dump(FlameGraph graph, OutputStream out) {
        dump(graph, out, null);
    }

    private static void dump(FlameGraph graph, OutputStream out, String note) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, false, StandardCharsets.UTF_8);
        graph.dump(ps);
        ps.flush();
        PrintStream page = new PrintStream(out, false, StandardCharsets.UTF_8);
        page.print(SafeHtml.flamePage(buf.toString(StandardCharsets.UTF_8), note));
        page.flush();
    }
}
