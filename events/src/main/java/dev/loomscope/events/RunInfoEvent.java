package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * {@code loomscope.RunInfo}: once per recording, what ran and how it was recorded. Stable schema: fields may be added,
 * never renamed.
 */
@Name(RunInfoEvent.NAME)
@Label("Run Info")
@Description("What ran and how it was recorded")
public final class RunInfoEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.RunInfo";

    @Label("Label")
    public String label;

    @Label("Thread Kind")
    @Description("platform, virtual, mixed or unknown")
    public String threadKind;

    @Label("Command")
    public String command;

    @Label("JDK")
    public String jdk;

    @Label("Agent Options")
    public String agentOptions;

    @Label("CPUs")
    public int cpus;

    @Label("Carriers")
    @Description(
            "The virtual thread scheduler's parallelism, its carriers: jdk.virtualThreadScheduler.parallelism when set"
                    + " to a number, else the CPUs")
    public int carriers;

    @Label("Profiling Mode")
    @Description(
            "cpu, ctimer, itimer (async-profiler engines), async-profiler (wall/alloc/lock only), jfr, jfr-cpu-time"
                    + " (JFR's CPU-time sampler) or off")
    public String profilingMode;

    @Label("Agent Version")
    public String agentVersion;
}
