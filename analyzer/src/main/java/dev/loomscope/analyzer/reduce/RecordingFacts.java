package dev.loomscope.analyzer.reduce;

import dev.loomscope.analyzer.read.JmcReader;
import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.options.BadDataException;
import dev.loomscope.recording.DamagedRecordingException;
import dev.loomscope.recording.JfrEvent;
import dev.loomscope.recording.MissingFieldException;
import dev.loomscope.recording.RecordingSource;
import dev.loomscope.recording.RecordingSpan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/** Every reduction of one recording, made in one pass over its events. */
public final class RecordingFacts {
    public final RecordingSource source;
    public final SummaryReducer summary;
    public final PinningReducer pinning;
    public final GcReducer gc;
    public final HeapReducer heap;
    public final ContextSwitchReducer ctxsw;
    public final RunsReducer runs;
    public final SettingsReducer settings;
    public final SchedulerReducer scheduler;
    public final WorkReducer work;
    public final HeldMonitorReducer held;
    public final List<String> warnings;
    /** The CPU samples for a report's flame graphs, aggregated in the same pass; null when not asked for. */
    public final Flames.Cpu flames;

    /** Every reducer by the event types it wants; those that want every event under null. */
    private final Map<String, List<Reducer>> byType;

    /**
     * What else sees the events of the pass (an export's rows): the events of its types as any reducer sees them, and
     * the sample events of {@link #sampleTypes} as the reader gives them.
     */
    public interface Capture extends Reducer {
        Set<String> sampleTypes();

        void sample(JfrEvent e);
    }

    private RecordingFacts(RecordingSource source) {
        this(source, false, null);
    }

    private RecordingFacts(RecordingSource source, boolean flames, Capture capture) {
        this.source = source;
        this.flames = flames ? new Flames.Cpu() : null;
        summary = new SummaryReducer();
        pinning = new PinningReducer();
        gc = new GcReducer();
        heap = new HeapReducer();
        ctxsw = new ContextSwitchReducer();
        runs = new RunsReducer();
        settings = new SettingsReducer();
        scheduler = new SchedulerReducer();
        work = new WorkReducer();
        held = new HeldMonitorReducer();
        warnings = new ArrayList<>();
        List<Reducer> reducers = new ArrayList<>(List.of(summary));
        reducers.addAll(fieldReducers(capture));
        this.byType = index(reducers);
    }

    /**
     * Facts read already, nothing more dispatched to them: {@code kept}'s reductions with {@code runs} and
     * {@code warnings} (a cache's entry, or the same recording with other runs).
     */
    private RecordingFacts(
            RecordingSource source,
            Flames.Cpu flames,
            FactsCache.Stored kept,
            RunsReducer runs,
            List<String> warnings) {
        this.source = source;
        this.flames = flames;
        summary = kept.summary;
        pinning = kept.pinning;
        gc = kept.gc;
        heap = kept.heap;
        ctxsw = kept.ctxsw;
        this.runs = runs;
        settings = kept.settings;
        scheduler = kept.scheduler;
        work = kept.work;
        held = kept.held;
        this.warnings = warnings;
        byType = new HashMap<>();
    }

    /** Facts kept by a {@link FactsCache}: the reducers' results of an earlier pass over {@code source}. */
    static RecordingFacts of(RecordingSource source, FactsCache.Stored kept) {
        return new RecordingFacts(source, null, kept, kept.runs, new ArrayList<>(kept.warnings));
    }

    /** What a {@link FactsCache} keeps of these facts. */
    FactsCache.Stored stored() {
        return new FactsCache.Stored(this);
    }

    /**
     * These facts with other runs (a load client's windows of one URL and rate) in place of the recording's own: one
     * parse serves each.
     */
    public RecordingFacts withRuns(List<RunsReducer.WorkloadRun> others) {
        RunsReducer r = new RunsReducer();
        r.addAll(others);
        return new RecordingFacts(source, flames, stored(), r, warnings);
    }

