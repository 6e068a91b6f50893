package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Timeline;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.recording.JdkEvents;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@code summary}: what a recording is and its key figures, one table per recording. */
public final class SummaryView {
    /** Units of figures that count things: shown as whole numbers. */
    private static final Set<String> COUNTS = Set.of("events", "collections", "threads");

    private SummaryView() {}

    public static List<Table> of(List<RecordingFacts> all) {
        List<Table> out = new ArrayList<>();
        for (RecordingFacts f : all) {
            out.add(identity(f));
            out.add(figures(f));
            if (f.work.count() > 0) {
                out.add(workOverTime(f));
            }
            out.add(counts(f));
        }
        return out;
    }

    static Table identity(RecordingFacts f) {
        var s = f.summary;
        Table t = new Table(
                "recording", "Recording " + f.source.name(), List.of(Table.text("property"), Table.text("value")));
        t.row("span", String.format(Locale.ROOT, "%.2f s", s.spanSeconds()));
        if (s.beganAfterJvmStart() != null) {
            // the agent's recording starts beside the application (startup=background): what ran before is not in it
            t.row(
                    "began",
                    String.format(
                            Locale.ROOT,
                            "%.2f s after the JVM started%s",
                            s.beganAfterJvmStart(),
                            s.beganAfterJvmStart() >= PinningView.LATE_SECONDS && s.appRanBeforeRecording()
                                    ? ": what happened before (pins, GCs at start-up) is not in it"
                                    : ""));
        }
        t.row("jvm", s.jvm == null ? "not recorded" : s.jvm);
        t.row("gc", s.youngCollector == null ? "not recorded" : s.youngCollector + " / " + s.oldCollector);
        t.row("label", s.label == null ? "unknown (no loomscope.RunInfo)" : s.label);
        t.row("thread kind", s.threadKind == null ? "unknown" : s.threadKind);
        t.row("profiling mode", s.profilingMode == null ? "unknown" : s.profilingMode);
        f.warnings.forEach(w -> t.note("warning: " + w));
        return t;
    }

    /** The recording's key figures: each a metric's value for the whole recording ({@link Metric#SUMMARY}). */
    static Table figures(RecordingFacts f) {
        Table t = new Table(
                "summary",
                "Key figures of " + f.source.shortName(),
                List.of(Table.text("figure"), Table.number("value", "", 2), Table.text("unit")));
        for (Metric m : Metric.SUMMARY) {
            Double v = m.valueOfRecording(f);
            t.row(m.name(), v != null && COUNTS.contains(m.unit()) ? (Object) Math.round(v) : v, m.unit());
        }
        t.note("latency p50/p99: of a load client's measured windows, their histograms merged (each request once); of a"
                + " workload's own runs, the median of theirs; none without runs, since only a client measures latency."
                + " Service time: the calls work= timed, the method's own");
        String covered = runsCovered(f);
        if (covered != null) {
            t.note(covered);
        }
        var c = f.ctxsw;
        var s = f.summary;
        if (!c.processRecorded()) {
            t.note("process context switches: not applicable (no loomscope.ContextSwitches events: record with the"
                    + " loomscope agent)");
        }
        if (s.count(JdkEvents.VIRTUAL_THREAD_START) == 0) {
            t.note("virtual threads started: not recorded (jdk.VirtualThreadStart is off by default; it is costly)");
        }
        return t;
    }

    /**
     * Which runs the figures cover, where the recording has runs: the per-run figures the measured ones, the counts and
     * totals the whole recording; and the pins the per-unit figures leave out (in warm-ups, at start-up, between runs),
     * said rather than shown as none. Null without runs.
     */
    static String runsCovered(RecordingFacts f) {
        int all = f.runs.runs().size();
        if (all == 0) {
            return null;
        }
        int measured = f.runs.measured().size();
        long pins = f.pinning.all().count();
        long inMeasured = f.pinsInMeasuredRuns().count();
        return String.format(
                Locale.ROOT,
                "throughput, latency and the per-unit figures: the %d measured run%s (%d warm-up%s left out); counts"
                        + " and totals (pinned count and time, gc count and pauses): the whole recording%s",
                measured,
                measured == 1 ? "" : "s",
                all - measured,
                all - measured == 1 ? "" : "s",
                pins > inMeasured
                        ? String.format(
                                Locale.ROOT,
                                "; %d of its %d pins fell outside the measured runs (warm-up, start-up, between runs):"
                                        + " in the counts, not in pins per unit",
                                pins - inMeasured,
                                pins)
                        : "");
    }

    /**
     * Windows a recording's span is cut into for its work over time: at most this many, each a whole number of seconds.
     */
    static final int WORK_WINDOWS = 20;

    /**
     * The units of work (the agent's work=) window by window: calls, calls a second, service time p50/p99 of the calls
     * that started in each; windows of 1 s, or of whole seconds for at most {@link #WORK_WINDOWS} of them over a longer
     * recording.
     */
    static Table workOverTime(RecordingFacts f) {
        Table t = new Table(
                "work-over-time",
                "Units of work over time (the agent's work=), " + f.source.shortName(),
                List.of(
                        Table.number("from", "s", 0),
                        Table.number("calls", "", 0),
                        Table.number("throughput", "units/s", 1),
                        Table.number("service time p50", "ms", 3),
                        Table.number("service time p99", "ms", 3)));
        var s = f.summary;
        if (s.first() == null) {
            return t;
        }
        // whole seconds from the one the recording began in: each of the reducer's seconds in one window
        long first = Timeline.epochNanos(s.first());
        long start = Math.floorDiv(first, 1_000_000_000L) * 1_000_000_000L;
        double lead = (first - start) / 1e9;
        double span = s.spanSeconds() + lead;
        long window = (long) Math.max(1, Math.ceil(span / WORK_WINDOWS));
        for (long from = 0; from < Math.max(span, 1e-9); from += window) {
            var calls = f.work.between(start + from * 1_000_000_000L, start + (from + window) * 1_000_000_000L);
            double seconds = Math.min(from + window, span) - Math.max(from, lead);
            t.row(
                    from,
                    calls.count(),
                    seconds > 0 ? calls.count() / seconds : null,
                    calls.count() == 0 ? null : calls.quantileMillis(0.5),
                    calls.count() == 0 ? null : calls.quantileMillis(0.99));
        }
        t.note("from: seconds after the whole second the recording began in; calls counted in the second they ended in"
                + " (the agent's windows of up to a second spread over the seconds they cover); a window's throughput"
                + " is its calls over its seconds of the recording (the first and last may be shorter); service time is"
                + " the timed method's own duration (not a client's latency), from histograms of 2 significant digits"
                + " (within 1%)");
        return t;
    }

    static Table counts(RecordingFacts f) {
        Table t = new Table(
                "event-counts",
                "Events in " + f.source.name(),
                List.of(Table.text("event type"), Table.number("count", "events", 0)));
        for (Map.Entry<String, Long> e : f.summary.counts().entrySet()) {
            t.row(e.getKey(), e.getValue());
        }
        return t.orNone("the recording holds no events");
    }
}
