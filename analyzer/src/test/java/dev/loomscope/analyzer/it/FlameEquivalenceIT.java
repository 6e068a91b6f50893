package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.reduce.Flames;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.flamegraphs.render.SampleKind;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.flamegraphs.testing.Recordings;
import dev.loomscope.recording.ProfileFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.consumer.RecordingFile;
import one.convert.Arguments;
import one.convert.FlameGraph;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope flame} aggregates samples with loomscope's reader and draws them with async-profiler's renderer;
 * async-profiler's own converter reading the same file is the reference: the same collapsed stacks, line for line, for
 * every sample kind and option the recordings allow.
 */
class FlameEquivalenceIT {
    @TempDir
    static Path dir;

    static Path asyncProfiler;
    static Path jdkOnly;
    static Path agentCpuWall;
    static Path agentAllocLock;

    @BeforeAll
    static void record() throws Exception {
        asyncProfiler = Recordings.asyncProfilerCpu(dir);
        // without native method samples: the converter's --state runnable counts them, loomscope's CPU graph leaves
        // them out
        jdkOnly = Recordings.jdkOnly(dir, "jdk.NativeMethodSample#enabled=false");
        agentCpuWall = agent("cpu+wall");
        agentAllocLock = agent("alloc+lock");
    }

    /**
     * The CPU burner under JFR's profile settings alone, without its native method samples: their state is RUNNABLE (a
     * thread in native code as Java sees it), so the converter's --state runnable counts them, where loomscope's CPU
     * graph leaves them out as JMC and jfr view hot-methods do (such a thread may be waiting, on a socket read). One
     * such sample, rare (the main thread in Runtime.availableProcessors as the scheduler starts), made the graphs
     * differ.
     */
    static Path agent(String profile) throws Exception {
        Path out = dir.resolve(
                "agent-" + profile.replace('+', '-').replace(',', '-').replace('=', '-'));
        ChildJvm.Result r = ChildJvm.exec(
                List.of(
                        ChildJvm.javaExecutable(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-javaagent:" + Fixtures.AGENT + "=out=" + out
                                + ",threads=virtual,flame=off,trace-pinned=off,profile=" + profile,
                        "-jar",
                        Fixtures.WORKLOADS.toString(),
                        "sleep",
                        "--threads",
                        "virtual",
                        "--runs",
                        "3",
                        "--warmup",
                        "1",
                        "--tasks",
                        "2000",
                        "--sleep-ms",
                        "5"),
                dir,
                120);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return Fixtures.only(out, ".jfr");
    }

    /**
     * A recording's files: it, and async-profiler's samples beside it when the agent wrote them ({@link ProfileFile}).
     */
    static List<Path> files(Path recording) {
        Path profile = ProfileFile.beside(recording);
        return profile == null ? List.of(recording) : List.of(recording, profile);
    }

    /**
     * async-profiler's converter itself ({@code jfrconv}'s JfrToFlame) on the recording's files, their collapsed stacks
     * merged: the reference. It has no roots by thread kind: with {@code --split-kind} the comparison is of the stacks
     * below them ({@link #withoutKindRoots}).
     */
    static List<String> reference(Path recording, FlameOptions options) throws Exception {
        return reference(recording, options, false);
    }

    /**
     * As {@link #reference(Path, FlameOptions)}, frame names normalised when {@code norm} (as in differential graphs).
     */
    static List<String> reference(Path recording, FlameOptions options, boolean norm) throws Exception {
        if (options.kind() != SampleKind.CPU) {
            return converter(files(recording), options, null, norm);
        }
        // CPU as loomscope chooses it: async-profiler's samples, else JFR's CPU-time sampler's, else its execution
        // sampler's (runnable)
        List<String> lines = converter(files(recording), options, null, norm);
        if (lines.isEmpty()
                && RecordingFile.readAllEvents(recording).stream()
                        .anyMatch(e -> e.getEventType().getName().equals("jdk.CPUTimeSample"))) {
            lines = converter(files(recording), options, "cpu-time", norm);
        }
        return lines.isEmpty() ? converter(files(recording), options, "runnable", norm) : lines;
    }

    /**
     * The converter's collapsed stacks of {@code files}, merged: a stack in several files counted once with their sum.
     *
     * @param state null for the kind's own choice (--cpu, --wall, --alloc, --lock), "cpu-time" for --cpu-time, else
     *     --state STATE
     */
    static List<String> converter(List<Path> files, FlameOptions options, String state, boolean norm) throws Exception {
        Arguments args = new Arguments();
        args.output = "collapsed";
        args.threads = options.threads();
        args.norm = norm;
        args.cpuTime = "cpu-time".equals(state);
        args.state = state == null || args.cpuTime ? null : state;
        args.cpu = options.kind() == SampleKind.CPU && state == null;
        args.wall = options.kind() == SampleKind.WALL;
        args.alloc = options.kind() == SampleKind.ALLOC;
        args.lock = options.kind() == SampleKind.LOCK;
        Map<String, Long> merged = new TreeMap<>();
        for (Path f : files) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (JfrReader jfr = new JfrReader(f.toString())) {
                JfrToFlame c = new JfrToFlame(jfr, args);
                c.convert();
                c.dump(out);
            }
            out.toString(StandardCharsets.UTF_8)
                    .lines()
                    .filter(l -> !l.isBlank())
                    .forEach(l -> merge(merged, l));
        }
        return lines(merged);
    }