    /**
     * The pins (their durations, ms) inside the measured runs' windows: what the per-unit pin figures count, where the
     * recording's pin counts and totals have them all.
     */
    public Samples pinsInMeasuredRuns() {
        Samples in = new Samples();
        runs.measured().forEach(r -> in.addAll(pinning.allInTime().between(r.startNanos(), r.endNanos())));
        return in;
    }

    /**
     * The share of a run's pinned span the carriers pins held together must last to count ({@link #carriersPinned}).
     */
    public static final double CARRIERS_SHARE = 0.01;

    /**
     * The most carriers pins held together for a hundredth of a measured run's pinned span or more, the most of any
     * run: past the scheduler's parallelism when it added carriers (JDK 21-23 compensate while a virtual thread blocks
     * in a selector, file I/O or {@code Object.wait}, and the extra carrier serves others until it idles).
     */
    public int carriersPinned() {
        return runs.measured().stream()
                .mapToInt(r -> pinning.allInTime().mostAtOnce(r.startNanos(), r.endNanos(), CARRIERS_SHARE))
                .max()
                .orElse(0);
    }

    /**
     * The reducers that read their events' fields (all but the summary, which counts), and {@code capture} if not null.
     */
    private List<Reducer> fieldReducers(Capture capture) {
        List<Reducer> reducers =
                new ArrayList<>(List.of(pinning, gc, heap, ctxsw, runs, settings, scheduler, work, held));
        if (capture != null) {
            reducers.add(capture);
        }
        return reducers;
    }

    /**
     * Facts made from somewhere else than one pass over a recording (an export's tables): the reducers are fed by the
     * caller, through {@link #dispatch(JfrEvent)}.
     */
    public static RecordingFacts empty(RecordingSource source, boolean flames) {
        return new RecordingFacts(source, flames, null);
    }

    private static Map<String, List<Reducer>> index(List<Reducer> reducers) {
        Map<String, List<Reducer>> m = new HashMap<>();
        for (Reducer r : reducers) {
            if (r.eventTypes() == null) {
                m.computeIfAbsent(null, k -> new ArrayList<>()).add(r);
            } else {
                r.eventTypes()
                        .forEach(t ->
                                m.computeIfAbsent(t, k -> new ArrayList<>()).add(r));
            }
        }
        return m;
    }

    /**
     * Reads with loomscope's reader ({@link RecordingReader#events}): every event counted, the types the reducers want
     * decoded, in one pass. Format 0.x (JDK 7 and 8) goes to JMC's parser, with a warning saying so.
     */
    public static RecordingFacts of(RecordingSource source) {
        return of(source, false);
    }

    /**
     * As {@link #of(RecordingSource)}, with the CPU samples for a report's flame graphs aggregated in the same pass
     * when {@code flames} (JMC's parser, for format 0.x, reads none).
     */
    public static RecordingFacts of(RecordingSource source, boolean flames) {
        return of(source, flames, null);
    }

    /**
     * As {@link #of(RecordingSource, boolean)}, with {@code capture} (if not null) seeing the events it wants in the
     * same pass.
     */
    public static RecordingFacts of(RecordingSource source, boolean flames, Capture capture) {
        RecordingFacts f = new RecordingFacts(source, flames, capture);
        // the summary counts from the event headers and reads only its own types' fields; the others reduce as usual
        Map<String, List<Reducer>> byType = index(f.fieldReducers(capture));
        Set<String> wanted = new HashSet<>(byType.keySet());
        wanted.addAll(SummaryReducer.DECODED);
        if (f.flames != null) {
            wanted.addAll(f.flames.eventTypes());
        }
        if (capture != null) {
            wanted.addAll(capture.sampleTypes());
        }
        f.summary.span(RecordingReader.events(
                source,
                wanted,
                f.warnings::add,
                (e, span) -> {
                    if (SummaryReducer.DECODED.contains(e.type())) {
                        f.guard(f.summary, () -> f.describe(e));
                    }
                    if (f.flames != null && f.flames.eventTypes().contains(e.type())) {
                        f.guard("FlameSamples", () -> f.flames.add(e, span));
                    }
                    if (capture != null && capture.sampleTypes().contains(e.type())) {
                        f.guard(capture, () -> capture.sample(e));
                    }
                    f.dispatch(byType, e);
                },
                counts -> {
                    f.summary.counted(counts);
                    if (f.flames != null) {
                        f.flames.counted(counts);
                    }
                }));
        if (f.work.undecodable() > 0) {
            f.warnings.add(source.name().toAbsolutePath() + ": " + f.work.undecodable()
                    + " calls in loomscope.WorkWindow events whose histogram cannot be read (damage): left out of calls"
                    + " a second and latency");
        }
        return f;
    }

