package dev.loomscope.analyzer.rules;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.recording.JdkEvents;
import java.util.List;
import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.flightrecorder.rules.Severity;

/** Virtual threads that could not be started or continued ({@code jdk.VirtualThreadSubmitFailed}): always a warning. */
public final class SubmitFailedRule extends LoomscopeRule {
    public SubmitFailedRule() {
        super(
                "loomscope.SubmitFailed",
                "Virtual thread submit failures",
                JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED,
                notRecorded(JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED),
                List.of());
    }

    @Override
    Verdict judgeRecorded(IItemCollection items, IPreferenceValueProvider settings) {
        IQuantity count = items.apply(ItemFilters.type(JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED))
                .getAggregate(Aggregators.count());
        return verdict(count == null ? 0 : count.longValue());
    }

    @Override
    Verdict judgeRecorded(RecordingFacts facts, IPreferenceValueProvider settings) {
        return verdict(facts.pinning.submitFailed());
    }

    static Verdict verdict(long count) {
        if (count == 0) {
            return Verdict.ok("Every virtual thread was scheduled: no submit failed.");
        }
        return new Verdict(
                Severity.WARNING,
                count + " virtual threads could not be scheduled on the carrier pool (the submit failed).",
                "Starting or unparking a virtual thread submits it to the scheduler; a failure means the scheduler"
                        + " rejected it, usually because it was shut down or out of resources. The thread that started"
                        + " or unparked it got an exception, and work was lost or delayed.",
                "Look at the events' stack traces (loomscope summary lists them by type; JMC shows the stacks) and at"
                        + " the scheduler's settings (jdk.virtualThreadScheduler.parallelism, maxPoolSize).");
    }
}