    /** A collapsed line ("frame;frame count") into {@code merged}: the same stack's counts summed. */
    static void merge(Map<String, Long> merged, String line) {
        int space = line.lastIndexOf(' ');
        merged.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
    }

    /** Merged stacks as sorted collapsed lines. */
    static List<String> lines(Map<String, Long> merged) {
        List<String> lines = new ArrayList<>();
        merged.forEach((stack, n) -> lines.add(stack + " " + n));
        lines.sort(null);
        return lines;
    }

    /**
     * loomscope's stacks with the thread-kind root taken off, merged as the converter would have them; and every stack
     * under the virtual root is a virtual thread's (its frames say so), none under the platform root is.
     */
    static List<String> withoutKindRoots(List<String> ours) {
        Map<String, Long> merged = new TreeMap<>();
        for (String l : ours) {
            int semi = l.indexOf(';');
            String root = l.substring(0, semi);
            String rest = l.substring(semi + 1);
            boolean virtualFrames = rest.contains("jdk/internal/vm/Continuation.enter")
                    || rest.contains("java/lang/VirtualThread.run_")
                    || rest.startsWith("cont_returnBarrier");
            assertThat(root).as(l).isIn(FlameSamples.VIRTUAL_ROOT, FlameSamples.PLATFORM_ROOT);
            assertThat(root.equals(FlameSamples.VIRTUAL_ROOT))
                    .as("the root of " + l)
                    .isEqualTo(virtualFrames);
            merge(merged, rest);
        }
        return lines(merged);
    }

    static List<String> lines(String collapsed) {
        List<String> l =
                new ArrayList<>(collapsed.lines().filter(s -> !s.isBlank()).toList());
        l.sort(null);
        return l;
    }

    /**
     * loomscope's graph of each file of the recording (the JDK's and async-profiler's beside it, each alone) against
     * the converter's of the same file: async-profiler's graph gives a frame the type most of its samples have, so
     * stacks of two files drawn together take types from both.
     */
    static void same(Path recording, SampleKind kind, String... options) throws Exception {
        FlameOptions o = new FlameOptions(
                kind,
                List.of(options).contains("--threads"),
                List.of(options).contains("--split-kind"),
                null,
                null,
                0,
                0,
                null,
                false,
                false,
                false,
                false);
        long drawn = 0;
        for (Path file : files(recording)) {
            Path alone = Files.createDirectories(dir.resolve("alone-" + ALONE.incrementAndGet()))
                    .resolve(file.getFileName());
            Files.copy(file, alone);
            List<String> args =
                    new ArrayList<>(List.of("flame", alone.toString(), "--collapsed", "--event", kind.label()));
            args.addAll(List.of(options));
            ChildJvm.Result r = Fixtures.cli(dir, args.toArray(String[]::new));
            List<String> expected = reference(alone, o);
            String what = file.getFileName() + " " + kind + " " + List.of(options);
            if (r.exitCode() == 2 && r.stderr().contains(": no " + kind.label() + " samples")) {
                assertThat(expected)
                        .as(what + ": loomscope found no samples, the converter none either")
                        .isEmpty();
                continue;
            }
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            List<String> ours = lines(r.stdout());
            if (o.splitKind()) {
                sameLines(what, withoutKindRoots(ours), expected, false);
            } else {
                sameLines(what, ours, expected);
            }
            drawn += expected.stream().mapToLong(FlameEquivalenceIT::lastCount).sum();
        }
        assertThat(drawn)
                .as("the reference draws something of " + recording.getFileName())
                .isPositive();
    }

