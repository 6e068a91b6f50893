package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * {@code loomscope.HeldMonitorSample}: one look at the JVM's platform threads for what a virtual thread in their place
 * would hold a carrier through (about every {@code held-monitors=} period); each thread found so is in a
 * {@link HeldMonitorEvent} of the same look. Stable schema: fields may be added, never renamed. Its duration is the
 * look's own thread's time; recordings before {@code stacksWalked} took each look as a thread dump with monitors, which
 * stopped every thread for it.
 */
@Name(HeldMonitorSampleEvent.NAME)
@Label("Held Monitor Sample")
@Description("One look at the platform threads for blocking that would pin a virtual thread; the threads found are"
        + " loomscope.HeldMonitor events")
public final class HeldMonitorSampleEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.HeldMonitorSample";

    /**
     * The share of a CPU the looks may use: a costly look puts off the next to stay within it (what the interval's
     * description says).
     */
    public static final double BUDGET = 0.01;

    @Label("Platform Threads")
    @Description("Live platform threads looked at (the agent's own left out)")
    public int platformThreads;

    @Label("Interval")
    @Description(
            "The looks' mean period (held-monitors=), each gap drawn from half of it to one and a half; a costly look"
                    + " puts off the next to keep the looks within 1% of a CPU")
    @Timespan(Timespan.MILLISECONDS)
    public long interval;

    @Label("Stacks Walked")
    @Description(
            "Threads whose stacks this look walked, each in a handshake with that thread alone; a thread still in the"
                    + " wait it was in at the last look is not walked again")
    public int stacksWalked;

    @Label("Longest Walk")
    @Description(
            "The longest of this look's stack walks, the call's whole time (the handshake with the thread within it,"
                    + " then the stack's elements built): no thread was stopped longer by it (no safepoint is taken)")
    @Timespan(Timespan.NANOSECONDS)
    public long longestWalk;
}
