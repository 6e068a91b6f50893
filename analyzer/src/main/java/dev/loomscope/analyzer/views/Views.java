package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.render.Table;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Every view of recordings, by name: the command that prints it, the report section that shows it, and how its tables
 * are made from the reductions. A command prints its view; the report shows, in this order, each view that has a
 * section.
 */
public final class Views {
    private Views() {}

    /**
     * One view.
     *
     * @param name the command that prints it
     * @param section the report section's title, or null when the report does not show it
     * @param description what it shows: its command's description in {@code --help}
     * @param make its tables from the reduced recordings and the stack depth to show
     * @param reportTables the names of the tables the report shows (empty: all of them)
     */
    public record View(
            String name,
            String section,
            String description,
            BiFunction<List<RecordingFacts>, Integer, List<Table>> make,
            Set<String> reportTables) {
        public List<Table> of(List<RecordingFacts> facts, int stackDepth) {
            return make.apply(facts, stackDepth);
        }

        /** The tables the report shows of this view. */
        public List<Table> forReport(List<RecordingFacts> facts) {
            return of(facts, REPORT_STACK_DEPTH).stream()
                    .filter(t -> reportTables.isEmpty() || reportTables.contains(t.name()))
                    .toList();
        }
    }

    /** How many frames of each pinning stack the report shows. */
    public static final int REPORT_STACK_DEPTH = 8;

    public static final List<View> ALL = List.of(
            new View(
                    "summary",
                    null,
                    "Span, JVM and GC, label and thread kind, event counts, and the key figures of each recording (each"
                            + " a metric's value for the whole recording: compare --metric takes their names).",
                    (facts, depth) -> SummaryView.of(facts),
                    Set.of()),
            new View(
                    "pinning",
                    "Pinning",
                    "Pinned virtual threads grouped by the application frame that pinned (JDK 24+: by reason and"
                            + " blocking operation too), with count, total, p50, p99, max and the top stack.",
                    PinningView::of,
                    Set.of()),
            new View(
                    "gc",
                    "Garbage collection",
                    "Garbage collection pauses per collector and cause: count, p50, p90, p99, max, total and the share"
                            + " of time in pauses.",
                    (facts, depth) -> GcView.of(facts),
                    Set.of()),
            new View(
                    "heap",
                    "Heap",
                    "Heap used before and after GC and committed, as p50/max and over time; allocation rate.",
                    (facts, depth) -> HeapView.of(facts),
                    Set.of("heap")),
            new View(
                    "ctxsw",
                    "Context switches",
                    "Process context switches (loomscope agent) beside machine-wide ones (jdk.ThreadContextSwitchRate),"
                            + " per second and over time.",
                    (facts, depth) -> ContextSwitchView.of(facts),
                    Set.of("ctxsw")),
            new View(
                    "advise",
                    "Virtual threads, predicted (advise)",
                    "Before the switch: from a recording of an application on platform threads (the loomscope"
                            + " agent's, which looks at its threads every 100 ms), where virtual threads would hold"
                            + " their carriers (blocking in a monitor, entering one, under a class initializer, in"
                            + " native code), per site with its frames, how much carrier time a request would hold,"
                            + " and the ceiling that puts on the carriers on JDK 21-23 and on 24+, with a bottom"
                            + " line.",
                    (facts, depth) -> AdviseView.of(
                            facts.stream().filter(AdviseView::looked).toList(), 0, 0, depth),
                    // the recordings with looks (platform threads under the agent): their sites and carriers' ceiling
                    Set.of("advise-sites", "advise-carriers")));

    /** The view of this name; a name not registered is our bug. */
    public static View named(String name) {
        return ALL.stream()
                .filter(v -> v.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no view named " + name));
    }
}
