package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;

/**
 * {@code loomscope.ChunkEnd}: never written. JFR runs a periodic event's hook as a chunk ends only when the event's
 * period is {@code endChunk}, and the stop that ends a recording (JFR's own at exit included) ends a chunk: the agent's
 * hook for this type writes the last loomscope.ContextSwitches of the chunk, so that the counts since the last full
 * period are in the file whichever shutdown hook stops the recording.
 */
@Name(ChunkEndEvent.NAME)
@Label("Chunk End")
@Description("Never written: has JFR run the agent's counts once more as each chunk ends")
@Period("endChunk")
public final class ChunkEndEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.ChunkEnd";
}