    /**
     * Facts from the events another parser reads ({@code parser} hands each to the sink it is given and answers the
     * recording's span): how tests hold loomscope's reader to the JDK's.
     */
    public static RecordingFacts of(RecordingSource source, Function<Consumer<JfrEvent>, RecordingSpan> parser) {
        RecordingFacts f = new RecordingFacts(source, false, null);
        f.summary.span(parser.apply(f::add));
        return f;
    }

    /**
     * The runs of a JVM that ran without a recording (the study's control JVMs, from the results file the workloads
     * write): only the per-run metrics have values; grouped by their thread kind.
     */
    public static RecordingFacts ofRuns(RecordingSource source, List<RunsReducer.WorkloadRun> runs) {
        RecordingFacts f = new RecordingFacts(source);
        f.runs.addAll(runs);
        f.summary.threadKind = runs.isEmpty() ? null : runs.get(0).threadKind();
        return f;
    }

    /** Reads with JMC's parser only (what the JDK's does not read goes there; tests compare the two). */
    public static RecordingFacts viaJmc(RecordingSource source) {
        RecordingFacts f = new RecordingFacts(source);
        JmcReader.read(source, f::add);
        return f;
    }

    /** Hands one event to the reducers that want it. */
    private void add(JfrEvent e) {
        dispatch(byType, e);
    }

    /** Hands one event to the reducers that want its type, not the summary (facts made by {@link #empty}). */
    public void dispatch(JfrEvent e) {
        for (Reducer r : byType.getOrDefault(e.type(), List.of())) {
            reduce(r, e);
        }
    }

    private void dispatch(Map<String, List<Reducer>> index, JfrEvent e) {
        for (Reducer r : index.getOrDefault(null, List.of())) {
            reduce(r, e);
        }
        for (Reducer r : index.getOrDefault(e.type(), List.of())) {
            reduce(r, e);
        }
    }

    /**
     * One event into one reducer. An event that breaks the schema (a required field missing) is the file's fault;
     * anything else a reducer throws is loomscope's.
     */
    private void reduce(Reducer r, JfrEvent e) {
        guard(r, () -> r.add(e));
    }

    /**
     * The summary's fields of one event. A field of another type than the JDK's in an event that only describes the JVM
     * (its version and start, its collectors) leaves what it describes n/a, with a warning once, instead of failing
     * every command: other writers, and old JDKs, declare such fields otherwise (JMC's test recording of a PID-1
     * container has jvmStartTime a string).
     */
    private void describe(JfrEvent e) {
        try {
            summary.fields(e);
        } catch (MissingFieldException other) {
            if (!SummaryReducer.DESCRIPTIVE.contains(e.type())) {
                throw other;
            }
            String w = source.name().toAbsolutePath() + ": "
                    + other.getMessage().replaceFirst(" \\(.*$", "") + ": what it describes is n/a";
            if (!warnings.contains(w)) {
                warnings.add(w);
            }
        }
    }

    private void guard(Reducer r, Runnable work) {
        guard(r.getClass().getSimpleName(), work);
    }

    private void guard(String reducer, Runnable work) {
        try {
            work.run();
        } catch (BadDataException bad) {
            throw new BadDataException(source.name().toAbsolutePath() + ": " + bad.getMessage(), bad);
        } catch (MissingFieldException missing) {
            throw new BadDataException(source.name().toAbsolutePath() + ": " + missing.getMessage(), missing);
        } catch (DamagedRecordingException damage) {
            // a constant pool found damaged when a reducer asked for one of its values
            throw RecordingReader.damaged(source.name(), damage);
        } catch (RuntimeException bug) {
            throw new ReductionFailedException(reducer, source.name(), bug);
        }
    }

