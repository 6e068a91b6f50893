package dev.loomscope.flamegraphs.render;

import dev.loomscope.recording.BadRecordingException;
import dev.loomscope.recording.JfrFileCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import one.convert.Arguments;
import one.convert.FlameGraph;
import one.jfr.JfrReader;

/**
 * Flame graphs in async-profiler's own HTML format and colours (or collapsed stacks) from any
 * .jfr: async-profiler recordings (cpu, wall, alloc, lock) and plain JDK recordings
 * (jdk.ExecutionSample).
 */
public final class FlameRenderer {

    /** What was drawn: sample totals, for callers that report them. */
    public record Drawn(long total, long virtualTotal) {}

    private FlameRenderer() {}

    /** One graph from one or more recordings (merged). */
    public static Drawn render(List<Path> inputs, FlameOptions options, boolean collapsed, OutputStream out)
            throws BadRecordingException, NoSamplesException {
        Arguments args = arguments(options, collapsed);
        String state = stateFilter(inputs, options.kind());
        FlameGraph graph = new FlameGraph(args);
        long[] totals = addAll(inputs, options, args, state, graph, 1);
        dump(graph, out);
        return new Drawn(totals[0], totals[1]);
    }

    /**
     * A differential graph: {@code after}'s frames coloured by how their share changed from
     * {@code before}. Both are brought to the same total first (each multiplied by the other's
     * total, divided by their common divisor: exact, no rounding), so runs of different lengths
     * compare. The reported totals are the samples read, before scaling.
     */
    public static Drawn diff(List<Path> before, List<Path> after, FlameOptions options, boolean collapsed,
            OutputStream out) throws BadRecordingException, NoSamplesException {
        Arguments args = arguments(options, collapsed);
        args.diff = true;
        args.norm = true;
        String stateBefore = stateFilter(before, options.kind());
        String stateAfter = stateFilter(after, options.kind());
        long baseTotal = addAll(before, options, args, stateBefore, new FlameGraph(args), 1)[0];
        long afterTotal = addAll(after, options, args, stateAfter, new FlameGraph(args), 1)[0];
        long gcd = java.math.BigInteger.valueOf(baseTotal).gcd(java.math.BigInteger.valueOf(afterTotal)).longValue();
        FlameGraph base = new FlameGraph(args);
        addAll(before, options, args, stateBefore, base, afterTotal / gcd);
        FlameGraph graph = new FlameGraph(args);
        long[] totals = addAll(after, options, args, stateAfter, graph, baseTotal / gcd);
        graph.diff(base);
        dump(graph, out, DIFF_LEGEND);
        return new Drawn(totals[0] / (baseTotal / gcd), totals[1] / (baseTotal / gcd));
    }

    /** One graph from samples another reader aggregated ({@link SampleGraph}). */
    public static Drawn render(SampleGraph samples, FlameOptions options, boolean collapsed, OutputStream out) {
        FlameGraph graph = new FlameGraph(arguments(options, collapsed));
        samples.drawInto(graph, 1);
        dump(graph, out);
        return new Drawn(samples.total(), samples.virtualTotal());
    }

    /** A differential graph from aggregated samples, both brought to the same total as {@link #diff(List, List, FlameOptions, boolean, OutputStream)} does. */
    public static Drawn diff(SampleGraph before, SampleGraph after, FlameOptions options, boolean collapsed, OutputStream out) {
        Arguments args = arguments(options, collapsed);
        args.diff = true;
        args.norm = true;
        long gcd = java.math.BigInteger.valueOf(before.total()).gcd(java.math.BigInteger.valueOf(after.total())).longValue();
        long scaleBefore = gcd == 0 ? 1 : after.total() / gcd;
        long scaleAfter = gcd == 0 ? 1 : before.total() / gcd;
        FlameGraph base = new FlameGraph(args);
        before.drawInto(base, Math.max(1, scaleBefore));
        FlameGraph graph = new FlameGraph(args);
        after.drawInto(graph, Math.max(1, scaleAfter));
        graph.diff(base);
        dump(graph, out, DIFF_LEGEND);
        return new Drawn(after.total(), after.virtualTotal());
    }

    /**
     * async-profiler's way to name a method frame: a C function ({@code cFrame}) by its name, a Java
     * method as {@code class/name.method}; {@code norm} folds lambda and hidden-class suffixes, as in
     * differential graphs.
     */
    public static String methodName(String internalClassName, String method, boolean cFrame, boolean norm) {
        if (internalClassName == null || internalClassName.isEmpty() || cFrame) {
            return method;
        }
        String cls = norm ? normalized(internalClassName) : internalClassName;
        return method == null || method.isEmpty() ? cls : cls + '.' + method;
    }

