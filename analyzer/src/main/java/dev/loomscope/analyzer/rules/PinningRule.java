package dev.loomscope.analyzer.rules;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Samples;
import java.util.Locale;
import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.rules.Severity;

/**
 * Virtual threads pinned to their carrier while blocking ({@code jdk.VirtualThreadPinned}): a
 * warning when the pinned time is at least 1% of the recording or one pin lasts 20 ms or more
 * (the JDK's own default threshold), information for shorter pins.
 */
public final class PinningRule extends LoomscopeRule {
    static final String TYPE = "jdk.VirtualThreadPinned";

    public PinningRule() {
        super("loomscope.Pinning", "Virtual thread pinning", TYPE);
    }

    @Override
    String notApplicable() {
        return "jdk.VirtualThreadPinned was not recorded (a JDK before 21, or the event disabled in the recording settings): record with the loomscope agent";
    }

    @Override
    Verdict judgeRecorded(IItemCollection items) {
        IItemCollection pins = items.apply(ItemFilters.type(TYPE));
        IQuantity count = pins.getAggregate(Aggregators.count());
        return verdict(count == null ? 0 : count.longValue(), ms(pins.getAggregate(Aggregators.sum(JfrAttributes.DURATION))),
                ms(pins.getAggregate(Aggregators.max(JfrAttributes.DURATION))), RuleSupport.spanMs(items));
    }

    @Override
    Verdict judgeRecorded(RecordingFacts facts) {
        Samples pins = facts.pinning.all();
        return verdict(pins.count(), pins.sum(), pins.count() == 0 ? 0 : pins.max(), 1000 * facts.summary.spanSeconds());
    }

    /** The judgement, from the pins' count, total and longest duration and the recording's span. */
    static Verdict verdict(long count, double totalMs, double maxMs, double spanMs) {
        if (count == 0) {
            return Verdict.ok("No virtual thread was pinned while blocking (above the recording's threshold).");
        }
        double share = spanMs > 0 ? totalMs / spanMs : 0;
        Severity severity = share >= 0.01 || maxMs >= 20 ? Severity.WARNING : Severity.INFO;
        return new Verdict(severity,
                String.format(Locale.ROOT, "%d pinned virtual threads, %.1f ms in all (%.2f%% of the recording), the longest %.1f ms.", count,
                        totalMs, 100 * share, maxMs),
                "A virtual thread that blocks while pinned holds its carrier thread: the other virtual threads wait for a free"
                        + " carrier, and throughput falls towards that of as many platform threads as there are carriers. On JDK 21-23"
                        + " synchronized pins; on every JDK a native frame (JNI, an FFM upcall) or a class initializer on the stack pins.",
                "Run 'loomscope pinning' on the recording: it groups the pins by application frame and, on JDK 24+, by reason."
                        + " Replace synchronized around blocking calls with ReentrantLock (JDK 21-23), move blocking out of native upcalls"
                        + " and class initializers, or move to JDK 24+ where synchronized no longer pins.");
    }

    private static double ms(IQuantity q) {
        return q == null ? 0 : q.doubleValueIn(UnitLookup.MILLISECOND);
    }
}
