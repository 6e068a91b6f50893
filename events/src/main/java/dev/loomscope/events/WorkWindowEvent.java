package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/**
 * {@code loomscope.WorkWindow}: the calls of one method the agent's {@code work=} option names that ended in one window
 * (a second, or less at the end), as a count and a histogram of their durations (of every call, or of one in 64 of a
 * method called over 100,000 times a second), instead of an event per call: a method called millions of times a second
 * costs a bounded amount and the recording grows by one event a second. The histogram is HdrHistogram's (V2 encoding,
 * compressed, base64, as its log files hold it), durations in nanoseconds with {@link #SIGNIFICANT_DIGITS} significant
 * digits: a quantile read from it is within 1% of the recorded value (and below a microsecond, within a microsecond).
 * Stable schema: fields may be added, never renamed.
 */
@Name(WorkWindowEvent.NAME)
@Label("Units of Work")
@Description(
        "The calls of a method the agent's work= option names that ended in one window: their count and a histogram of"
                + " their durations")
public final class WorkWindowEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.WorkWindow";

    /** The histogram's precision. */
    public static final int SIGNIFICANT_DIGITS = 2;
    /** The smallest duration told apart, ns. */
    public static final long LOWEST_NANOS = 1_000;
    /** The largest duration recorded, ns (an hour; longer calls count as an hour). */
    public static final long HIGHEST_NANOS = 3_600_000_000_000L;

    @Label("Method")
    @Description("The method called: class::method")
    public String method;

    @Label("Calls")
    @Description("Calls that ended in the window")
    public long calls;

    @Label("Timed Calls")
    @Description(
            "Calls whose duration is in the histogram: all of them, one in 64 of a method called over 100,000 times a"
                    + " second, or none of a server's event-loop entry, which is counted only")
    public long timed;

    @Label("Window")
    @Description("The window's length, ending at the event's time")
    @Timespan(Timespan.NANOSECONDS)
    public long window;

    @Label("Durations")
    @Description("The calls' durations in nanoseconds as an HdrHistogram (V2, compressed, base64)")
    public String durations;
}
