package dev.loomscope.analyzer.rules;

import dev.loomscope.analyzer.reduce.PinningReducer;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.events.HeldMonitorSampleEvent;
import dev.loomscope.events.RunInfoEvent;
import dev.loomscope.recording.JdkEvents;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.common.util.TypedPreference;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.rules.Severity;

/**
 * Virtual threads pinned to their carrier while blocking ({@code jdk.VirtualThreadPinned}): a warning when the pinned
 * time is at least {@link #SHARE} of the carriers' time over the recording (1%; the same figure {@code watch
 * --pinned-share} reads live) or one pin lasts {@link #LONGEST} or more (20 ms, the JDK's own default threshold for the
 * event), information for shorter pins.
 */
public final class PinningRule extends LoomscopeRule {
    static final TypedPreference<IQuantity> SHARE = threshold(
            "pinning.share",
            "Pinned share",
            "a warning when pins held this share of the carriers' time (carriers x the recording's span)",
            UnitLookup.PERCENT.quantity(1));
    static final TypedPreference<IQuantity> LONGEST = threshold(
            "pinning.longest",
            "Longest pin",
            "a warning when one pin lasted this long",
            UnitLookup.MILLISECOND.quantity(20));

    public PinningRule() {
        super(
                "loomscope.Pinning",
                "Virtual thread pinning",
                JdkEvents.VIRTUAL_THREAD_PINNED,
                notRecorded(JdkEvents.VIRTUAL_THREAD_PINNED),
                List.of(SHARE, LONGEST));
    }

    @Override
    Verdict judgeRecorded(IItemCollection items, IPreferenceValueProvider settings) {
        IItemCollection pins = items.apply(ItemFilters.type(JdkEvents.VIRTUAL_THREAD_PINNED));
        IQuantity count = pins.getAggregate(Aggregators.count());
        if ((count == null || count.longValue() == 0) && platformOnly(items)) {
            return NO_VIRTUAL_THREAD;
        }
        return verdict(
                count == null ? 0 : count.longValue(),
                ms(pins.getAggregate(Aggregators.sum(JfrAttributes.DURATION))),
                ms(pins.getAggregate(Aggregators.max(JfrAttributes.DURATION))),
                RuleSupport.spanMs(items),
                carriers(items),
                settings);
    }

    @Override
    Verdict judgeRecorded(RecordingFacts facts, IPreferenceValueProvider settings) {
        Samples pins = facts.pinning.all();
        if (pins.count() == 0 && facts.summary.platformOnly()) {
            return NO_VIRTUAL_THREAD;
        }
        return verdict(
                pins.count(),
                pins.sum(),
                pins.count() == 0 ? 0 : pins.max(),
                1000 * facts.summary.spanSeconds(),
                facts.summary.carriers(),
                settings);
    }

    /**
     * {@link dev.loomscope.analyzer.reduce.SummaryReducer#carriers()} from JMC's items: RunInfo's carriers and cpus,
     * jdk.CPUInformation's hwThreads.
     */
    private static SummaryReducer.Carriers carriers(IItemCollection items) {
        long[] v = {-1, -1, -1};
        for (IItemIterable it : items.apply(ItemFilters.type(RunInfoEvent.NAME))) {
            last(it, "carriers", v, 0);
            last(it, "cpus", v, 1);
        }
        for (IItemIterable it : items.apply(ItemFilters.type(JdkEvents.CPU_INFORMATION))) {
            last(it, "hwThreads", v, 2);
        }
        return SummaryReducer.carriers(v[0], v[1], v[2]);
    }

    private static void last(IItemIterable it, String field, long[] into, int at) {
        ToLongFunction<IItem> f = RuleSupport.number(it, field);
        if (f != null) {
            for (IItem item : it) {
                into[at] = f.applyAsLong(item);
            }
        }
    }

    /** A recording where no virtual thread ran: no pin there is no all-clear. */
    private static final Verdict NO_VIRTUAL_THREAD =
            Verdict.ok("No virtual thread ran in this recording (platform threads), so none could pin: loomscope advise"
                    + " tells where virtual threads would.");

    /** {@link dev.loomscope.analyzer.reduce.SummaryReducer#platformOnly()} from JMC's items. */
    private static boolean platformOnly(IItemCollection items) {
        String kind = null;
        for (IItemIterable it : items.apply(ItemFilters.type(RunInfoEvent.NAME))) {
            IMemberAccessor<String, IItem> field = RuleSupport.text(it, "threadKind");
            if (field != null) {
                for (IItem item : it) {
                    kind = field.getMember(item);
                }
            }
        }
        return SummaryReducer.platformOnly(
                kind,
                count(items, HeldMonitorSampleEvent.NAME),
                count(items, JdkEvents.VIRTUAL_THREAD_START),
                count(items, JdkEvents.VIRTUAL_THREAD_PINNED));
    }

    private static long count(IItemCollection items, String type) {
        IQuantity n = items.apply(ItemFilters.type(type)).getAggregate(Aggregators.count());
        return n == null ? 0 : n.longValue();
    }

    /**
     * The judgement, from the pins' count, total and longest duration, the recording's span and its carriers (null when
     * the recording says nothing of them: then the share is of one carrier's time).
     */
    static Verdict verdict(
            long count,
            double totalMs,
            double maxMs,
            double spanMs,
            SummaryReducer.Carriers carriers,
            IPreferenceValueProvider settings) {
        if (count == 0) {
            return Verdict.ok("No virtual thread was pinned while blocking (above the recording's threshold).");
        }
        int n = carriers == null ? 1 : carriers.count();
        double share = PinningReducer.shareOfCarrierTime(totalMs, n, spanMs);
        share = Double.isNaN(share) ? 0 : share;
        boolean warn = share >= value(settings, SHARE, UnitLookup.PERCENT_UNITY)
                || maxMs >= value(settings, LONGEST, UnitLookup.MILLISECOND);
        Severity severity = warn ? Severity.WARNING : Severity.INFO;
        String of = carriers == null
                ? "of one carrier's time over the recording (its carriers not recorded)"
                : String.format(
                        Locale.ROOT,
                        "of %d carriers' time over the recording (%.2f carriers pinned on average)",
                        n,
                        share * n);
        return new Verdict(
                severity,
                String.format(
                        Locale.ROOT,
                        "%d pinned virtual threads held carriers for %.1f ms in all, %.2f%% %s, the longest %.1f ms.",
                        count,
                        totalMs,
                        100 * share,
                        of,
                        maxMs),
                "A virtual thread that blocks while pinned holds its carrier thread: the other virtual threads wait for"
                        + " a free carrier, and throughput falls towards that of as many platform threads as there are"
                        + " carriers. On JDK 21-23 synchronized pins; on every JDK a native frame (JNI, an FFM upcall)"
                        + " or a class initializer on the stack pins.",
                "Run 'loomscope pinning' on the recording: it groups the pins by application frame and, on JDK 24+, by"
                        + " reason. Replace synchronized around blocking calls with ReentrantLock (JDK 21-23), move"
                        + " blocking out of native upcalls and class initializers, or move to JDK 24+ where"
                        + " synchronized no longer pins.");
    }

    private static double ms(IQuantity q) {
        return q == null ? 0 : q.doubleValueIn(UnitLookup.MILLISECOND);
    }
}
