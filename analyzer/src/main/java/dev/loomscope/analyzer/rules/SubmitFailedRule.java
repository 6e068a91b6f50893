package dev.loomscope.analyzer.rules;

import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.ResultBuilder;
import org.openjdk.jmc.flightrecorder.rules.Severity;

/** Virtual threads that could not be started or continued ({@code jdk.VirtualThreadSubmitFailed}): always a warning. */
public final class SubmitFailedRule extends LoomscopeRule {
    static final String TYPE = "jdk.VirtualThreadSubmitFailed";

    public SubmitFailedRule() {
        super("loomscope.SubmitFailed", "Virtual thread submit failures", TYPE);
    }

    @Override
    String notApplicable() {
        return "jdk.VirtualThreadSubmitFailed was not recorded (a JDK before 21, or the event disabled in the recording settings): record with the loomscope agent";
    }

    @Override
    IResult evaluate(IItemCollection items, ResultBuilder result) {
        IQuantity count = items.apply(ItemFilters.type(TYPE)).getAggregate(Aggregators.count());
        if (count == null || count.longValue() == 0) {
            return ok(result, "Every virtual thread was scheduled: no submit failed.");
        }
        return result.setSeverity(Severity.WARNING)
                .setSummary(count.longValue() + " virtual threads could not be scheduled on the carrier pool (the submit failed).")
                .setExplanation("Starting or unparking a virtual thread submits it to the scheduler; a failure means the scheduler"
                        + " rejected it, usually because it was shut down or out of resources. The thread that started or"
                        + " unparked it got an exception, and work was lost or delayed.")
                .setSolution("Look at the events' stack traces (loomscope summary lists them by type; JMC shows the stacks) and at the"
                        + " scheduler's settings (jdk.virtualThreadScheduler.parallelism, maxPoolSize).")
                .build();
    }
}
