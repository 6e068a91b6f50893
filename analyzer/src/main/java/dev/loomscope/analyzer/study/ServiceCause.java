package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.BottomLine;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.load.LoadSpec;
import dev.loomscope.load.stats.Quantiles;
import dev.loomscope.options.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The measured cause behind a service's virtual-thread verdict where one can be computed: pinning. A request that pins
 * its carrier for t ms lets the scheduler's C carriers serve at most C x 1000 / t requests a second while pinned;
 * offered more, requests queue for a carrier and the client's latency grows without bound. The pins and their time come
 * from the recording's events inside the measured windows, the requests from the load client's.
 */
final class ServiceCause {
    /** Pins a request below which pinning is not named as a cause. */
    static final double PINS_PER_REQUEST = 0.01;

    private ServiceCause() {}

    /**
     * The ceiling pins put on the carriers: pins and pinned ms a request (medians of {@code jvms} JVMs), and the
     * requests/s it allows.
     */
    record Ceiling(
            double pinsPerRequest,
            double msPerRequest,
            int jvms,
            int carriers,
            String carriersFrom,
            double ceiling,
            double rate)
            implements BottomLine.Computed {
        boolean limits() {
            return ceiling < rate;
        }

        @Override
        public String words() {
            return String.format(
                    Locale.ROOT,
                    "%s ms pinned (%d carriers serve at most %s/s of %s)",
                    Numbers.plain(msPerRequest),
                    carriers,
                    Numbers.plain(ceiling),
                    LoadSpec.rate(rate));
        }
    }

    /** The ceiling for one workload run at {@code rate} on {@code carriers}; null without pins to speak of. */
    static Ceiling ceiling(double rate, List<RecordingFacts> virtual, int carriers, String carriersFrom) {
        List<Double> pins = new ArrayList<>();
        List<Double> pinnedMs = new ArrayList<>();
        for (RecordingFacts f : virtual) {
            long requests =
                    f.runs.measured().stream().mapToLong(WorkloadRun::units).sum();
            if (requests > 0) {
                var in = f.pinsInMeasuredRuns();
                pins.add(in.count() / (double) requests);
                pinnedMs.add(in.sum() / requests);
            }
        }
        if (pins.isEmpty()) {
            return null;
        }
        double perRequest =
                Quantiles.of(pins.stream().mapToDouble(Double::doubleValue).toArray(), 0.5);
        double msPerRequest =
                Quantiles.of(pinnedMs.stream().mapToDouble(Double::doubleValue).toArray(), 0.5);
        if (perRequest < PINS_PER_REQUEST || msPerRequest <= 0) {
            return null;
        }
        int pinned = carriersPinned(virtual);
        int used = Math.max(carriers, pinned);
        String from = pinned <= carriers
                ? carriersFrom
                : String.format(
                        Locale.ROOT,
                        "held by pins together for a hundredth of the measured windows or more, past the scheduler's"
                                + " parallelism of %d (%s): it added carriers, as JDK 21-23 do while a virtual thread"
                                + " blocks where the scheduler compensates, a selector or file I/O",
                        carriers,
                        carriersFrom);
        return new Ceiling(perRequest, msPerRequest, pins.size(), used, from, used * 1000 / msPerRequest, rate);
    }

    /** The most carriers the virtual-thread JVMs' pins held together in their measured windows. */
    static int carriersPinned(List<RecordingFacts> virtual) {
        return virtual == null
                ? 0
                : virtual.stream()
                        .mapToInt(RecordingFacts::carriersPinned)
                        .max()
                        .orElse(0);
    }

    /** The line for one workload ({@code GET /legacy at 300/s}) and its ceiling. */
    static String line(String workload, Ceiling c) {
        return String.format(
                Locale.ROOT,
                "%s: why, on virtual threads: %s pin%s a request holding the carrier %s ms in all (%s, in the measured"
                        + " windows); %d carriers (%s) then serve at most %s requests/s, %s the %s offered%s",
                workload,
                Numbers.plain(c.pinsPerRequest()),
                Numbers.plain(c.pinsPerRequest()).equals("1") ? "" : "s",
                Numbers.plain(c.msPerRequest()),
                c.jvms() == 1 ? "its one JVM" : "median of " + c.jvms() + " JVMs",
                c.carriers(),
                c.carriersFrom(),
                Numbers.plain(c.ceiling()),
                c.limits() ? "below" : "above",
                LoadSpec.rate(c.rate()),
                c.limits()
                        ? ": requests queue for a carrier, and their latency grows while the load lasts (see 'loomscope"
                                + " pinning' on the recordings for the frames)"
                        : ": pinning does not limit this rate");
    }

    /**
     * The carriers the virtual-thread JVMs had, from their recordings
     * ({@link dev.loomscope.analyzer.reduce.SummaryReducer#carriers()}: the scheduler's parallelism the agent saw);
     * this machine's cores when none says.
     */
    static SummaryReducer.Carriers carriers(List<RecordingFacts> virtual) {
        for (RecordingFacts f : virtual == null ? List.<RecordingFacts>of() : virtual) {
            var c = f.summary.carriers();
            if (c != null) {
                return c;
            }
        }
        return new SummaryReducer.Carriers(
                Runtime.getRuntime().availableProcessors(), "this machine's cores, the scheduler's default");
    }
}
