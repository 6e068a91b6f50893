package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.analyzer.views.AdvisePrediction;
import dev.loomscope.load.ClientFigures;
import dev.loomscope.load.stats.Quantiles;
import dev.loomscope.options.Numbers;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * advise's prediction scored by what then happened, every study: the platform JVMs' recordings hold the agent's looks,
 * so advise predicts from each, over its measured windows of the URL and rate, the ceiling its sites put on the virtual
 * JVMs' carriers (on the sites of the JDK those ran: JEP 491's from 24 on), and the virtual JVMs' client figures at the
 * same URL and rate say what they served.
 */
final class AdviseScore {
    private AdviseScore() {}

    /**
     * The line for one URL and rate ({@code w}, offered at {@code rate} a second); null without JVMs of both kinds or a
     * rate.
     */
    static String line(String w, Map<String, List<RecordingFacts>> groups, double rate) {
        List<RecordingFacts> platform = groups.get("platform");
        List<RecordingFacts> virtual = groups.get("virtual");
        if (platform == null || virtual == null || Double.isNaN(rate)) {
            return null;
        }
        var carriers = ServiceCause.carriers(virtual);
        int feature =
                virtual.stream().mapToInt(f -> f.summary.jdkFeature()).max().orElse(0);
        boolean jep491 = feature >= 24;
        Set<String> kinds = jep491 ? AdvisePrediction.PIN_24 : AdvisePrediction.PIN_21;
        String jdks = jep491 ? "24 and later" : "21-23";
        List<RecordingFacts> looked =
                platform.stream().filter(f -> f.held.samples() > 0).toList();
        String head = w + ": advise, from the "
                + (looked.size() == 1 ? "platform JVM's recording" : looked.size() + " platform JVMs' recordings")
                + " (JDK " + jdks + " sites, " + carriers.count() + " carriers)";
        if (looked.isEmpty()) {
            // their threads queued behind a backlog: held at the looks for a queue's reasons, not a carrier's
            return w
                    + ": advise not scored: the platform JVMs' recordings hold none of the agent's looks"
                    + " (held-monitors=off)";
        }
        long behind = platform.stream()
                .map(f -> f.runs.client())
                .filter(c -> c != null && !c.keptUp())
                .count();
        if (2 * behind > platform.size()) {
            return String.format(
                    Locale.ROOT,
                    "%s: advise not scored at this rate: %d of %d platform JVMs did not keep up, so their looks found"
                            + " threads held behind a backlog, which no carrier ceiling predicts",
                    w,
                    behind,
                    platform.size());
        }
        List<AdvisePrediction.Prediction> predicted =
                looked.stream().map(f -> predict(f, kinds, carriers)).toList();
        double[] ceilings = predicted.stream()
                .mapToDouble(AdvisePrediction.Prediction::ceiling)
                .filter(c -> !Double.isNaN(c))
                .toArray();
        List<ClientFigures> served = virtual.stream()
                .map(f -> f.runs.client())
                .filter(Objects::nonNull)
                .toList();
        double throughput =
                median(served.stream().mapToDouble(ClientFigures::throughput).toArray());
        String virtualSaw = served.isEmpty()
                ? "the virtual JVMs have no client figures"
                : String.format(
                        Locale.ROOT,
                        "virtual threads served %s/s of %s/s offered (median of %d JVM%s)",
                        Numbers.plain(throughput),
                        Numbers.plain(rate),
                        served.size(),
                        served.size() == 1 ? "" : "s");
        if (ceilings.length == 0) {
            boolean nothing = predicted.stream().allMatch(p -> p.carriersHeld() == 0);
            return head + ": "
                    + (nothing
                            ? "nothing found that holds a carrier, so no ceiling"
                            : "carriers held "
                                    + Numbers.plain(median(predicted.stream()
                                            .mapToDouble(AdvisePrediction.Prediction::carriersHeld)
                                            .toArray()))
                                    + ", but no ceiling from them: no requests in their windows, or too few looks")
                    + "; "
                    + virtualSaw;
        }
        List<AdvisePrediction.Prediction> told =
                predicted.stream().filter(p -> !Double.isNaN(p.ceiling())).toList();
        double ceiling = median(ceilings);
        // an interval needs two windows or more: a JVM left with one (the others warm-up, or the client's own lag) has
        // its ceiling alone
        boolean bounded = told.stream().anyMatch(p -> !Double.isNaN(p.ceilingLow()) && !Double.isNaN(p.ceilingHigh()));
        // the JVMs' intervals together: from the lowest bound of any to the highest
        double low = Math.min(
                ceiling,
                told.stream()
                        .mapToDouble(AdvisePrediction.Prediction::ceilingLow)
                        .filter(c -> !Double.isNaN(c))
                        .min()
                        .orElse(ceiling));
        double high = Math.max(
                ceiling,
                told.stream()
                        .mapToDouble(AdvisePrediction.Prediction::ceilingHigh)
                        .filter(c -> !Double.isNaN(c))
                        .max()
                        .orElse(ceiling));
        String of = told.size() == 1
                ? ""
                : String.format(
                        Locale.ROOT,
                        " (the median of %d JVMs' ceilings, and the span of their 95%% intervals)",
                        told.size());
        String untold = told.size() == predicted.size()
                ? ""
                : String.format(
                        Locale.ROOT,
                        " (%d of %d JVMs gave none: no requests in their windows, or too few looks)",
                        predicted.size() - told.size(),
                        predicted.size());
        String interval = bounded
                ? "[" + Numbers.plain(low) + ", " + Numbers.plain(high) + "]"
                : "(no interval: one measured window a JVM)";
        StringBuilder b = new StringBuilder(String.format(
                Locale.ROOT,
                "%s: ceiling %s/s %s%s%s; %s",
                head,
                Numbers.plain(ceiling),
                interval,
                bounded ? of : "",
                untold,
                virtualSaw));
        if (!served.isEmpty()) {
            boolean keptUp = served.stream().filter(ClientFigures::keptUp).count() * 2 > served.size();
            if (keptUp) {
                b.append(
                        ceiling >= rate
                                ? ": consistent (they kept up below the ceiling; a rate above it would test it)"
                                : String.format(
                                        Locale.ROOT,
                                        ": MISSED, they kept up above the ceiling (%sx it)%s",
                                        Numbers.plain(throughput / ceiling),
                                        grown(virtual, carriers.count())));
            } else {
                b.append(String.format(
                        Locale.ROOT,
                        ": they did not keep up, so they served what they could: %sx the ceiling%s",
                        Numbers.plain(throughput / ceiling),
                        !bounded
                                ? ""
                                : throughput >= low && throughput <= high
                                        ? ", inside its interval"
                                        : ", OUTSIDE its interval"));
            }
        }
        return b.toString();
    }

