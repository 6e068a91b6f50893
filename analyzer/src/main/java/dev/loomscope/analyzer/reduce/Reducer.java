package dev.loomscope.analyzer.reduce;

import dev.loomscope.recording.JfrEvent;
import java.io.Serializable;
import java.util.Set;

/**
 * A single-pass reduction of one metric: {@link #add} sees each event of a recording once, in file order; results are
 * read after the pass. Reducers keep only what their figures need (counts, sums, the durations they report quantiles
 * of), never the events. What a reducer keeps is serializable: the facts of a large recording are kept between commands
 * ({@link FactsCache}).
 */
public interface Reducer extends Serializable {
    /** The event types this reducer wants, by name. */
    Set<String> eventTypes();

    void add(JfrEvent e);
}
