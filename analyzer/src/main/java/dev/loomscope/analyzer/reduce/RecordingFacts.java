package dev.loomscope.analyzer.reduce;

import dev.loomscope.analyzer.read.RecordingReader;
import dev.loomscope.analyzer.read.RecordingSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;

/** Every reduction of one recording, made in one pass over its events. */
public final class RecordingFacts {
    public final RecordingSource source;
    public final SummaryReducer summary = new SummaryReducer();
    public final PinningReducer pinning = new PinningReducer();
    public final GcReducer gc = new GcReducer();
    public final HeapReducer heap = new HeapReducer();
    public final ContextSwitchReducer ctxsw = new ContextSwitchReducer();
    public final RunsReducer runs = new RunsReducer();
    public final List<String> warnings = new ArrayList<>();

    private RecordingFacts(RecordingSource source) {
        this.source = source;
    }

    public static RecordingFacts of(RecordingSource source) {
        RecordingFacts f = new RecordingFacts(source);
        List<Reducer> reducers = List.of(f.summary, f.pinning, f.gc, f.heap, f.ctxsw, f.runs);
        Map<String, List<Reducer>> byType = new HashMap<>();
        List<Reducer> everything = reducers.stream().filter(r -> r.eventTypes() == null).toList();
        for (Reducer r : reducers) {
            if (r.eventTypes() != null) {
                r.eventTypes().forEach(t -> byType.computeIfAbsent(t, k -> new ArrayList<>()).add(r));
            }
        }
        RecordingReader.read(source, (RecordedEvent e) -> {
            for (Reducer r : everything) {
                r.add(e);
            }
            List<Reducer> rs = byType.get(e.getEventType().getName());
            if (rs != null) {
                for (Reducer r : rs) {
                    r.add(e);
                }
            }
        }, f.warnings::add);
        return f;
    }

    /** The group this recording belongs to: its thread kind, else its label, else "unknown". */
    public String group() {
        if (summary.threadKind != null && !summary.threadKind.equals("unknown")) {
            return summary.threadKind;
        }
        return summary.label != null ? summary.label : "unknown";
    }

    /** Per-second rate of {@code total} over this recording's span, or NaN. */
    public double perSecond(double total) {
        double s = summary.spanSeconds();
        return s > 0 ? total / s : Double.NaN;
    }
}