    static final AtomicInteger ALONE = new AtomicInteger();

    /**
     * The same frames and counts line for line; the frame types (colours) the same but for at most 2% of the samples.
     * async-profiler's graph gives a frame the type most of its samples have, and where as many are interpreted as
     * compiled, the order the samples came in decides (seen: 1 sample in 521). Otherwise the lines only one side has
     * are named.
     */
    static void sameLines(String what, List<String> ours, List<String> reference) {
        sameLines(what, ours, reference, true);
    }

    /**
     * @param types whether frame types are compared too. async-profiler's graph gives a frame the type most samples of
     *     its node have: a differential graph (both sides' samples in one tree) and a graph split by thread kind (the
     *     same frames in two trees, under each kind's root, against the converter's one) group the samples otherwise,
     *     so their types are not compared; the unsplit graphs of one profile compare them
     */
    static void sameLines(String what, List<String> ours, List<String> reference, boolean types) {
        if (ours.equals(reference)) {
            return;
        }
        Map<String, List<Long>> a = withoutTypes(ours);
        Map<String, List<Long>> b = withoutTypes(reference);
        List<String> missing = new ArrayList<>(b.keySet());
        missing.removeAll(a.keySet());
        List<String> extra = new ArrayList<>(a.keySet());
        extra.removeAll(b.keySet());
        assertThat(missing).as(what + ": stacks only the reference has").isEmpty();
        assertThat(extra).as(what + ": stacks only loomscope's has").isEmpty();
        assertThat(a).as(what + ": frames and counts").isEqualTo(b);
        if (!types) {
            return;
        }
        List<String> typesDiffer = new ArrayList<>(ours);
        typesDiffer.removeAll(reference);
        long all = ours.stream().mapToLong(FlameEquivalenceIT::lastCount).sum();
        long differ =
                typesDiffer.stream().mapToLong(FlameEquivalenceIT::lastCount).sum();
        assertThat(differ)
                .as(what + ": samples whose frame types differ from the reference's, of " + all + ": " + typesDiffer)
                .isLessThanOrEqualTo(Math.max(1, all / 50));
    }

    /** Collapsed lines (one count, or a differential's two) by their frames without type suffixes, counts summed. */
    static Map<String, List<Long>> withoutTypes(List<String> lines) {
        Map<String, List<Long>> merged = new TreeMap<>();
        for (String l : lines) {
            String[] v = l.split(" ");
            int counts = v.length > 2 && v[v.length - 2].matches("\\d+") ? 2 : 1;
            String stack = String.join(" ", Arrays.copyOf(v, v.length - counts)).replaceAll("_\\[.\\](;|$)", "$1");
            List<Long> sum = merged.computeIfAbsent(stack, k -> new ArrayList<>(Collections.nCopies(counts, 0L)));
            for (int i = 0; i < counts; i++) {
                sum.set(i, sum.get(i) + Long.parseLong(v[v.length - counts + i]));
            }
        }
        return merged;
    }

    static long lastCount(String line) {
        return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
    }

    @Test
    void cpuGraphsAreAsyncProfilersOwn() throws Exception {
        same(asyncProfiler, SampleKind.CPU);
        same(asyncProfiler, SampleKind.CPU, "--threads");
        same(jdkOnly, SampleKind.CPU);
        same(agentCpuWall, SampleKind.CPU, "--split-kind");
        same(agentCpuWall, SampleKind.CPU, "--threads");
    }

    @Test
    void wallAllocationAndLockGraphsAreAsyncProfilersOwn() throws Exception {
        same(agentCpuWall, SampleKind.WALL);
        same(agentAllocLock, SampleKind.ALLOC);
        same(agentAllocLock, SampleKind.LOCK, "--split-kind");
    }

