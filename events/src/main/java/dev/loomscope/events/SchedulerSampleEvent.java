package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;

/** {@code loomscope.SchedulerSample}: the virtual-thread scheduler's state (JDK 24+). */
@Name(SchedulerSampleEvent.NAME)
@Label("Virtual Thread Scheduler")
@Description("Parallelism, pool size, mounted and queued virtual threads (JDK 24+)")
@Period("1 s")
public final class SchedulerSampleEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.SchedulerSample";

    @Label("Parallelism")
    @Description("The scheduler's parallelism: how many carriers it keeps running virtual threads")
    public int parallelism;

    @Label("Pool Size")
    @Description("Carrier threads in the scheduler's pool")
    public int poolSize;

    @Label("Mounted Virtual Threads")
    @Description("Virtual threads on a carrier")
    public int mountedVirtualThreads;

    @Label("Queued Virtual Threads")
    @Description("Virtual threads waiting for a carrier")
    public long queuedVirtualThreads;
}
