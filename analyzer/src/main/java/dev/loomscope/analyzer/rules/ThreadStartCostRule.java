package dev.loomscope.analyzer.rules;

import dev.loomscope.analyzer.reduce.ContextSwitchReducer;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import java.math.BigDecimal;
import java.util.ArrayList;
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
 * What the recording itself costs an app that starts platform threads fast, from the agent's count of them
 * ({@code loomscope.ContextSwitches}: the busiest sampling period's rate) and the profiler that ran
 * ({@code loomscope.RunInfo}). JFR does bookkeeping at every thread start and exit, and async-profiler, writing JFR,
 * looks up every starting and ending thread's name: a server that starts a platform thread per request pays that per
 * request, virtual threads do not, so its timings under the recording lean against platform threads. The cost is a rule
 * of thumb ({@link #startCost}): one benchmark's measured cost scaled by the rate; machines differ in what a thread
 * start costs, which is why {@code loomscope study} measures the cost with control JVMs instead. Information from
 * {@link #NOTABLE} of the throughput (1%), a warning from twice that.
 */
public final class ThreadStartCostRule extends LoomscopeRule {
    static final String TYPE = "loomscope.ContextSwitches";

    /**
     * loomscope's echo benchmark on platform threads, one started per request (docs/benchmarks.md, "Agent overhead"):
     * about 5,500 thread starts a second, where the recording kept 0.879 of the throughput with async-profiler and
     * 0.964 without a profile.
     */
    static final double MEASURED_RATE = 5500;

    static final double MEASURED_COST_PROFILED = 0.12;
    static final double MEASURED_COST = 0.04;

    /** The {@link #startCost} from which the rule says what the recording costs (a warning from twice it). */
    static final TypedPreference<IQuantity> NOTABLE = threshold(
            "start-cost.notable",
            "Notable start cost",
            "information when the recording's work at platform thread starts costs this share of throughput, a warning"
                    + " from twice it",
            UnitLookup.PERCENT.quantity(1));

    /** Where {@link #startCost} comes from, for the rule's explanation. */
    static final String START_COST_BASIS = String.format(
            Locale.ROOT,
            "a rule of thumb, scaled from loomscope's echo benchmark on 2 cores, where %,.0f platform thread starts a"
                    + " second cost %.0f%% of throughput under async-profiler and %.0f%% without ('loomscope study'"
                    + " measures the cost on this machine with control JVMs that run without a recording)",
            MEASURED_RATE,
            100 * MEASURED_COST_PROFILED,
            100 * MEASURED_COST);

    /**
     * The share of throughput that the recording's work at every platform thread start and end costs an app that starts
     * {@code rate} a second: the measured cost scaled by the rate.
     */
    static double startCost(double rate, boolean asyncProfiler) {
        return rate / MEASURED_RATE * (asyncProfiler ? MEASURED_COST_PROFILED : MEASURED_COST);
    }

    public ThreadStartCostRule() {
        super(
                "loomscope.ThreadStartCost",
                "Recording cost of platform thread starts",
                TYPE,
                "loomscope.ContextSwitches was not recorded: the loomscope agent counts the platform threads the app"
                        + " starts",
                List.of(NOTABLE));
    }

    @Override
    Verdict judgeRecorded(IItemCollection items, IPreferenceValueProvider settings) {
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
                samples.add(new long[] {
                    time.getMember(item).clampedLongValueIn(UnitLookup.EPOCH_NS), field.applyAsLong(item)
                });
            }
        }
        if (!counted) {
            return NOT_COUNTED;
        }
        IQuantity first = items.getAggregate(Aggregators.min(JfrAttributes.START_TIME));
        if (samples.isEmpty() || first == null) {
            return NO_SAMPLE;
        }
        long start = first.clampedLongValueIn(UnitLookup.EPOCH_NS);
        long started = samples.stream().mapToLong(x -> x[1]).sum();
        double seconds = (samples.stream().mapToLong(x -> x[0]).max().getAsLong() - start) / 1e9;
        // the busiest period: a server's idle seconds do not dilute it
        return verdict(started, seconds, ContextSwitchReducer.peakRate(start, samples), profilingMode(items), settings);
    }

    @Override
    Verdict judgeRecorded(RecordingFacts facts, IPreferenceValueProvider settings) {
        Long started = facts.ctxsw.platformThreadsStarted();
        if (started == null) {
            return NOT_COUNTED;
        }
        Double rate = facts.ctxsw.peakPlatformThreadStartRate(facts.summary.first());
        if (rate == null) {
            return NO_SAMPLE;
        }
        return verdict(
                started,
                facts.ctxsw.platformThreadStartSeconds(facts.summary.first()),
                rate,
                facts.summary.profilingMode,
                settings);
    }

    private static final Verdict NOT_COUNTED = new Verdict(
            Severity.NA,
            "loomscope.ContextSwitches has no platformThreadsStarted: an older loomscope agent made the recording;"
                    + " record again with this one",
            null,
            null);
    private static final Verdict NO_SAMPLE =
            Verdict.ok("No context-switch sample to judge (the recording ended before the first).");

    /**
     * The judgement, from the platform threads started over {@code seconds}, the busiest period's rate and what
     * profiled the run.
     */
    static Verdict verdict(long started, double seconds, double rate, String mode, IPreferenceValueProvider settings) {
        boolean asyncProfiler = SummaryReducer.asyncProfiler(mode);
        double cost = startCost(rate, asyncProfiler);
        double notable = value(settings, NOTABLE, UnitLookup.PERCENT_UNITY);
        String share = cost < notable
                ? "under "
                        + BigDecimal.valueOf(100 * notable).stripTrailingZeros().toPlainString() + "%"
                : String.format(Locale.ROOT, "about %.0f%%", 100 * cost);
        String summary = String.format(
                Locale.ROOT,
                "The app started %,d platform threads in %.1f s (up to %,.0f a second)%s: the recording's work at every"
                        + " thread start and end costs it %s of its throughput (a rule of thumb).",
                started,
                seconds,
                rate,
                asyncProfiler ? " while async-profiler profiled it (" + mode + ")" : "",
                share);
        if (cost < notable) {
            return Verdict.ok(summary);
        }
        return new Verdict(
                cost >= 2 * notable ? Severity.WARNING : Severity.INFO,
                summary,
                "JFR does bookkeeping at every thread start and exit whatever events are enabled, and async-profiler,"
                        + " writing JFR, looks up the name of every thread that starts or ends. The estimate is "
                        + START_COST_BASIS + ". Virtual threads pay none of it: timings from this recording lean"
                        + " against platform threads by about as much.",
                asyncProfiler
                        ? "Time platform-against-virtual comparisons with the agent's profile=off (engine=jfr samples"
                                + " Java frames at no cost beyond the recording's) and take the CPU profile from a"
                                + " separate run, as 'loomscope study' does; an app that reuses threads from a pool"
                                + " does not pay this."
                        : "What is left is JFR's own bookkeeping, which any recording pays: weigh"
                                + " platform-against-virtual timings with it in mind, or time the app without a"
                                + " recording; an app that reuses threads from a pool does not pay this.");
    }

    /**
     * RunInfo's profilingMode: what profiled the run (async-profiler's engine, "jfr" or "off"), null when not recorded.
     */
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
