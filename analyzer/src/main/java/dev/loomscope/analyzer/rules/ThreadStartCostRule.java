package dev.loomscope.analyzer.rules;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.rules.IResult;
import org.openjdk.jmc.flightrecorder.rules.ResultBuilder;
import org.openjdk.jmc.flightrecorder.rules.Severity;

/**
 * What the recording itself costs an app that starts platform threads fast, from the agent's
 * count of them ({@code loomscope.ContextSwitches}) and the profiler that ran
 * ({@code loomscope.RunInfo}). JFR does bookkeeping at every thread start and exit, and
 * async-profiler, writing JFR, looks up every starting and ending thread's name: a server that
 * starts a platform thread per request pays that per request, virtual threads do not, so its
 * timings under the recording lean against platform threads. A warning from 1,000 starts a second
 * under async-profiler, information from that rate without it.
 */
public final class ThreadStartCostRule extends LoomscopeRule {
    static final String TYPE = "loomscope.ContextSwitches";
    static final double RATE = 1000; // platform thread starts a second: about 2% of throughput under async-profiler on echo
    static final double MIN_PERIOD_S = 0.5;
    static final Set<String> WITHOUT_ASYNC_PROFILER = Set.of("off", "jfr");

    public ThreadStartCostRule() {
        super("loomscope.ThreadStartCost", "Recording cost of platform thread starts", TYPE);
    }

    @Override
    String notApplicable() {
        return "loomscope.ContextSwitches was not recorded: the loomscope agent counts the platform threads the app starts";
    }

    @Override
    IResult evaluate(IItemCollection items, ResultBuilder result) {
        List<long[]> samples = new ArrayList<>(); // {end of the sample's period in ns, platform threads started in it}
        boolean counted = false;
        for (IItemIterable it : items.apply(ItemFilters.type(TYPE))) {
            ToLongFunction<IItem> field = RuleSupport.number(it, "platformThreadsStarted");
            IMemberAccessor<IQuantity, IItem> time = JfrAttributes.START_TIME.getAccessor(it.getType());
            if (field == null || time == null) {
                continue;
            }
            counted = true;
            for (IItem item : it) {
                samples.add(new long[] {time.getMember(item).clampedLongValueIn(UnitLookup.EPOCH_NS), field.applyAsLong(item)});
            }
        }
        if (!counted) {
            return result.setSeverity(Severity.NA)
                    .setSummary("loomscope.ContextSwitches has no platformThreadsStarted: an older loomscope agent made the recording;"
                            + " record again with this one")
                    .build();
        }
        IQuantity first = items.getAggregate(Aggregators.min(JfrAttributes.START_TIME));
        if (samples.isEmpty() || first == null) {
            return ok(result, "No context-switch sample to judge (the recording ended before the first).");
        }
        samples.sort(Comparator.comparingLong(x -> x[0]));
        long started = 0;
        List<double[]> periods = new ArrayList<>(); // {platform threads started, seconds}
        long start = first.clampedLongValueIn(UnitLookup.EPOCH_NS);
        long from = start;
        for (long[] sample : samples) {
            double seconds = (sample[0] - from) / 1e9;
            from = sample[0];
            started += sample[1];
            if (seconds < MIN_PERIOD_S && !periods.isEmpty()) { // the final sample can follow the last periodic one closely
                periods.get(periods.size() - 1)[0] += sample[1];
                periods.get(periods.size() - 1)[1] += seconds;
            } else {
                periods.add(new double[] {sample[1], seconds});
            }
        }
        // the busiest period's rate: a server's idle seconds do not dilute it
        double rate = periods.stream().filter(p -> p[1] > 0).mapToDouble(p -> p[0] / p[1]).max().orElse(0);
        double seconds = (from - start) / 1e9;
        String mode = profilingMode(items);
        boolean asyncProfiler = mode != null && !WITHOUT_ASYNC_PROFILER.contains(mode);
        String summary = String.format(Locale.ROOT, "The app started %,d platform threads in %.1f s (up to %,.0f a second)%s.", started, seconds,
                rate, asyncProfiler ? " while async-profiler profiled it (" + mode + ")" : "");
        if (rate < RATE) {
            return ok(result, summary + " Too few for the recording's work at each thread start to cost measurable throughput.");
        }
        return result.setSeverity(asyncProfiler ? Severity.WARNING : Severity.INFO)
                .setSummary(summary + " The recording costs such an app throughput that virtual threads do not pay.")
                .setExplanation("JFR does bookkeeping at every thread start and exit whatever events are enabled, and async-profiler,"
                        + " writing JFR, looks up the name of every thread that starts or ends. A server on 2 cores that started"
                        + " about 5,000 platform threads a second, one per request, kept about 0.96 of its throughput under the"
                        + " loomscope recording without a profile and about 0.88 with async-profiler (loomscope's benchmarks);"
                        + " the same server on virtual threads kept 0.98-0.99. Timings from this recording lean against platform"
                        + " threads by about as much.")
                .setSolution("Time platform-against-virtual comparisons with the agent's profile=off (engine=jfr samples Java frames at"
                        + " no cost beyond the recording's) and take the CPU profile from a separate run, as 'loomscope study'"
                        + " does; an app that reuses threads from a pool does not pay this.")
                .build();
    }

    /** RunInfo's profilingMode: what profiled the run (async-profiler's engine, "jfr" or "off"), null when not recorded. */
    private static String profilingMode(IItemCollection items) {
        for (IItemIterable it : items.apply(ItemFilters.type("loomscope.RunInfo"))) {
            IMemberAccessor<String, IItem> field = RuleSupport.text(it, "profilingMode");
            if (field == null) {
                continue;
            }
            for (IItem item : it) {
                return field.getMember(item);
            }
        }
        return null;
    }
}
