package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;

/**
 * {@code loomscope.ContextSwitches}: context switches of this process since the previous event (the JDK's
 * jdk.ThreadContextSwitchRate counts the whole machine), and the platform threads it started (the agent leaves
 * jdk.ThreadStart off: it costs every thread start).
 */
@Name(ContextSwitchesEvent.NAME)
@Label("Process Context Switches")
@Description(
        "Voluntary and involuntary context switches of this process, and the platform threads it started, since the"
                + " previous event")
@Period("1 s")
public final class ContextSwitchesEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.ContextSwitches";

    @Label("Voluntary")
    @Description(
            "The process's voluntary context switches since the previous event: it gave up the CPU (blocked, slept,"
                    + " parked)")
    public long voluntary;

    @Label("Involuntary")
    @Description("Its involuntary ones: the scheduler took the CPU away (time slice over, preempted)")
    public long involuntary;

    @Label("Source")
    @Description(
            "Where the agent counted them: getrusage (all threads, living and ended) or proc (living threads only)")
    public String source;

    @Label("Platform Threads Started")
    @Description("Platform threads started since the previous event (ThreadMXBean's total started thread count)")
    public long platformThreadsStarted;

    @Label("Allocated")
    @Description("Bytes the process allocated on the heap since the previous event, every thread's, ended ones included"
            + " (ThreadMXBean's total); -1 where the JVM does not measure it")
    @jdk.jfr.DataAmount
    public long allocatedBytes = -1;
}
