package dev.loomscope.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the load client does: each target at each rate in turn, ascending, each a warm-up of at least {@code warmupMin}
 * until the service is steady (at most {@code warmupMax}), then {@code windows} measured windows of {@code window};
 * requests over {@code connections} kept-alive connections, given up after {@code timeout}. {@code threadKind} labels
 * the runs; {@code appPid} (0: none) is the service whose CPU and context switches each window counts. With
 * {@code search}, the rates are not given but searched for the capacity at {@code slo} ({@link CapacitySearch}); a
 * target's first rate, or its search, is reached by a {@code ramp} ({@link #rampRates}; zero: none).
 */
public record LoadSpec(
        List<Requests> targets,
        List<Double> rates,
        int connections,
        Duration timeout,
        Duration warmupMin,
        Duration warmupMax,
        int windows,
        Duration window,
        Duration ramp,
        String threadKind,
        long appPid,
        Slo slo,
        boolean search) {
    /** The steps a ramp to a rate rises by (a quarter, a half and three quarters of it), each a third of the ramp. */
    public static final int RAMP_STEPS = 3;
    /** The most steps of a ramp before a search: from its first rate, doubling to 32 times it. */
    static final int SEARCH_RAMP_STEPS = 6;

    /**
     * The rates a ramp to {@code rate} steps through: a quarter, a half and three quarters of it; before a search, from
     * it doubling.
     */
    List<Double> rampRates(double rate) {
        List<Double> rates = new ArrayList<>();
        for (int i = 1; i <= (search ? SEARCH_RAMP_STEPS : RAMP_STEPS); i++) {
            rates.add(search ? rate * (1 << (i - 1)) : CapacitySearch.round(rate * i / (RAMP_STEPS + 1)));
        }
        return rates;
    }

    /** The rates a target is loaded at: those given, or the most steps a search takes. */
    private int steps() {
        return search ? CapacitySearch.MAX_STEPS : rates.size();
    }

    /** The seconds the load takes at most: every target and rate's longest warm-up and its windows. */
    public double maxSeconds() {
        return targets.size()
                * (steps() * (warmupMax.toNanos() + windows * window.toNanos())
                        + ramp.toNanos() * (search ? SEARCH_RAMP_STEPS / RAMP_STEPS : 1))
                / 1e9;
    }

    /** The seconds the load takes at least. */
    public double minSeconds() {
        return targets.size()
                * ((search ? CapacitySearch.FEWEST_STEPS : steps()) * (warmupMin.toNanos() + windows * window.toNanos())
                        + ramp.toNanos())
                / 1e9;
    }

    /** {@code GET /io at 400/s}: the workload name of a target's runs at a rate. */
    public static String workload(Requests t, double rate) {
        return t.label() + " at " + rate(rate);
    }

    /** {@code 400/s}, {@code 12.5/s}. */
    public static String rate(double rate) {
        return (rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate)) + "/s";
    }
}