    /**
     * JDK 25's CPU-time sampler (engine=jfr-cpu-time): its samples are the CPU graph, drawn as async-profiler's
     * converter draws them.
     */
    @Test
    void jfrsCpuTimeSamplesAreTheCpuGraph() throws Exception {
        assumeTrue(
                Runtime.version().feature() >= 25
                        && System.getProperty("os.name")
                                .toLowerCase(Locale.ROOT)
                                .contains("linux"),
                "JFR's CPU-time sampler needs JDK 25+ on Linux");
        Path cpuTime = agent("cpu,engine=jfr-cpu-time");
        var events = RecordingFile.readAllEvents(cpuTime);
        assertThat(events)
                .anyMatch(e -> e.getEventType().getName().equals("jdk.CPUTimeSample"))
                .noneMatch(e -> e.getEventType().getName().equals("jdk.ExecutionSample"));
        assertThat(events.stream()
                        .filter(e -> e.getEventType().getName().equals("loomscope.RunInfo"))
                        .map(e -> e.getString("profilingMode")))
                .containsExactly("jfr-cpu-time");
        same(cpuTime, SampleKind.CPU);
        same(cpuTime, SampleKind.CPU, "--split-kind");
    }

    @Test
    void differentialGraphsAreAsyncProfilersOwn() throws Exception {
        ChildJvm.Result r = Fixtures.cli(
                dir, "flame", "--diff", jdkOnly.toString(), agentCpuWall.toString(), "--collapsed", "--raw");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        // the converter itself draws each side, async-profiler's FlameGraph takes the difference of the two brought to
        // one total
        List<String> before = reference(jdkOnly, FlameOptions.of(SampleKind.CPU), true);
        List<String> after = reference(agentCpuWall, FlameOptions.of(SampleKind.CPU), true);
        assertThat(before).isNotEmpty();
        assertThat(after).isNotEmpty();
        long b = before.stream().mapToLong(FlameEquivalenceIT::count).sum();
        long a = after.stream().mapToLong(FlameEquivalenceIT::count).sum();
        long gcd = BigInteger.valueOf(a).gcd(BigInteger.valueOf(b)).longValue();
        Arguments args = new Arguments();
        args.output = "collapsed";
        args.diff = true;
        args.norm = true;
        FlameGraph base = new FlameGraph(args);
        base.parseCollapsed(new StringReader(scaled(before, a / gcd)));
        FlameGraph graph = new FlameGraph(args);
        graph.parseCollapsed(new StringReader(scaled(after, b / gcd)));
        graph.diff(base);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        graph.dump(new PrintStream(out, true, StandardCharsets.UTF_8));
        sameLines("diff", lines(r.stdout()), lines(out.toString(StandardCharsets.UTF_8)), false);
    }

    private static long count(String collapsedLine) {
        return Long.parseLong(collapsedLine.substring(collapsedLine.lastIndexOf(' ') + 1));
    }

    /** Collapsed lines with each count multiplied by {@code scale}, as one text. */
    private static String scaled(List<String> collapsed, long scale) {
        StringBuilder text = new StringBuilder();
        for (String l : collapsed) {
            text.append(l, 0, l.lastIndexOf(' '))
                    .append(' ')
                    .append(count(l) * scale)
                    .append('\n');
        }
        return text.toString();
    }

    /**
     * The report draws from the samples its figures' pass aggregated ({@code RecordingFacts.flames}): the same graphs.
     */
    @Test
    void reportGraphsFromTheOnePassAreAsyncProfilersOwn() throws Exception {
        for (Path recording : List.of(asyncProfiler, agentCpuWall, jdkOnly)) {
            RecordingFacts facts = RecordingFacts.of(
                    Inputs.resolve(List.of(recording.toString())).get(0), true);
            FlameOptions split = Flames.Cpu.SPLIT;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            FlameRenderer.render(facts.flames.split.graph(recording.toString()), split, true, out);
            // the report draws the application's threads: the converter's stacks with a Java frame
            List<String> reference = reference(recording, split).stream()
                    .filter(l -> l.matches(".*_\\[[0ji1]\\](;| ).*"))
                    .toList();
            sameLines(
                    recording.getFileName() + " split by kind",
                    withoutKindRoots(lines(out.toString(StandardCharsets.UTF_8))),
                    reference,
                    false);
        }
        // the differential graph from the one pass: as from reading the recordings again (the CLI's --diff is compared
        // with the converter above)
        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        FlameRenderer.diff(
                RecordingFacts.of(Inputs.resolve(List.of(jdkOnly.toString())).get(0), true)
                        .flames
                        .diff
                        .graph("before"),
                RecordingFacts.of(
                                Inputs.resolve(List.of(agentCpuWall.toString())).get(0), true)
                        .flames
                        .diff
                        .graph("after"),
                Flames.Cpu.DIFF,
                true,
                ours);
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        FlameRenderer.diff(
                Flames.graph(Inputs.resolve(List.of(jdkOnly.toString())), Flames.Cpu.DIFF, true, true, w -> {}),
                Flames.graph(Inputs.resolve(List.of(agentCpuWall.toString())), Flames.Cpu.DIFF, true, true, w -> {}),
                Flames.Cpu.DIFF,
                true,
                again);
        assertThat(lines(ours.toString(StandardCharsets.UTF_8)))
                .isNotEmpty()
                .isEqualTo(lines(again.toString(StandardCharsets.UTF_8)));
    }

