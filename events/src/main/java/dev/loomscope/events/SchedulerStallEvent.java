package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * {@code loomscope.SchedulerStall}: no virtual thread could get a carrier for the agent's {@code stall=} time (a
 * virtual thread the agent started was not run), so every carrier was held; the JSON thread dumps the agent wrote then
 * are named. Stable schema: fields may be added, never renamed.
 */
@Name(SchedulerStallEvent.NAME)
@Label("Virtual Thread Scheduler Stall")
@Description("No virtual thread got a carrier for the stall time: every carrier was held; thread dumps were written")
public final class SchedulerStallEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.SchedulerStall";

    @Label("Waited")
    @Description("How long the agent's probe virtual thread had waited for a carrier when the stall was reported")
    @Timespan(Timespan.MILLISECONDS)
    public long waited;

    @Label("Carriers")
    @Description("Carrier threads alive (the scheduler's pool)")
    public int carriers;

    @Label("Carriers Blocked")
    @Description(
            "Carrier threads whose state was BLOCKED, WAITING or TIMED_WAITING (held by a virtual thread pinned while"
                    + " it waits)")
    public int carriersBlocked;

    @Label("Queued Virtual Threads")
    @Description("Virtual threads waiting to run (JDK 24+; -1 where the JDK does not say)")
    public long queuedVirtualThreads;

    @Label("Thread Dumps")
    @Description("The JSON thread dumps written, separated by ';' (empty when none could be written)")
    public String dumps;
}
