package dev.loomscope.load;

import dev.loomscope.load.stats.LatencyHistograms;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * The capacity at an objective found by search, as a load tester finds it by hand: from {@link #START} requests a
 * second (or the highest rate a ramp before it kept up), the rate doubles while the objective is kept and halves while
 * it is missed, until one rate kept it and one missed; then the interval between them is halved until it is within
 * {@link #WITHIN} of the kept rate (about 6-8 steps in all). A rate keeps the objective when its measured windows'
 * merged percentile is within the bound, under {@link Slo#ERRORS} failed, and no request was left late (the service
 * kept up). A miss that may be a young JVM's ({@link #again}: its warm-up not steady and it answered {@link #WARMING}
 * times as many a second in the step's last window as in its first, a JVM still compiling; or it kept pace with the
 * rate and missed on the backlog its cold start left; or it is the search's first miss and the service kept pace, its
 * latency perhaps its compiler's or first collections') is taken once more before it bounds the search, once a search
 * (each try costs a step, and a later miss is a warmer JVM's): the JVM is warmer by then, and a young JVM's miss must
 * not hold its capacity down for the rest of the search. A service over its capacity answers as many at the end as at
 * the start, falls behind, and its miss bounds at once. After a ramp that fell behind, the search bisects at once
 * between the ramp's highest rate kept up and the rate it fell behind at, as soft bounds: neither is judged against the
 * objective, so the rate it fell behind at is the step after one kept between them, the rate it kept up with the step
 * after one missed, and a judged step that contradicts one drops it (missed at or below the rate the ramp kept up with;
 * kept at or above the one a young JVM fell behind at, when the search climbs on by {@link #PAST_THE_RAMP} a step, not
 * doubling: the warm JVM's capacity is near).
 */
final class CapacitySearch {
    static final double START = 100;
    static final double WITHIN = 0.05;
    /**
     * The most steps a search takes: from 100/s, doubling to 1,000,000/s and bisecting to 5%, or halving to under 1/s.
     */
    static final int MAX_STEPS = 20;
    /** The fewest: a miss at once, then down and up within 5%. */
    static final int FEWEST_STEPS = 6;

    static final double LOWEST = 1;
    static final double HIGHEST = 1_000_000;
    /**
     * How much slower (from its send, p50) the service may answer at the missed rate than at the kept one and still be
     * answering as fast.
     */
    static final double SAME_SERVICE_TIME = 1.25;
    /**
     * How many times as many requests a second a service answers at a step's end as at its start while it is still
     * warming up.
     */
    static final double WARMING = 1.2;
    /**
     * The step up past a rate a young JVM fell behind at and the warm one kept: its capacity is near (a doubling from
     * there overshoots by far, and each step back over capacity is a warm-up cut at its longest).
     */
    static final double PAST_THE_RAMP = 1.25;

    private final Slo slo;
    private double kept = Double.NaN;
    private double missed = Double.NaN;
    private double next = START;
    /** The ramp's highest rate kept up and the rate it fell behind at (NaN: none): bounds until a step judges them. */
    private double softKept = Double.NaN;

    private double softMissed = Double.NaN;
    /**
     * The steps at which the kept and the missed bound were judged, whether the missed one came before any rate was
     * kept, and whether the last look was taken.
     */
    private int keptAt;

    private int missedAt;
    private boolean missedYoung;
    private boolean lookedAgain;
    /** The words for the last look about to be taken ({@link #lastLook}); null when it is not next. */
    private String lastLook;
    /**
     * The next step up while no rate has missed: doubling, or {@link #PAST_THE_RAMP} past a rate the ramp fell behind
     * at.
     */
    private double climb = 2;
    /**
     * Where the search began, for its line: {@code , between the ramp's 400/s kept up and 800/s fallen behind}; empty
     * from its first rate.
     */
    private String began = "";

    private int steps;
    /**
     * Whether a miss was taken again: once a search, the youngest that may be a young JVM's (a later one is of a warmer
     * JVM).
     */
    private boolean retried;
    /** Why the step just taken is taken again ({@link #again}); null when it is not. */
    private String again;
    /** The measured steps at the kept and the missed bound (null: none, or canned outcomes). */
    private LoadRun.Summary keptRun;

    private LoadRun.Summary missedRun;

    CapacitySearch(Slo slo) {
        this(slo, START);
    }

    /**
     * A search from {@code start} requests a second (a ramp's highest rate kept up: the rates below it need no step).
     */
    CapacitySearch(Slo slo, double start) {
        this.slo = slo;
        this.next = start;
    }

    /**
     * A search after a ramp that kept up to {@code keptUpTo} and fell behind at {@code fellBehindAt} (NaN: it did not):
     * it starts between them; without both, at {@code keptUpTo} (else {@link #START}).
     */
    static CapacitySearch afterRamp(Slo slo, double keptUpTo, double fellBehindAt) {
        if (Double.isNaN(keptUpTo)) {
            return new CapacitySearch(slo);
        }
        CapacitySearch s = new CapacitySearch(slo, keptUpTo);
        if (!Double.isNaN(fellBehindAt) && fellBehindAt > keptUpTo) {
            s.softKept = keptUpTo;
            s.softMissed = fellBehindAt;
            s.next = round((keptUpTo + fellBehindAt) / 2);
            s.began = ", begun between the ramp's " + LoadSpec.rate(keptUpTo) + " kept up and "
                    + LoadSpec.rate(fellBehindAt) + " fallen behind";
        }
        return s;
    }

    /** The next rate to try; NaN when the search is done. */
    double next() {
        return next;
    }

    /** Whether a rate's measured windows kept the objective. */
    private boolean kept(LoadRun.Summary s) {
        return slo.keptBy(
                s.client().judged(),
                s.client().offered(),
                s.client().errors(),
                s.client().keptUp());
    }

    /**
     * Takes a measured step: whether it kept the objective; the next rate follows from it (the same rate:
     * {@link #retrying}).
     */
    boolean record(LoadRun.Summary s) {
        boolean wasKept = kept(s);
        String why = wasKept ? null : again(s);
        record(s.rate(), wasKept, why != null);
        again = retrying(s.rate()) ? why : null;
        if (wasKept && s.rate() == kept) {
            keptRun = s;
        } else if (!wasKept && s.rate() == missed) {
            missedRun = s;
        }
        return wasKept;
    }

    /** Takes a step's result, the service not warming up; the next rate follows from it. */
    void record(double rate, boolean wasKept) {
        record(rate, wasKept, false);
    }

    /**
     * Takes a step's result; the next rate follows from it: the same rate for a miss while the service was
     * {@code warming} up, once.
     */
    void record(double rate, boolean wasKept, boolean warming) {
        steps++;
        if (!wasKept && warming && !retried && (Double.isNaN(missed) || rate < missed) && steps < MAX_STEPS) {
            retried = true;
            next = rate; // bounds nothing yet: taken again, warmer
            // the last look: warm, it keeps the rate it missed young, and the search goes on above it
            return;
        }
        lastLook = null;
        if (wasKept
                // a warm JVM keeps what a young one fell behind at: its capacity is near, climbed to by a quarter a
                // step
                && rate == missed) {
            missed = Double.NaN;
        }
        if (wasKept) {
            keptAt = rate >= kept || Double.isNaN(kept) ? steps : keptAt;
            kept = Double.isNaN(kept) ? rate : Math.max(kept, rate);
            if (rate >= softMissed) {
                softMissed = Double.NaN;
                climb = PAST_THE_RAMP;
            }
        } else {
            if (rate <= missed || Double.isNaN(missed)) {
                missedAt = steps;
                missedYoung = Double.isNaN(kept);
            }
            missed = Double.isNaN(missed) ? rate : Math.min(missed, rate);
            softKept = rate <= softKept ? Double.NaN : softKept;
        }
        double lo = Double.isNaN(kept) ? softKept : kept;
        double hi = Double.isNaN(missed) ? softMissed : missed;
        if (steps >= MAX_STEPS) {
            next = Double.NaN;
        } else if (Double.isNaN(hi)) {
            next = rate * climb > HIGHEST ? Double.NaN : round(rate * climb);
        } else if (Double.isNaN(lo)) {
            next = rate / 2 < LOWEST ? Double.NaN : rate / 2;
        } else if (Double.isNaN(missed)) {
            next = hi; // kept between the ramp's rates: the rate it fell behind at is judged next
        } else if (Double.isNaN(kept)) {
            next = lo; // missed between them: what the ramp kept up with is judged before any rate below it
        } else if ((hi - lo) / lo <= WITHIN) {
            next = Double.NaN;
            if (!lookedAgain
                    && missedYoung
                    && steps < MAX_STEPS) { // missed before the search kept any rate, it has kept rates since: warmer
                lookedAgain = true;
                next = missed;
                lastLook = String.format(
                        Locale.ROOT,
                        "then %s once more, the search's last look: it missed it at step %d, before it kept any rate,"
                                + " and kept %s at step %d, warmer",
                        LoadSpec.rate(missed),
                        missedAt,
                        LoadSpec.rate(kept),
                        keptAt);
            }
        } else {
            next = round((lo + hi) / 2);
        }
    }

    /** Why a missed step may be a young JVM's, in words ({@link CapacitySearch}); null when it is not. */
    private String again(LoadRun.Summary s) {
        if (s.unsteady() != null && s.quickening() >= WARMING) {
            return String.format(
                    Locale.ROOT,
                    "still warming up (%.2fx the requests answered a second in its last window as in its first)",
                    s.quickening());
        }
        if (s.unsteady() != null && s.client().keptUp() && s.lateBefore() > 0) {
            return String.format(
                    Locale.ROOT,
                    "it kept pace with the rate, and missed on the %,d requests its warm-up left late",
                    s.lateBefore());
        }
        return s.client().keptUp() && Double.isNaN(missed)
                ? "the search's first miss, and the service kept pace: a young JVM's latency (its compiler's, its first"
                        + " collections') is not yet its capacity"
                : null;
    }

    /**
     * The last look, when the search has converged on a missed bound judged before its kept one: the JVM kept a rate
     * after it missed this one, so it is warmer, and the miss is taken once more, once a search (in words, for the
     * step's line); null when it is not next.
     */
    String lastLook() {
        return lastLook;
    }

    /** Why the step just taken is taken once more before it bounds the search; null when it is not. */
    String again() {
        return again;
    }

    /** Whether the step just taken missed and is taken again before it bounds the search. */
    boolean retrying(double rate) {
        return next == rate;
    }

    /** A rate of three significant digits: the workload names stay readable. */
    static double round(double rate) {
        return new BigDecimal(rate).round(new MathContext(3)).doubleValue();
    }

    /** The search's outcome in a line: the capacity between the highest rate kept and the lowest missed. */
    String line(String target) {
        String head = String.format(
                Locale.ROOT,
                "%s: capacity at %s (searched, %d step%s%s): ",
                target,
                slo,
                steps,
                steps == 1 ? "" : "s",
                began);
        if (Double.isNaN(kept)) {
            return head + "below " + LoadSpec.rate(missed) + " (no rate tried kept it, down to " + LoadSpec.rate(missed)
                    + ")";
        }
        if (Double.isNaN(missed)) {
            return head + "at least " + LoadSpec.rate(kept)
                    + " (every rate tried kept it, up to the client's limit or the steps')";
        }
        return head
                + LoadSpec.rate(kept)
                + String.format(
                        Locale.ROOT,
                        " (kept; %s missed it: within %.0f%%)",
                        LoadSpec.rate(missed),
                        100 * (missed - kept) / kept)
                + connectionsBound();
    }

    /**
     * When every connection was busy at the missed rate while the service answered as fast as at the kept one (from its
     * send, p50 within {@link #SAME_SERVICE_TIME}): the search found the client's connections, perhaps not the
     * service's capacity; said, with what tells.
     */
    private String connectionsBound() {
        if (keptRun == null
                || missedRun == null
                || !missedRun.client().allConnectionsBusy()
                || missedRun.client().send().getTotalCount() == 0
                || keptRun.client().send().getTotalCount() == 0) {
            return "";
        }
        double at = missedRun.client().send().getValueAtPercentile(50);
        double before = keptRun.client().send().getValueAtPercentile(50);
        if (at > SAME_SERVICE_TIME * before) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "; every one of the client's %,d connections was busy at %s while the service answered as at %s (from"
                        + " its send p50 %s against %s): the connections, not the service, may be the limit; search"
                        + " again with more --connections to tell",
                missedRun.client().connections(),
                LoadSpec.rate(missed),
                LoadSpec.rate(kept),
                LatencyHistograms.ms(at),
                LatencyHistograms.ms(before));
    }

    /** The search cut short by a stop: what its steps had found so far. */
    String stoppedLine(String target) {
        return String.format(
                Locale.ROOT,
                "%s: capacity search at %s stopped after %d step%s: %s",
                target,
                slo,
                steps,
                steps == 1 ? "" : "s",
                Double.isNaN(kept) && Double.isNaN(missed)
                        ? "no rate judged yet"
                        : (Double.isNaN(kept) ? "none kept" : "kept at " + LoadSpec.rate(kept))
                                + (Double.isNaN(missed) ? "" : ", missed at " + LoadSpec.rate(missed)));
    }

    double capacity() {
        return kept;
    }

    /** {@code p99 21.3 ms (n=4,000)}: what decided a step, for its line. */
    String figure(LoadRun.Summary s) {
        return LatencyHistograms.describe(s.client().judged(), slo.quantile());
    }
}