    /**
     * Platform and virtual threads running the same code: without alignment no stack of the one is in the other (a
     * virtual thread's start with its carrier's frames); with it, the rendezvous loops' frames are in both. The loops
     * are the two threads' bodies (RendezvousWorkload's lambdas): the main thread, a platform thread in both runs, also
     * runs rendezvous code (the class's initialisation, the driver), whose stacks are rightly the same on both sides.
     */
    @Test
    void alignedDifferentialGraphsLineUpTheSameCodeOnBothKinds() throws Exception {
        Path platform = profiled("platform");
        Path virtual = profiled("virtual");
        for (boolean align : new boolean[] {false, true}) {
            List<String> args =
                    new ArrayList<>(List.of("flame", "--diff", platform.toString(), virtual.toString(), "--collapsed"));
            if (!align) {
                args.add("--raw");
            }
            ChildJvm.Result r = Fixtures.cli(dir, args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            List<String> loops = r.stdout()
                    .lines()
                    .filter(l -> l.contains("dev/loomscope/workloads/rendezvous/RendezvousWorkload.lambda$run"))
                    .toList();
            long inBoth = loops.stream()
                    .filter(l -> count(l, 2) > 0 && count(l, 1) > 0)
                    .count();
            if (align) {
                // the loops' stacks start at the same frame on both sides (their leaves may differ: on a busy machine
                // the
                // virtual threads' loop yields where the platform threads' spins, so no whole stack need be in both)
                Set<String> platformRoots = new HashSet<>(loops.stream()
                        .filter(l -> count(l, 2) > 0)
                        .map(l -> l.split(";")[0])
                        .toList());
                Set<String> virtualRoots = new HashSet<>(loops.stream()
                        .filter(l -> count(l, 1) > 0)
                        .map(l -> l.split(";")[0])
                        .toList());
                platformRoots.retainAll(virtualRoots);
                assertThat(platformRoots)
                        .as("rendezvous stacks rooted alike in both graphs, aligned:%n%s", String.join("\n", loops))
                        .isNotEmpty();
                assertThat(r.stdout().lines())
                        .noneMatch(l -> l.startsWith("java/lang/Thread.run") || l.contains("VirtualThread.run_"));
            } else {
                assertThat(inBoth)
                        .as("rendezvous stacks in both graphs, as the converter draws them")
                        .isZero();
            }
        }
        // the page names its inputs, base and new, explains its colours above the graph, and draws from the root down,
        // so the
        // first screen shows the roots and not the blank space above a deep graph's leaves
        Path page = dir.resolve("diff.html");
        ChildJvm.Result r =
                Fixtures.cli(dir, "flame", "--diff", platform.toString(), virtual.toString(), "-o", page.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        String html = Files.readString(page);
        assertThat(html)
                .contains("<title>loomscope cpu differential graph: " + virtual + " against the base " + platform
                        + "</title>")
                .contains("let inverted = true;");
        assertThat(html.indexOf("id='loomscope-note'")).isPositive().isLessThan(html.indexOf("<canvas"));
        assertThat(html.substring(html.indexOf("id='loomscope-note'"))).contains("Red", "blue", "grey", "yellow");
    }

    /** A collapsed differential line's count, {@code fromEnd} 2 the first graph's, 1 the second's. */
    private static long count(String line, int fromEnd) {
        String[] v = line.split(" ");
        return Long.parseLong(v[v.length - fromEnd]);
    }

    /**
     * A rendezvous whose waits spin a thousand turns before parking: its threads burn CPU in the loop on either kind,
     * so a CPU profile holds the loop even on a machine so busy that the VarHandle variant's platform threads, parked
     * most of the time, leave it no sample.
     */
    static Path profiled(String kind) throws Exception {
        return Fixtures.rendezvous(dir, "rendezvous-" + kind, kind, "spin1000-park", "engine=ctimer", 2);
    }
}