    /** Why a ceiling on the scheduler's parallelism missed, when the virtual JVMs' pins held more carriers at once. */
    private static String grown(List<RecordingFacts> virtual, int carriers) {
        int pinned = ServiceCause.carriersPinned(virtual);
        return pinned <= carriers
                ? ""
                : String.format(
                        Locale.ROOT,
                        ": their pins held %d carriers together, past the %d advise counts: the scheduler added"
                                + " carriers, which no platform recording foretells",
                        pinned,
                        carriers);
    }

    /**
     * advise's prediction from one platform JVM over its measured windows of this URL and rate (the requests its client
     * saw answered in each), so that the other URLs' requests do not water down the time held; over its steady span of
     * requests where it has no windows.
     */
    private static AdvisePrediction.Prediction predict(
            RecordingFacts f, Set<String> kinds, SummaryReducer.Carriers carriers) {
        List<WorkloadRun> runs = f.runs.measured();
        if (runs.isEmpty()) {
            return AdvisePrediction.predict(f, kinds, carriers, AdvisePrediction.load(f, 0));
        }
        long[][] windows = runs.stream()
                .map(r -> new long[] {r.startNanos(), r.endNanos()})
                .toArray(long[][]::new);
        long[] requests = runs.stream().mapToLong(WorkloadRun::units).toArray();
        return AdvisePrediction.predictOver(f, kinds, carriers, windows, requests);
    }

    private static double median(double[] v) {
        return v.length == 0 ? Double.NaN : Quantiles.of(v, 0.5);
    }
}
