package dev.loomscope.analyzer.views;

import dev.loomscope.analyzer.reduce.HeldMonitorReducer;
import dev.loomscope.analyzer.reduce.HeldPerRequest;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.events.HeldMonitorEvent;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.Numbers;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What {@code advise} predicts, as typed values its tables ({@link AdviseView}), the study's score of it and any other
 * output render: the load a recording ran (its steady span of counted requests), the carriers, per JDK's sites the
 * carriers held, the time a request holds them and the ceiling that puts on the carriers with its interval, what the
 * looks tell of it, and the CPU's bound beside it.
 */
public final class AdvisePrediction {
    private AdvisePrediction() {}

    /** Kinds that hold a carrier on JDK 21-23. */
    public static final Set<String> PIN_21 = Set.of(
            HeldMonitorEvent.HOLDING, HeldMonitorEvent.ENTERING, HeldMonitorEvent.CLASS_INIT, HeldMonitorEvent.NATIVE);
    /** Kinds that hold a carrier on JDK 24+. */
    public static final Set<String> PIN_24 = Set.of(HeldMonitorEvent.CLASS_INIT, HeldMonitorEvent.NATIVE);

    /**
     * The load a prediction is for: requests a second, and where that figure came from; rate NaN when unknown;
     * {@code span} the steady span of counted requests the looks are judged over (null: the whole recording);
     * {@code requestThreadsOnly} when the looks tell the servers' request threads from the rest ({@link #counts});
     * {@code given} when the rate is the user's ({@code --rate}), which a request's share is taken at over the span
     * rather than the requests counted in it.
     */
    public record Load(double rate, String from, HeldPerRequest.Span span, boolean requestThreadsOnly, boolean given) {
        public Load(double rate, String from, HeldPerRequest.Span span, boolean requestThreadsOnly) {
            this(rate, from, span, requestThreadsOnly, false);
        }

        /**
         * Whether threads found at {@code s} count: with the servers' requests counted (the agent's default work=),
         * only those found inside a request; a server's poller or acceptor and the start-up's main thread stay platform
         * threads when the requests switch.
         */
        boolean counts(HeldMonitorReducer.Site s) {
            return !requestThreadsOnly || !s.work().isEmpty();
        }

        /** {@link HeldMonitorReducer#mean} over the span, of the sites that count. */
        HeldMonitorReducer.Mean mean(HeldMonitorReducer h, Predicate<HeldMonitorReducer.Site> which) {
            return spanMean(h, s -> which.test(s) && counts(s));
        }

        /** {@link HeldMonitorReducer#mean} over the span, whether the sites count or not. */
        HeldMonitorReducer.Mean spanMean(HeldMonitorReducer h, Predicate<HeldMonitorReducer.Site> which) {
            return span == null ? h.mean(which) : h.mean(which, span.fromNanos(), span.toNanos());
        }

        HeldMonitorReducer.Mean mean(HeldMonitorReducer h, Set<String> kinds) {
            return mean(h, site -> kinds.contains(site.what()));
        }

        /**
         * What {@code threads} held on average is a request, ms: at the given rate; else over the span, its requests
         * over its length (the span's edges included, as the looks' are).
         */
        double msPerRequest(double threads) {
            return span == null || given ? 1000 * threads / rate : 1000 * threads * span.seconds() / span.requests();
        }

        /** The looks over the span. */
        long looks(HeldMonitorReducer h) {
            return span == null ? h.samples() : h.samples(span.fromNanos(), span.toNanos());
        }
    }

    /**
     * The carriers virtual threads would have: {@code given} (above 0), else the recording's
     * ({@link SummaryReducer#carriers()}).
     */
    public static SummaryReducer.Carriers carriers(RecordingFacts f, int given) {
        if (given > 0) {
            return new SummaryReducer.Carriers(given, "--carriers");
        }
        SummaryReducer.Carriers c = f.summary.carriers();
        if (c == null) {
            throw new BadDataException(f.source.name()
                    + ": says nothing of its processors: give the carriers virtual threads would have (--carriers N)");
        }
        return c;
    }

    /**
     * The recording's load: {@code given} (above 0), over the steady span of the requests the agent counted (its work=
     * windows, the servers' requests by default; {@link HeldPerRequest}) where it has one, else over the whole
     * recording; without {@code given}, the requests counted a second over that span; else unknown (NaN), with too few
     * windows of them to tell a transient said so.
     */
    public static Load load(RecordingFacts f, double given) {
        boolean requestThreads = requestThreadsOnly(f);
        HeldPerRequest.Span span = HeldPerRequest.span(f.held, f.work);
        if (given > 0) {
            // the looks over the requests' span where the agent counted them: a cold start's transient is not the load
            // the rate was
            return span == null
                    ? new Load(given, "--rate, over the whole recording", null, requestThreads)
                    : new Load(
                            given,
                            "--rate, the looks over the requests counted " + spanWords(f, span),
                            span,
                            requestThreads,
                            true);
        }
        if (span != null) {
            return new Load(
                    span.rate(), "the requests counted a second over " + spanWords(f, span), span, requestThreads);
        }
        if (f.work.count() > 0) {
            return new Load(
                    Double.NaN,
                    "too few windows with requests and looks (" + HeldPerRequest.MIN_WINDOWS
                            + " at least) to tell a start-up transient from the load: record longer under load, or give"
                            + " --rate N (taken over the whole recording)",
                    null,
                    requestThreads);
        }
        return new Load(Double.NaN, null, null, false);
    }

