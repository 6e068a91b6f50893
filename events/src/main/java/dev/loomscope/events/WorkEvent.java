package dev.loomscope.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * {@code loomscope.Work}: one call of a method the agent's {@code work=} option names (the application's unit of work:
 * a request, a job), with its duration; the agent's own instrumentation on JDK 21-24, where JFR's method tracing
 * (jdk.MethodTrace, JDK 25+) does not exist. Stable schema: fields may be added, never renamed.
 */
@Name(WorkEvent.NAME)
@Label("Unit of Work")
@Description("One call of a method the agent's work= option names, with its duration")
public final class WorkEvent extends LoomscopeEvent {
    /** The event's name in a recording. */
    public static final String NAME = "loomscope.Work";

    @Label("Method")
    @Description("The method called: class::method")
    public String method;
}