    /**
     * What the reader said of these recordings (a truncated last chunk, another parser used), each once, in input
     * order.
     */
    public static List<String> warnings(Collection<RecordingFacts> facts) {
        List<String> out = new ArrayList<>(facts.stream()
                .flatMap(f -> Stream.concat(f.warnings.stream(), Stream.ofNullable(f.missingWork())))
                .distinct()
                .toList());
        double[] late = facts.stream()
                .filter(f -> f.summary.beganLate())
                .mapToDouble(f -> f.summary.beganAfterJvmStart())
                .toArray();
        if (late.length > 0) {
            double min = Arrays.stream(late).min().orElse(0);
            double max = Arrays.stream(late).max().orElse(0);
            String when =
                    String.format(Locale.ROOT, late.length == 1 || min == max ? "%.2f s" : "%.2f-%.2f s", min, max);
            out.add(late.length + " of " + facts.size() + " recording" + (facts.size() == 1 ? "" : "s") + " began "
                    + when + " after "
                    + (late.length == 1 ? "its" : "their")
                    + " JVM started: pins, GCs and thread starts before that are not in "
                    + (late.length == 1 ? "it" : "them") + ", so " + (late.length == 1 ? "its" : "their")
                    + " counts are of what came after (the agent's startup=before-main records from the start)");
        }
        return out;
    }

    /**
     * That the agent was asked to time a unit of work ({@code work=}) and this recording has no call of it, so no
     * service time or throughput from it: null when there is no such gap.
     */
    public String missingWork() {
        if (work.count() > 0 || summary.agentOptions == null) {
            return null;
        }
        AgentOptions options = AgentOptions.parse(null, summary.agentOptions);
        String filter = options.work();
        if (!options.isSet(AgentOptions.WORK) || filter.isEmpty() || filter.equals(AgentOptions.REQUESTS)) {
            return null; // the servers' requests, on by default: a program that serves none is no mistake
        }
        return source.name().toAbsolutePath() + ": the agent was asked to time work=" + filter
                + " and recorded no call of it: left out of service time and of throughput from work (the filter named"
                + " no method that ran while it recorded; the agent's exit line said which)";
    }

    /**
     * The platform threads started a unit of work: from the first run's start to the last one's end against those runs'
     * units (warm-ups included), else over the recording against its work= calls; null when either is not known.
     */
    public Double platformThreadsStartedPerUnit() {
        if (runs.runs().isEmpty()) {
            Long n = summary.platformThreadsStarted(ctxsw);
            return n == null || work.count() == 0 ? null : n / (double) work.count();
        }
        long from = runs.runs().stream()
                .mapToLong(RunsReducer.WorkloadRun::startNanos)
                .min()
                .getAsLong();
        long to = runs.runs().stream()
                .mapToLong(RunsReducer.WorkloadRun::endNanos)
                .max()
                .getAsLong();
        long units =
                runs.runs().stream().mapToLong(RunsReducer.WorkloadRun::units).sum();
        long n = ctxsw.platformThreadsStartedBetween(from, to);
        return n < 0 || units == 0 ? null : n / (double) units;
    }

    /** The group this recording belongs to: its thread kind, else its label, else "unknown". */
    public String group() {
        if (summary.threadKind != null && !summary.threadKind.equals("unknown")) {
            return summary.threadKind;
        }
        return summary.label != null ? summary.label : "unknown";
    }

    /**
     * Whether the recording has events of {@code type}, or its settings say the type was enabled: then no events means
     * none happened, not that none were recorded.
     */
    public boolean recorded(String type) {
        return summary.count(type) > 0 || settings.enabled(type);
    }

    /** Per-second rate of {@code total} over this recording's span, or NaN. */
    public double perSecond(double total) {
        double s = summary.spanSeconds();
        return s > 0 ? total / s : Double.NaN;
    }
}
