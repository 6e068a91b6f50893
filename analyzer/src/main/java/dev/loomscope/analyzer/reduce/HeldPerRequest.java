package dev.loomscope.analyzer.reduce;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The carrier time a request holds, from the agent's looks against the requests served around them (the agent's request
 * windows, {@link WorkReducer}), window by window, so that start-up, a warm-up backlog and idle minutes do not bias it.
 * The recording is cut into windows of whole seconds, an eighth of the looks' span, 1 s at the least and
 * {@link #LONGEST_WINDOW_SECONDS} at the most; a window with requests and looks gives the thread-seconds the looks
 * found there ({@link HeldMonitorReducer#windows}) and the requests that ended in it. A start-up or warm-up transient
 * at the front is cut off by MSER (White, 1997: the truncation point, among the first half of the windows, that
 * minimizes the squared standard error of the request-weighted mean of what is left; the ratio of each window is its
 * thread-seconds held a request), and only where what it leaves out lies outside the interval of what it keeps; the
 * time held a request is then the ratio of the windows' sums (a ratio estimator, weighted by requests), and its 95%
 * interval comes from the windows' residuals about it (the windows as the units, Student's t).
 */
public final class HeldPerRequest {
    /** The longest window, seconds. */
    public static final int LONGEST_WINDOW_SECONDS = 5;
    /** The windows a span is cut into, at the least before they grow to {@link #LONGEST_WINDOW_SECONDS}. */
    static final int WINDOWS = 8;
    /** The fewest windows kept for an estimate with an interval. */
    public static final int MIN_WINDOWS = 3;

    private HeldPerRequest() {}

    /**
     * The span the estimates are made over: from {@code fromNanos} to {@code toNanos} (epoch), its {@code windows}
     * windows with requests and looks and their {@code requests}; {@code leftOutSeconds} cut off at the front (with
     * what a request held there, ms, NaN when none was); {@code rate} the requests a second while the load ran: over
     * its windows but the first and the last, which the load may have filled in part.
     */
    public record Span(
            long fromNanos,
            long toNanos,
            int windows,
            int windowSeconds,
            long requests,
            double leftOutSeconds,
            double leftOutMs,
            double rate) {
        public double seconds() {
            return (toNanos - fromNanos) / 1e9;
        }
    }

    /** A time held a request, ms, with its 95% interval (NaN bounds when the windows cannot give one). */
    public record Estimate(double ms, double lowMs, double highMs) {}

    /**
     * The windows of {@code step} ns from the first look on: thread-seconds held at the sites taken, requests, looks.
     */
    private record Cut(long from, long step, double[] held, long[] requests, int[] looks) {}

    private static Cut cut(HeldMonitorReducer h, WorkReducer work, Predicate<HeldMonitorReducer.Site> which) {
        long[] range = h.lookRange();
        if (range == null) {
            return null;
        }
        long from = Math.floorDiv(range[0], 1_000_000_000L) * 1_000_000_000L;
        long step = Math.max(1, Math.min(LONGEST_WINDOW_SECONDS, (range[1] - range[0]) / 1_000_000_000L / WINDOWS))
                * 1_000_000_000L;
        int count = (int) (Math.floorDiv(range[1] - from, step) + 1);
        HeldMonitorReducer.Windows w = h.windows(which, from, step, count);
        long[] requests = new long[count];
        for (int k = 0; k < count; k++) {
            requests[k] = work.between(from + k * step, from + (k + 1) * step).count();
        }
        return new Cut(from, step, w.heldSeconds(), requests, w.looks());
    }

    /**
     * The span of steady requests in this recording, or null when it has fewer than {@link #MIN_WINDOWS} windows with
     * requests and looks after its transient is cut off.
     */
    public static Span span(HeldMonitorReducer h, WorkReducer work) {
        Cut c = cut(h, work, s -> true);
        if (c == null) {
            return null;
        }
        int[] used = used(c);
        if (used.length < MIN_WINDOWS) {
            return null;
        }
        int d = mser(c, used);
        if (used.length - d < MIN_WINDOWS) {
            return null;
        }
        if (d > 0) { // a cut only where what it leaves out differs: inside the rest's interval it is no transient
            Span kept = span(c, used, d, h);
            Estimate rest = estimate(c, kept);
            double leftOut = kept.leftOutMs();
            if (!Double.isNaN(rest.lowMs()) && leftOut >= rest.lowMs() && leftOut <= rest.highMs()) {
                d = 0;
            }
        }
        return span(c, used, d, h);
    }

    /**
     * The span of the windows {@code used} from the {@code d}th on; it ends at the last window's end or the last look,
     * whichever comes first.
     */
    private static Span span(Cut c, int[] used, int d, HeldMonitorReducer h) {
        long requests = 0;
        for (int i = d; i < used.length; i++) {
            requests += c.requests[used[i]];
        }
        double leftHeld = 0;
        long leftRequests = 0;
        for (int i = 0; i < d; i++) {
            leftHeld += c.held[used[i]];
            leftRequests += c.requests[used[i]];
        }
        long first = c.from + used[d] * c.step;
        long last = Math.min(c.from + (used[used.length - 1] + 1L) * c.step, h.lookRange()[1] + 1);
        long interior = 0;
        for (int i = d + 1; i < used.length - 1; i++) {
            interior += c.requests[used[i]];
        }
        double rate = used.length - d > 2
                ? interior / ((used.length - d - 2) * c.step / 1e9)
                : requests / ((last - first) / 1e9);
        return new Span(
                first,
                last,
                used.length - d,
                (int) (c.step / 1_000_000_000L),
                requests,
                (first - (c.from + used[0] * c.step)) / 1e9,
                leftRequests == 0 ? Double.NaN : 1000 * leftHeld / leftRequests,
                rate);
    }

    /** The time a request holds at the sites {@code which} takes, over {@code span}. */
    public static Estimate estimate(
            HeldMonitorReducer h, WorkReducer work, Predicate<HeldMonitorReducer.Site> which, Span span) {
        Cut c = cut(h, work, which);
        return c == null ? new Estimate(Double.NaN, Double.NaN, Double.NaN) : estimate(c, span);
    }

    private static Estimate estimate(Cut c, Span span) {
        List<Double> held = new ArrayList<>();
        List<Long> requests = new ArrayList<>();
        for (int k : used(c)) {
            long start = c.from + k * c.step;
            if (start >= span.fromNanos() && start < span.toNanos()) {
                held.add(c.held[k]);
                requests.add(c.requests[k]);
            }
        }
        return ratio(
                held.stream().mapToDouble(Double::doubleValue).toArray(),
                requests.stream().mapToLong(Long::longValue).toArray());
    }

    /**
     * The time a request holds at the sites {@code which} takes over the given windows ({@code windows[k]}: from and
     * to, epoch ns) that served {@code requests[k]}: a study's measured windows of one URL and rate.
     */
    public static Estimate over(
            HeldMonitorReducer h, Predicate<HeldMonitorReducer.Site> which, long[][] windows, long[] requests) {
        return ratio(h.windows(which, windows).heldSeconds(), requests);
    }

    /**
     * The ratio of the sums of {@code held} (thread-seconds) and {@code requests}, ms a request, with its interval from
     * the windows' residuals.
     */
    private static Estimate ratio(double[] held, long[] requests) {
        double sumH = 0;
        double sumR = 0;
        for (int k = 0; k < held.length; k++) {
            sumH += held[k];
            sumR += requests[k];
        }
        if (sumR == 0) {
            return new Estimate(Double.NaN, Double.NaN, Double.NaN);
        }
        double r = sumH / sumR;
        int n = held.length;
        if (n < 2) {
            return new Estimate(1000 * r, Double.NaN, Double.NaN);
        }
        double ss = 0;
        for (int k = 0; k < n; k++) {
            double e = held[k] - r * requests[k];
            ss += e * e;
        }
        double se = Math.sqrt(n / (n - 1.0) * ss) / sumR;
        double half = TDistribution.of(n - 1).inverseCumulativeProbability(0.975) * se;
        return new Estimate(1000 * r, 1000 * Math.max(0, r - half), 1000 * (r + half));
    }

    /** The windows with requests and looks, in order. */
    private static int[] used(Cut c) {
        return IntStream.range(0, c.requests.length)
                .filter(k -> c.requests[k] > 0 && c.looks[k] > 0)
                .toArray();
    }

    /**
     * MSER's truncation point among {@code used} (at most half of them): the d minimizing sum over i >= d of R_i (x_i -
     * m_d)^2 / (sum R_i)^2, where x_i is window i's held time a request, R_i its requests and m_d their
     * request-weighted mean.
     */
    static int mser(Cut c, int[] used) {
        int best = 0;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int d = 0; d <= used.length / 2; d++) {
            double sumH = 0;
            double sumR = 0;
            for (int i = d; i < used.length; i++) {
                sumH += c.held[used[i]];
                sumR += c.requests[used[i]];
            }
            double m = sumH / sumR;
            double ss = 0;
            for (int i = d; i < used.length; i++) {
                double x = c.held[used[i]] / c.requests[used[i]];
                ss += c.requests[used[i]] * (x - m) * (x - m);
            }
            double value = ss / (sumR * sumR);
            if (value < bestValue) {
                bestValue = value;
                best = d;
            }
        }
        return best;
    }
}
