package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * {@code loomscope.WorkloadRun}: one run of a workload; the event's duration is the run's time. Stable schema: fields
 * may be added (as {@link OptionalField}s), never renamed. The control runs' results file has these columns too
 * ({@link RunResults}).
 */
@Name(WorkloadRunEvent.NAME)
@Label("Workload Run")
@Description("One run of a loomscope workload; the duration is the run's time")
public final class WorkloadRunEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.WorkloadRun";

    @Label("Workload")
    @Description("The workload's name (echo, sleep, rendezvous, ...)")
    public String workload;

    @Label("Thread Kind")
    @Description("platform or virtual")
    public String threadKind;

    @Label("Run Index")
    @Description("0-based among the measured runs; warm-up runs count separately")
    public int runIndex;

    @Label("Warm-up")
    @Description("A warm-up run, left out of comparisons")
    public boolean warmup;

    @Label("Units")
    @Description("Work done in this run (requests, tasks, messages, frames, operations)")
    public long units;

    @Label("Unit")
    @Description("What a unit is (request, task, message, frame, operation)")
    @OptionalField
    public String unit;

    @Label("Parameters")
    @Description("The workload's parameters, as it prints them")
    @OptionalField
    public String params;

    @Label("Latency p50 (ms)")
    @Description("Median latency of the run's requests, ms; request workloads only, NaN otherwise")
    @OptionalField
    public double p50LatencyMs = Double.NaN;

    @Label("Latency p99 (ms)")
    @Description("99th percentile latency of the run's requests, ms; request workloads only, NaN otherwise")
    @OptionalField
    public double p99LatencyMs = Double.NaN;

    @Label("Voluntary Context Switches")
    @Description("The process's voluntary context switches over the run (every thread); -1 where the platform does not"
            + " count them")
    @OptionalField
    public long voluntaryContextSwitches = -1;

    @Label("Involuntary Context Switches")
    @Description(
            "The process's involuntary context switches over the run (every thread); -1 where the platform does not"
                    + " count them")
    @OptionalField
    public long involuntaryContextSwitches = -1;

    @Label("Process CPU")
    @Description("This process's share of the machine's CPU time over the run, 0 to 1; NaN where unknown")
    @OptionalField
    public double processCpu = Double.NaN;

    @Label("Other Processes' CPU")
    @Description(
            "Other processes' share of the machine's CPU time over the run, 0 to 1: how busy the machine was besides;"
                    + " NaN where unknown")
    @OptionalField
    public double otherCpu = Double.NaN;

    @Label("Steal")
    @Description("The share of the machine's CPU time stolen by the hypervisor over the run, 0 to 1; NaN where unknown")
    @OptionalField
    public double stealCpu = Double.NaN;

    @Label("Allocated")
    @Description(
            "Bytes the process allocated on the heap over the run, every thread's (ended ones included; ThreadMXBean's"
                    + " total); -1 where unknown")
    @jdk.jfr.DataAmount
    @OptionalField
    public long allocatedBytes = -1;

    @Label("Latency p99.9 (ms)")
    @Description("99.9th percentile latency of the run's requests, ms; NaN where not measured")
    @OptionalField
    public double p999LatencyMs = Double.NaN;

    @Label("Offered")
    @Description(
            "Units offered over the run at a fixed arrival rate (an open-loop load's scheduled requests); -1 where the"
                    + " load was not open-loop")
    @OptionalField
    public long offeredUnits = -1;

    @Label("Errors")
    @Description(
            "Requests that ended in an error over the run (error responses, timeouts, connections lost); -1 where not"
                    + " counted")
    @OptionalField
    public long errors = -1;

    @Label("Measured By")
    @Description(
            "Where the run's latency and units were measured: empty for the workload itself; for a service, the load"
                    + " client and its window")
    @OptionalField
    public String measuredBy;

    @Label("Late")
    @Description(
            "Requests due by the run's end and not yet answered then (in flight or not yet sent: the client's queue);"
                    + " those late at the start and those offered are the answered, the errors and these; -1 where not"
                    + " counted")
    @OptionalField
    public long late = -1;

    @Label("Latency Histogram")
    @Description(
            "The answered requests' latencies from their intended start, microseconds: an HdrHistogram, compressed,"
                    + " Base64; the histograms of several runs add up to theirs")
    @OptionalField
    public String latencyHistogram;

    @Label("Send Latency Histogram")
    @Description("The answered requests' latencies from when each was sent, microseconds (HdrHistogram, compressed,"
            + " Base64): without the wait in the client's queue")
    @OptionalField
    public String sendLatencyHistogram;

    @Label("Late Histogram")
    @Description(
            "The late requests' ages at the run's end, microseconds (HdrHistogram, compressed, Base64): lower bounds of"
                    + " their latency")
    @OptionalField
    public String lateHistogram;

    @Label("Client Lag p99 (ms)")
    @Description("How late the client's own sends left against when they could have (due, and a connection free), 99th"
            + " percentile, ms: the client's lateness, not the service's; NaN where not measured")
    @OptionalField
    public double clientLagP99Ms = Double.NaN;

    @Label("Client CPU")
    @Description(
            "The CPU the load client's process used over the run, all its threads, in cores (CPU seconds a second: 1 is"
                    + " a core busy throughout); NaN where not measured")
    @OptionalField
    public double clientCpu = Double.NaN;

    @Label("Target")
    @Description("What the load client sent: the request (GET /io) or the request file (requests shop.http); null where"
            + " not a load client's run")
    @OptionalField
    public String target;

    @Label("Offered Rate")
    @Description("The rate the load client offered the requests at, a second (open loop); NaN where not a load client's"
            + " run")
    @OptionalField
    public double offeredRate = Double.NaN;

    @Label("Connections")
    @Description("The load client's connections; -1 where not a load client's run")
    @OptionalField
    public int connections = -1;
}
