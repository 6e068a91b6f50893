package dev.loomscope.analyzer.fleet;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.reduce.Timeline;
import dev.loomscope.flamegraphs.render.FlameSamples;
import dev.loomscope.flamegraphs.render.SampleFrames;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.PinFrames;
import dev.loomscope.recording.RawFrame;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rows of one recording in every table of an export, taken in the pass that reduces it: the event tables' rows as
 * the events go by, the rest from the reductions when the pass is done ({@link #finish}).
 */
public final class FleetRows implements RecordingFacts.Capture {
    private final String recording;
    private final Map<String, FleetTable> byType = new HashMap<>();
    private final Map<FleetTable, List<Object[]>> rows = new LinkedHashMap<>();
    private final Set<Long> stacksWritten = new HashSet<>();
    /** Sample rows by (type, state, stack id): {events, samples}. */
    private final Map<List<Object>, long[]> samples = new LinkedHashMap<>();
    /** Each distinct stack of a chunk hashed once: the reader hands the same list to every sample of a stack. */
    private final Map<List<RawFrame>, Long> sampleStacks = new IdentityHashMap<>();

    public FleetRows(String recording) {
        this.recording = recording;
        FleetSchema.TABLES.forEach(t -> rows.put(t, new ArrayList<>()));
        FleetSchema.EVENT_TABLES.forEach(t -> t.eventTypes().forEach(type -> byType.put(type, t)));
    }

    @Override
    public Set<String> eventTypes() {
        return byType.keySet();
    }

    @Override
    public Set<String> sampleTypes() {
        return FlameSamples.EXECUTION;
    }

    @Override
    public void add(JfrEvent e) {
        FleetTable table = byType.get(e.type());
        Object[] row = table.newRow(recording);
        List<EventField> fields = table.fields();
        for (int i = 0; i < fields.size(); i++) {
            row[i + 1] = fields.get(i).read(e);
        }
        if (table == FleetSchema.PINS) {
            List<Frame> frames = e.stackFrames();
            row[table.index("top_frame")] = PinFrames.culpritMethod(frames);
            row[table.index("stack_id")] = frames == null
                    ? null
                    : stack(frames.stream()
                            .map(f -> new Object[] {f.className(), f.methodName(), f.line(), f.type()})
                            .toList());
        }
        rows.get(table).add(row);
    }

    @Override
    public void sample(JfrEvent e) {
        List<RawFrame> frames = e.rawFrames();
        Long id = null;
        String kind = null;
        if (frames != null) {
            id = sampleStacks.computeIfAbsent(
                    frames,
                    f -> stack(f.stream()
                            .map(x -> new Object[] {
                                x.internalClassName().replace('/', '.'), x.methodName(), x.line(), x.type()
                            })
                            .toList()));
            kind = SampleFrames.isVirtual(frames) ? "virtual" : "platform";
        }
        List<Object> key = Arrays.asList(e.type(), SampleFrames.executionState(e), kind, id, e.nativeFramesAreC());
        long[] n = samples.computeIfAbsent(key, k -> new long[2]);
        n[0]++;
        n[1] += SampleFrames.weight(e);
    }

    /** The stack's id (a hash of its frames); its frames into the stacks table the first time. */
    private long stack(List<Object[]> frames) {
        long id = stackId(frames);
        if (stacksWritten.add(id)) {
            for (int depth = 0; depth < frames.size(); depth++) {
                Object[] f = frames.get(depth);
                rows.get(FleetSchema.STACKS).add(new Object[] {recording, id, depth, f[0], f[1], f[2], f[3]});
            }
        }
        return id;
    }

    /**
     * FNV-1a over the frames' class, method, line and type: the same frames give the same id in any recording, on any
     * machine.
     */
    static long stackId(List<Object[]> frames) {
        long h = 0xcbf29ce484222325L;
        for (Object[] f : frames) {
            for (Object part : f) {
                String s = String.valueOf(part);
                for (int i = 0; i < s.length(); i++) {
                    h = (h ^ s.charAt(i)) * 0x100000001b3L;
                }
                h = (h ^ 0x1f) * 0x100000001b3L;
            }
        }
        return h;
    }

    /**
     * Every table's rows of the recording, once its pass is done: the event rows with their computed columns, and the
     * rows made from the reductions.
     */
    public Map<FleetTable, List<Object[]>> finish(RecordingFacts f) {
        List<Object[]> runRows = rows.get(FleetSchema.RUNS);
        List<WorkloadRun> runs = f.runs.runs();
        for (int i = 0; i < runRows.size() && i < runs.size(); i++) {
            for (Metric m : FleetSchema.metrics(Metric.Level.RUN)) {
                runRows.get(i)[FleetSchema.RUNS.index(m.column())] = m.valueInRun(f, runs.get(i));
            }
        }
        rows.get(FleetSchema.RECORDINGS).add(recordingRow(f));
        Set<String> types = new TreeSet<>(f.summary.counts().keySet());
        types.addAll(f.settings.enabledTypes());
        for (String type : types) {
            rows.get(FleetSchema.EVENT_TYPES)
                    .add(new Object[] {recording, type, f.summary.count(type), f.settings.enabled(type)});
        }
        samples.forEach((k, n) -> rows.get(FleetSchema.SAMPLES)
                .add(new Object[] {recording, k.get(0), k.get(1), k.get(2), k.get(3), k.get(4), n[0], n[1]}));
        return rows;
    }

    private Object[] recordingRow(RecordingFacts f) {
        FleetTable t = FleetSchema.RECORDINGS;
        Object[] row = t.newRow(recording);
        var s = f.summary;
        set(t, row, "label", s.label);
        set(t, row, "thread_kind", s.threadKind);
        set(t, row, "command", s.command);
        set(t, row, "agent_options", s.agentOptions);
        set(t, row, "profiling_mode", s.profilingMode);
        set(t, row, "jvm", s.jvm);
        set(t, row, "young_collector", s.youngCollector);
        set(t, row, "old_collector", s.oldCollector);
        set(t, row, "start_ns", s.first() == null ? null : Timeline.epochNanos(s.first()));
        set(t, row, "end_ns", s.last() == null ? null : Timeline.epochNanos(s.last()));
        set(t, row, "span_s", s.first() == null ? null : s.spanSeconds());
        set(t, row, "peak_active_threads", s.peakActiveThreads < 0 ? null : s.peakActiveThreads);
        set(t, row, "hardware_threads", s.hardwareThreads < 0 ? null : s.hardwareThreads);
        set(t, row, "pin_reasons_recorded", f.pinning.reasonsRecorded());
        set(t, row, "runs", (long) f.runs.runs().size());
        set(t, row, "warnings", f.warnings.isEmpty() ? null : String.join("\n", f.warnings));
        for (Metric m : FleetSchema.metrics(Metric.Level.RECORDING)) {
            set(t, row, m.column(), m.valueOfRecording(f));
        }
        return row;
    }

    private static void set(FleetTable t, Object[] row, String column, Object value) {
        row[t.index(column)] = value;
    }
}
