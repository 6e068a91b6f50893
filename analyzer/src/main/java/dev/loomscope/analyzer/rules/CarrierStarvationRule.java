package dev.loomscope.analyzer.rules;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.common.util.IPreferenceValueProvider;
import org.openjdk.jmc.common.util.TypedPreference;
import org.openjdk.jmc.flightrecorder.rules.Severity;

/**
 * Carrier starvation from {@code loomscope.SchedulerSample} (the agent, JDK 24+): samples where every carrier was busy
 * (mounted virtual threads at the scheduler's parallelism) while virtual threads queued for one. A warning when that
 * holds in at least {@link #SHARE} of the samples (a quarter).
 */
public final class CarrierStarvationRule extends LoomscopeRule {
    static final String TYPE = "loomscope.SchedulerSample";
    static final TypedPreference<IQuantity> SHARE = threshold(
            "starvation.share",
            "Starved share",
            "a warning when every carrier was busy while virtual threads queued in this share of the scheduler samples",
            UnitLookup.PERCENT.quantity(25));

    public CarrierStarvationRule() {
        super(
                "loomscope.CarrierStarvation",
                "Carrier starvation",
                TYPE,
                "loomscope.SchedulerSample was not recorded: it needs the loomscope agent on JDK 24 or newer (the"
                        + " scheduler's MXBean)",
                List.of(SHARE));
    }

    @Override
    Verdict judgeRecorded(IItemCollection items, IPreferenceValueProvider settings) {
        long samples = 0;
        long starved = 0;
        long maxQueued = 0;
        for (IItemIterable it : items.apply(ItemFilters.type(TYPE))) {
            ToLongFunction<IItem> parallelism = RuleSupport.number(it, "parallelism");
            ToLongFunction<IItem> mounted = RuleSupport.number(it, "mountedVirtualThreads");
            ToLongFunction<IItem> queued = RuleSupport.number(it, "queuedVirtualThreads");
            if (parallelism == null || mounted == null || queued == null) {
                continue;
            }
            for (IItem item : it) {
                samples++;
                long q = queued.applyAsLong(item);
                maxQueued = Math.max(maxQueued, q);
                if (q > 0 && mounted.applyAsLong(item) >= parallelism.applyAsLong(item)) {
                    starved++;
                }
            }
        }
        return verdict(samples, starved, maxQueued, settings);
    }

    @Override
    Verdict judgeRecorded(RecordingFacts facts, IPreferenceValueProvider settings) {
        return verdict(facts.scheduler.samples(), facts.scheduler.starved(), facts.scheduler.maxQueued(), settings);
    }

    static Verdict verdict(long samples, long starved, long maxQueued, IPreferenceValueProvider settings) {
        if (samples == 0) {
            return Verdict.ok("No scheduler sample to judge (the recording is shorter than one sampling period).");
        }
        double share = starved / (double) samples;
        String summary = String.format(
                Locale.ROOT,
                "In %d of %d scheduler samples (%.0f%%) every carrier was busy while virtual threads queued for one (at"
                        + " most %d queued).",
                starved,
                samples,
                100 * share,
                maxQueued);
        if (starved == 0) {
            return Verdict.ok(summary);
        }
        return new Verdict(
                share >= value(settings, SHARE, UnitLookup.PERCENT_UNITY) ? Severity.WARNING : Severity.INFO,
                summary,
                "Virtual threads run on a small pool of carrier threads (one per core by default). When all carriers"
                        + " are busy and runnable virtual threads queue, the application is CPU-bound, or carriers are"
                        + " held by pinned threads or long computations without blocking points.",
                "Check the pinning rule and 'loomscope pinning'; look at the CPU flame graph for long computations on"
                        + " virtual threads; if the machine has spare cores, raise"
                        + " jdk.virtualThreadScheduler.parallelism.");
    }
}