    /** Where the steady span of counted requests lies in the recording, and what it left out. */
    private static String spanWords(RecordingFacts f, HeldPerRequest.Span span) {
        Instant first = f.summary.first();
        double start = first == null
                ? Double.NaN
                : (span.fromNanos() - (first.getEpochSecond() * 1_000_000_000L + first.getNano())) / 1e9;
        return String.format(
                Locale.ROOT,
                "%s s from %s s into the recording, in %d windows of %d s, the first and last left out%s",
                Numbers.plain(span.seconds()),
                Double.isNaN(start) ? "?" : Numbers.plain(Math.max(0, start)),
                span.windows(),
                span.windowSeconds(),
                span.leftOutSeconds() > 0
                        ? String.format(
                                Locale.ROOT,
                                "; the %s s of requests before left out as a transient (start-up or warm-up: %s ms held"
                                        + " a request there)",
                                Numbers.plain(span.leftOutSeconds()),
                                Numbers.plain(span.leftOutMs()))
                        : "");
    }

    /**
     * Whether the looks tell the servers' request threads from the rest ({@link Load#counts}): the agent counted the
     * servers' requests (its default work=) and found some threads inside one.
     */
    private static boolean requestThreadsOnly(RecordingFacts f) {
        return f.work.count() > 0
                && f.summary.agentOptions != null
                && AgentOptions.parse(null, f.summary.agentOptions).work().equals(AgentOptions.REQUESTS)
                && f.held.sites().keySet().stream().anyMatch(s -> !s.work().isEmpty());
    }

    /** What the looks tell of the threads found somewhere, against a tenth of the carriers ({@link #MATTERS}). */
    public enum Finding {
        /**
         * A tenth of the carriers or more on average, and found at enough looks that its 95% interval stays above none.
         */
        MATTERS,
        /**
         * Less than a tenth on average, at enough looks that none found would have ruled a tenth out
         * ({@link #looksToRuleOut}).
         */
        CLEAR,
        /** Too few looks to tell either. */
        UNSURE
    }

    /** What threads found at {@code m} a look come to ({@link Finding}), of {@code looks} looks. */
    static Finding finding(HeldMonitorReducer.Mean m, long looks, SummaryReducer.Carriers carriers) {
        double tenth = carriers.count() / MATTERS;
        if (m.mean() >= tenth) {
            return m.low() > 0 ? Finding.MATTERS : Finding.UNSURE;
        }
        return looks >= looksToRuleOut(carriers) ? Finding.CLEAR : Finding.UNSURE;
    }

    /**
     * The looks that, finding nothing at a site, rule out its holding a tenth of the carriers: with none in n looks,
     * the 95% upper bound of the share of looks that would find a thread there is 3 / n (the rule of three), below a
     * tenth of the carriers from 3 x {@link #MATTERS} / carriers.
     */
    static long looksToRuleOut(SummaryReducer.Carriers carriers) {
        return (long) Math.ceil(3 * MATTERS / carriers.count());
    }

    /**
     * Carriers held matter when they would cap virtual threads below this many times the recorded load (without a load:
     * when they hold a tenth of the carriers or more on average): a class initializer found once at start-up does not
     * decide a migration.
     */
    static final double MATTERS = 10;

    /**
     * What the looks found at the sites of {@code kinds} over the load's span, and the windows' own estimate of it a
     * request (null: no span).
     */
    private record Held(HeldMonitorReducer.Mean mean, long looks, HeldPerRequest.Estimate windows) {}

    private static Held held(RecordingFacts f, Set<String> kinds, Load load) {
        return new Held(
                load.mean(f.held, kinds),
                load.looks(f.held),
                load.span() == null || load.given() // the user's rate, not the requests counted
                        ? null
                        : HeldPerRequest.estimate(
                                f.held, f.work, s -> kinds.contains(s.what()) && load.counts(s), load.span()));
    }

    /**
     * What advise predicts from the sites of {@code kinds} (one JDK's): the carriers held (the looks' mean and its 95%
     * interval), the time a request holds them, ms, and the ceiling that puts on {@code carriers} with its 95% interval
     * (NaN without a load, or with nothing held), what the looks tell of it, and over how many looks.
     */
    public record Prediction(
            double carriersHeld,
            double heldLow,
            double heldHigh,
            double msPerRequest,
            double ceiling,
            double ceilingLow,
            double ceilingHigh,
            Finding finding,
            long looks) {}

