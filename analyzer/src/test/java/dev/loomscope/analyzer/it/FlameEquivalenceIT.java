package dev.loomscope.analyzer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.loomscope.analyzer.read.Inputs;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.SampleKind;
import dev.loomscope.flamegraphs.testing.ChildJvm;
import dev.loomscope.flamegraphs.testing.Recordings;
import dev.loomscope.recording.ProfileFile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope flame} aggregates samples with loomscope's reader and draws them with
 * async-profiler's renderer; async-profiler's own converter reading the same file is the reference:
 * the same collapsed stacks, line for line, for every sample kind and option the recordings allow.
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
        jdkOnly = Recordings.jdkOnly(dir);
        agentCpuWall = agent("cpu+wall");
        agentAllocLock = agent("alloc+lock");
    }

    static Path agent(String profile) throws Exception {
        Path out = dir.resolve("agent-" + profile.replace('+', '-').replace(',', '-').replace('=', '-'));
        ChildJvm.Result r = ChildJvm.exec(List.of(ChildJvm.javaExecutable(), "--enable-native-access=ALL-UNNAMED",
                "-javaagent:" + Fixtures.AGENT + "=out=" + out + ",threads=virtual,flame=off,trace-pinned=off,profile=" + profile, "-jar",
                Fixtures.WORKLOADS.toString(), "sleep", "--threads", "virtual", "--runs", "3", "--warmup", "1", "--tasks", "2000", "--sleep-ms", "5"),
                dir, 120);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return Fixtures.only(out, ".jfr");
    }

    /** A recording's files: it, and async-profiler's samples beside it when the agent wrote them ({@link ProfileFile}). */
    static List<Path> files(Path recording) {
        Path profile = ProfileFile.beside(recording);
        return profile == null ? List.of(recording) : List.of(recording, profile);
    }

    /** async-profiler's converter on the recording's files: the reference. */
    static List<String> reference(Path recording, FlameOptions options) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FlameRenderer.render(files(recording), options, true, out);
        return lines(out.toString(StandardCharsets.UTF_8));
    }

    static List<String> lines(String collapsed) {
        List<String> l = new ArrayList<>(collapsed.lines().filter(s -> !s.isBlank()).toList());
        l.sort(null);
        return l;
    }

    static void same(Path recording, SampleKind kind, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("flame", recording.toString(), "--collapsed", "--event", kind.label()));
        args.addAll(List.of(options));
        ChildJvm.Result r = Fixtures.cli(dir, args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        FlameOptions o = new FlameOptions(kind, List.of(options).contains("--threads"), List.of(options).contains("--split-kind"), null, null, 0, 0,
                null, false);
        List<String> expected = reference(recording, o);
        assertThat(expected).as("the reference draws something").isNotEmpty();
        sameLines(recording.getFileName() + " " + kind + " " + List.of(options), lines(r.stdout()), expected);
    }

    /** Equal, or the lines only one side has, named. */
    static void sameLines(String what, List<String> ours, List<String> reference) {
        List<String> missing = new ArrayList<>(reference);
        missing.removeAll(ours);
        List<String> extra = new ArrayList<>(ours);
        extra.removeAll(reference);
        assertThat(missing).as(what + ": lines only the reference has").isEmpty();
        assertThat(extra).as(what + ": lines only loomscope's has").isEmpty();
        assertThat(ours).as(what).isEqualTo(reference);
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

    /** JDK 25's CPU-time sampler (engine=jfr-cpu-time): its samples are the CPU graph, drawn as async-profiler's converter draws them. */
    @Test
    void jfrsCpuTimeSamplesAreTheCpuGraph() throws Exception {
        assumeTrue(Runtime.version().feature() >= 25 && System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux"),
                "JFR's CPU-time sampler needs JDK 25+ on Linux");
        Path cpuTime = agent("cpu,engine=jfr-cpu-time");
        var events = jdk.jfr.consumer.RecordingFile.readAllEvents(cpuTime);
        assertThat(events).anyMatch(e -> e.getEventType().getName().equals("jdk.CPUTimeSample"))
                .noneMatch(e -> e.getEventType().getName().equals("jdk.ExecutionSample"));
        assertThat(events.stream().filter(e -> e.getEventType().getName().equals("loomscope.RunInfo")).map(e -> e.getString("profilingMode")))
                .containsExactly("jfr-cpu-time");
        same(cpuTime, SampleKind.CPU);
        same(cpuTime, SampleKind.CPU, "--split-kind");
    }

    @Test
    void differentialGraphsAreAsyncProfilersOwn() throws Exception {
        ChildJvm.Result r = Fixtures.cli(dir, "flame", "--diff", jdkOnly.toString(), agentCpuWall.toString(), "--collapsed", "--raw");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FlameRenderer.diff(files(jdkOnly), files(agentCpuWall), FlameOptions.of(SampleKind.CPU), true, out);
        sameLines("diff", lines(r.stdout()), lines(out.toString(StandardCharsets.UTF_8)));
    }

    /** The report draws from the samples its figures' pass aggregated ({@code RecordingFacts.flames}): the same graphs. */
    @Test
    void reportGraphsFromTheOnePassAreAsyncProfilersOwn() throws Exception {
        for (Path recording : List.of(asyncProfiler, agentCpuWall, jdkOnly)) {
            RecordingFacts facts = RecordingFacts.of(Inputs.resolve(List.of(recording.toString())).get(0), true);
            FlameOptions split = FlameOptions.of(SampleKind.CPU).withSplitKind(true);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            FlameRenderer.render(facts.flames.split.graph(recording.toString()), split, true, out);
            sameLines(recording.getFileName() + " split by kind", lines(out.toString(StandardCharsets.UTF_8)), reference(recording, split));
        }
        ByteArrayOutputStream ours = new ByteArrayOutputStream();
        FlameRenderer.diff(RecordingFacts.of(Inputs.resolve(List.of(jdkOnly.toString())).get(0), true).flames.diff.graph("before"),
                RecordingFacts.of(Inputs.resolve(List.of(agentCpuWall.toString())).get(0), true).flames.diff.graph("after"),
                FlameOptions.of(SampleKind.CPU), true, ours);
        ByteArrayOutputStream reference = new ByteArrayOutputStream();
        FlameRenderer.diff(files(jdkOnly), files(agentCpuWall), FlameOptions.of(SampleKind.CPU), true, reference);
        // the report's differential graph starts every stack at the thread's own code: the converter's, with those frames cut (its
        // renderer marks the frame types of a stack's first frames by where they stand, so the comparison is of names and counts)
        sameLines("diff", aligned(lines(ours.toString(StandardCharsets.UTF_8))), aligned(lines(reference.toString(StandardCharsets.UTF_8))));
    }

    /**
     * Platform and virtual threads running the same code: without alignment no stack of the one is
     * in the other (a virtual thread's start with its carrier's frames); with it, the rendezvous
     * loops' frames are in both. The loops are the two threads' bodies (RendezvousWorkload's
     * lambdas): the main thread, a platform thread in both runs, also runs rendezvous code (the
     * class's initialisation, the driver), whose stacks are rightly the same on both sides.
     */
    @Test
    void alignedDifferentialGraphsLineUpTheSameCodeOnBothKinds() throws Exception {
        Path platform = profiled("platform");
        Path virtual = profiled("virtual");
        for (boolean align : new boolean[] {false, true}) {
            List<String> args = new ArrayList<>(List.of("flame", "--diff", platform.toString(), virtual.toString(), "--collapsed"));
            if (!align) {
                args.add("--raw");
            }
            ChildJvm.Result r = Fixtures.cli(dir, args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            long inBoth = r.stdout().lines().filter(l -> l.contains("dev/loomscope/workloads/rendezvous/RendezvousWorkload.lambda$run")).filter(l -> {
                String[] v = l.split(" ");
                return Long.parseLong(v[v.length - 2]) > 0 && Long.parseLong(v[v.length - 1]) > 0;
            }).count();
            if (align) {
                assertThat(inBoth).as("rendezvous stacks in both graphs, aligned").isPositive();
                assertThat(r.stdout().lines()).noneMatch(l -> l.startsWith("java/lang/Thread.run") || l.contains("VirtualThread.run_"));
            } else {
                assertThat(inBoth).as("rendezvous stacks in both graphs, as the converter draws them").isZero();
            }
        }
    }

    static Path profiled(String kind) throws Exception {
        Path out = dir.resolve("rendezvous-" + kind);
        ChildJvm.Result r = ChildJvm.exec(List.of(ChildJvm.javaExecutable(), "--enable-native-access=ALL-UNNAMED",
                "-javaagent:" + Fixtures.AGENT + "=out=" + out + ",threads=" + kind + ",flame=off,trace-pinned=off,profile=cpu", "-jar",
                Fixtures.WORKLOADS.toString(), "rendezvous", "--threads", kind, "--variant", "varhandle", "--n", "1000000", "--runs", "2", "--warmup", "1"),
                dir, 120);
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return Fixtures.only(out, ".jfr");
    }

    /**
     * Collapsed differential lines with each stack cut below the thread's own code (what FlameSamples'
     * alignment does) and without frame types, merged.
     */
    static List<String> aligned(List<String> diffLines) {
        java.util.Map<String, long[]> merged = new java.util.TreeMap<>();
        for (String l : diffLines) {
            String[] v = l.split(" ");
            String[] frames = String.join(" ", java.util.Arrays.copyOf(v, v.length - 2)).split(";");
            int from = 0;
            for (int i = frames.length - 1; i >= 0; i--) {
                String f = frames[i].replaceAll("_\\[.\\]$", "");
                if (f.equals("java/lang/Thread.run") || f.equals("java/lang/Thread.runWith") || f.equals("java/lang/VirtualThread.run")
                        || f.startsWith("java/lang/VirtualThread$VThreadContinuation") && f.endsWith(".run") || f.equals("cont_returnBarrier")) {
                    from = Math.min(i + 1, frames.length - 1);
                    break;
                }
            }
            while (from < frames.length - 1 && frames[from].contains("$$Lambda")) {
                from++;
            }
            String stack = String.join(";", java.util.Arrays.stream(frames, from, frames.length).map(f -> f.replaceAll("_\\[.\\]$", "")).toList());
            long[] sum = merged.computeIfAbsent(stack, k -> new long[2]);
            sum[0] += Long.parseLong(v[v.length - 2]);
            sum[1] += Long.parseLong(v[v.length - 1]);
        }
        List<String> out = new ArrayList<>();
        merged.forEach((stack, n) -> out.add(stack + " " + n[0] + " " + n[1]));
        out.sort(null);
        return out;
    }
}