    /** A class frame (allocated or locked class): dotted, arrays as {@code []}, as async-profiler's converter shows it. */
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
        args.title = SafeHtml.text(o.title() != null ? o.title() : "loomscope " + o.kind().label() + " flame graph"); // the page puts it raw into <h1>
        args.threads = o.threads();
        args.include = o.include();
        args.exclude = o.exclude();
        args.reverse = o.reverse();
        args.alloc = o.kind() == SampleKind.ALLOC;
        args.lock = o.kind() == SampleKind.LOCK;
        return args;
    }

    /** The state filter common to all inputs, or a {@link NoSamplesException} naming what they have. */
    private static String stateFilter(List<Path> inputs, SampleKind kind) throws BadRecordingException, NoSamplesException {
        SampleInventory all = new SampleInventory();
        for (Path p : inputs) {
            JfrFileCheck.check(p);
            try (JfrReader jfr = open(p)) {
                all.add(SampleInventory.of(jfr));
            } catch (IOException | RuntimeException e) {
                throw unreadable(p, e);
            }
        }
        return all.stateFilter(kind).orElseThrow(() -> new NoSamplesException(
                (inputs.size() == 1 ? inputs.get(0).toAbsolutePath().toString() : inputs.size() + " recordings")
                        + ": no " + kind.label() + " samples (the recording has " + all.describe()
                        + "; record them with the agent option " + kind.agentOption() + ")"));
    }

    private static long[] addAll(List<Path> inputs, FlameOptions options, Arguments args, String state,
            FlameGraph graph, long scale) throws BadRecordingException {
        long total = 0;
        long virtual = 0;
        java.util.Set<String> states = state == null || state.isEmpty() ? java.util.Set.of() : java.util.Set.of(state.split(","));
        for (Path p : inputs) {
            try (JfrReader jfr = open(p)) {
                StackConverter c = new StackConverter(jfr, args, graph, options.splitKind(), scale, states,
                        options.fromMs(), options.toMs());
                c.convert();
                total += c.total();
                virtual += c.virtualTotal();
            } catch (IOException | RuntimeException e) {
                throw unreadable(p, e);
            }
        }
        return new long[] {total, virtual};
    }

    /**
     * Files under 2 GiB are memory-mapped: the reader seeks back to every constant pool, and on a
     * file it re-reads its buffer each time (seen: 24 s, mostly in read(2), to draw a 7 MB recording of
     * 60,000 threads; 0.9 s mapped).
     */
    private static JfrReader open(Path p) throws IOException {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.READ)) {
            if (ch.size() < Integer.MAX_VALUE) {
                return new JfrReader(ch.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, 0, ch.size()));
            }
        }
        return new JfrReader(p.toString());
    }

    private static BadRecordingException unreadable(Path p, Exception e) {
        return new BadRecordingException(p.toAbsolutePath() + ": cannot read the recording: "
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                + " (is it complete? a truncated or corrupted file cannot be drawn)", e);
    }

    /**
     * What a differential page's colours mean (async-profiler's page explains the frame types only):
     * its script colours a frame by the change of its samples, yellow when the base has no such frame.
     */
    static final String DIFF_LEGEND = "Differential graph: this profile against the base, both scaled to the same total samples."
            + " <span style='background: rgb(255,120,120)'>&nbsp;Red&nbsp;</span>: more samples than in the base (the deeper, the larger the change);"
            + " <span style='background: rgb(120,120,255)'>&nbsp;blue&nbsp;</span>: fewer;"
            + " <span style='background: #e0e0e0'>&nbsp;grey&nbsp;</span>: as many;"
            + " <span style='background: #ffdd33'>&nbsp;yellow&nbsp;</span>: only in this profile (the base has no such stack)."
            + " Stacks only the base has are not drawn.";

    /** The graph's page or collapsed stacks; a page has its data script made inert first ({@link SafeHtml}). */
    private static void dump(FlameGraph graph, OutputStream out) {
        dump(graph, out, null);
    }

    private static void dump(FlameGraph graph, OutputStream out, String note) {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, false, StandardCharsets.UTF_8);
        graph.dump(ps);
        ps.flush();
        PrintStream page = new PrintStream(out, false, StandardCharsets.UTF_8);
        page.print(SafeHtml.flamePage(buf.toString(StandardCharsets.UTF_8), note));
        page.flush();
    }
}