    /**
     * {@link Prediction} of the recording {@code f} at {@code load} on {@code carriers}, from the sites of
     * {@code kinds}.
     */
    public static Prediction predict(RecordingFacts f, Set<String> kinds, SummaryReducer.Carriers carriers, Load load) {
        Held found = held(f, kinds, load);
        HeldMonitorReducer.Mean held = found.mean();
        double mean = held.mean();
        boolean rate = !Double.isNaN(load.rate());
        HeldPerRequest.Estimate windows = found.windows();
        // over a span of counted requests, the windows' ratio (thread-seconds held over requests served); else the
        // looks' mean over the rate
        double msPerRequest = windows != null && !Double.isNaN(windows.ms())
                ? windows.ms()
                : rate ? load.msPerRequest(mean) : Double.NaN;
        double ceiling = msPerRequest > 0 ? carriers.count() * 1000 / msPerRequest : Double.NaN;
        double ceilingLow = ceiling;
        double ceilingHigh = ceiling;
        if (msPerRequest > 0) { // the bounds from the carriers held, or the windows' own where wider
            double lowMs = msPerRequest * held.low() / mean; // the looks' interval, relative to their mean
            double highMs = msPerRequest * held.high() / mean;
            if (windows != null && !Double.isNaN(windows.lowMs())) {
                lowMs = Math.min(Math.min(lowMs, windows.lowMs()), msPerRequest);
                highMs = Math.max(Math.max(highMs, windows.highMs()), msPerRequest);
            }
            ceilingLow = highMs > 0 ? carriers.count() * 1000 / highMs : Double.NaN;
            ceilingHigh = lowMs > 0 ? carriers.count() * 1000 / lowMs : Double.NaN;
        }
        return new Prediction(
                mean,
                held.low(),
                held.high(),
                msPerRequest,
                ceiling,
                ceilingLow,
                ceilingHigh,
                finding(held, found.looks(), carriers),
                found.looks());
    }

    /**
     * {@link #predict} over given windows of the recording ({@code windows[k]}: from and to, epoch ns; a study's
     * measured windows of one URL and rate) that served {@code requests[k]}: the windows' ratio and its interval alone
     * (no finding: null; the carriers held, the mean over the windows, without an interval of its own).
     */
    public static Prediction predictOver(
            RecordingFacts f, Set<String> kinds, SummaryReducer.Carriers carriers, long[][] windows, long[] requests) {
        // the windows are given, so no span: only whether the looks tell request threads apart
        Load load = new Load(Double.NaN, null, null, requestThreadsOnly(f));
        Predicate<HeldMonitorReducer.Site> which = s -> kinds.contains(s.what()) && load.counts(s);
        HeldPerRequest.Estimate e = HeldPerRequest.over(f.held, which, windows, requests);
        double seconds = 0;
        for (long[] w : windows) {
            seconds += (w[1] - w[0]) / 1e9;
        }
        double held = seconds > 0 && !Double.isNaN(e.ms())
                ? e.ms() / 1000 * Arrays.stream(requests).sum() / seconds
                : Double.NaN;
        double ceiling = e.ms() > 0 ? carriers.count() * 1000 / e.ms() : Double.NaN;
        return new Prediction(
                held,
                Double.NaN,
                Double.NaN,
                e.ms(),
                ceiling,
                e.highMs() > 0 ? carriers.count() * 1000 / e.highMs() : Double.NaN,
                e.lowMs() > 0 ? carriers.count() * 1000 / e.lowMs() : Double.NaN,
                null,
                f.held.samples());
    }

    /**
     * What the CPU allows: the cores the JVM used over the load's span, the CPU a request, of which {@code compilerMs}
     * the JIT compilers' time in the same span (their time, at least their CPU: a young JVM still compiling spends CPU
     * a warm one does not), and the requests a second the hardware threads serve at most at the CPU a request less the
     * compilers'.
     */
    record CpuBound(
            double cores, int processors, int readings, double msPerRequest, double compilerMs, double ceiling) {
        /** The CPU a request less the compilers'. */
        double requestMs() {
            return msPerRequest - compilerMs;
        }
    }

    /**
     * {@link CpuBound} over the load's span; null without a span, CPU readings in it, or the machine's hardware
     * threads, or where the compilers' time leaves too little of the CPU to tell a request's (under a tenth of it).
     */
    static CpuBound cpuBound(RecordingFacts f, Load load) {
        HeldPerRequest.Span span = load.span();
        if (span == null || f.summary.hardwareThreads <= 0 || span.requests() == 0) {
            return null;
        }
        Samples shares = f.summary.jvmCpuInTime.between(span.fromNanos(), span.toNanos());
        if (shares.count() == 0) {
            return null;
        }
        int processors = (int) f.summary.hardwareThreads;
        double cores = shares.mean() * processors;
        double ms = load.msPerRequest(cores);
        double compilerMs = load.msPerRequest(f.summary
                        .compilerMillisInTime
                        .between(span.fromNanos(), span.toNanos())
                        .sum()
                / 1000
                / span.seconds());
        double requestMs = ms - compilerMs;
        return ms > 0 && requestMs >= ms / 10
                ? new CpuBound(cores, processors, shares.count(), ms, compilerMs, processors * 1000 / requestMs)
                : null;
    }
}
