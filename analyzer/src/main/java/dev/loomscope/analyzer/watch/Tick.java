package dev.loomscope.analyzer.watch;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.PinningReducer;
import dev.loomscope.recording.JdkEvents;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one refresh of {@code watch} shows, over {@code seconds} ending at {@code at}: the scheduler (JDK 24+; null
 * before), virtual threads started and ended (JFR's events; -1 when not streamed), pins by the frame that pinned,
 * submit failures, GC, heap, CPU, context switches, CPU samples and their spin share, and the agent's {@code work=}
 * calls. Counts are of the events that arrived in the interval; a figure the JVM cannot give is null and shown as n/a.
 * The {@code last} tick of a watch that kept its recording covers the rest of it, from the last interval's end to the
 * last event's.
 *
 * <p>Its figures are read from the interval's reductions ({@code events}: the reducers {@code pinning}, {@code gc} and
 * the agent's {@code work=} windows are reduced by) and from what was polled at the refresh (the scheduler, the heap);
 * {@code streamed} says which events the stream carried.
 */
record Tick(
        Instant at,
        double seconds,
        Scheduler scheduler,
        int parallelism,
        long heapUsed,
        long heapCommitted,
        Interval events,
        Streamed streamed,
        boolean last) {

    /**
     * Which events the stream carried: virtual threads' starts and ends (--thread-events), the agent's work= windows
     * (--agent).
     */
    record Streamed(boolean threadEvents, boolean work) {}

    /** Virtual threads started, and ended, in the interval; -1 when their events were not streamed. */
    long started() {
        return streamed.threadEvents() ? events.summary.count(JdkEvents.VIRTUAL_THREAD_START) : -1;
    }

    long ended() {
        return streamed.threadEvents() ? events.summary.count(JdkEvents.VIRTUAL_THREAD_END) : -1;
    }

    /** The JVM's CPU, a share of the machine: the mean of JFR's readings in the interval (one a second), or NaN. */
    double processCpu() {
        return events.summary.jvmCpu.mean();
    }

    /** The machine's CPU, as {@link #processCpu}. */
    double machineCpu() {
        return events.summary.machineCpu.mean();
    }

    /** The machine's context switches a second: the mean of JFR's readings in the interval, or NaN. */
    double contextSwitchRate() {
        return events.contextSwitches.machineRate.mean();
    }

    /** The most live Java threads JFR counted in the interval, or -1 when it counted none. */
    long platformThreads() {
        return events.summary.peakActiveThreads;
    }

    long pins() {
        return events.pins.all().count();
    }

    double pinnedMillis() {
        return events.pins.all().sum();
    }

    /** The frames that pinned most (by pinned time), at most three. */
    List<Pin> topPins() {
        List<Pin> top = new ArrayList<>();
        events.pins
                .groups()
                .forEach((frame, g) ->
                        top.add(new Pin(frame, g.millis.count(), g.millis.sum(), List.copyOf(g.reasons))));
        top.sort(Comparator.comparingDouble(Pin::millis).reversed());
        return List.copyOf(top.subList(0, Math.min(3, top.size())));
    }

    long gcs() {
        return events.gc.pauses().count();
    }

    double gcPauseMillis() {
        return events.gc.pauses().sum();
    }

    /** The work= calls that ended in the interval; -1 when the agent's windows were not streamed. */
    long workCalls() {
        return streamed.work() ? events.work.count() : -1;
    }

    double workP50() {
        return events.work.count() > 0 ? events.work.quantileMillis(0.5) : Double.NaN;
    }

    double workP99() {
        return events.work.count() > 0 ? events.work.quantileMillis(0.99) : Double.NaN;
    }

    /** Times of day as every line shows them. */
    static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** The virtual thread scheduler as its MXBean tells (JDK 24+). */
    record Scheduler(int parallelism, int poolSize, int mounted, long queued) {}

    /** Pins at one frame in the interval: how many, their time, the JDK 24+ reasons. */
    record Pin(String frame, int count, double millis, List<String> reasons) {}

    /** The share of the carriers' time spent pinned, over the interval (parallelism carriers). */
    double pinnedShare() {
        return PinningReducer.shareOfCarrierTime(pinnedMillis(), parallelism, seconds * 1000);
    }

    /** The share of the virtual threads' CPU samples in Thread.yield or Thread.onSpinWait. */
    double spinShare() {
        return events.cpu.spinShare();
    }

    /**
     * One line: each part says what it counts, per second where it is a rate. A line over more than one
     * {@code interval} (the watcher fell behind) says how long it covers.
     */
    String line(Duration interval) {
        List<String> parts = new ArrayList<>();
        String clock = CLOCK.format(LocalTime.ofInstant(at, ZoneId.systemDefault()));
        parts.add(
                last
                        ? String.format(
                                Locale.ROOT, "%s (the last %.1f s, to the end of the recording)", clock, seconds)
                        : seconds * 1e9 > interval.toNanos() * 1.5
                                ? String.format(Locale.ROOT, "%s (the last %.0f s: watch fell behind)", clock, seconds)
                                : clock);
        if (scheduler != null) {
            parts.add(String.format(
                    Locale.ROOT,
                    "carriers %d/%d mounted %d queued %,d",
                    scheduler.poolSize(),
                    scheduler.parallelism(),
                    scheduler.mounted(),
                    scheduler.queued()));
        } // else: the header said once what cannot be shown (the scheduler's MXBean needs JDK 24+)
        if (started() >= 0) {
            parts.add(String.format(Locale.ROOT, "vthreads +%,.0f/s -%,.0f/s", started() / seconds, ended() / seconds));
        }
        StringBuilder p = new StringBuilder(String.format(
                Locale.ROOT, "pins %,.1f/s pinned %s of carrier time", pins() / seconds, percent(pinnedShare())));
        List<Pin> topPins = topPins();
        if (!topPins.isEmpty()) {
            Pin top = topPins.get(0);
            p.append(String.format(
                    Locale.ROOT,
                    ", most at %s (%d, %.1f ms%s)",
                    top.frame(),
                    top.count(),
                    top.millis(),
                    top.reasons().isEmpty() ? "" : "; " + String.join(", ", top.reasons())));
        }
        parts.add(p.toString());
        if (events.pins.submitFailed() > 0) {
            parts.add("submit failed " + events.pins.submitFailed());
        }
        parts.add(String.format(
                Locale.ROOT,
                "gc %d pauses %.1f ms heap %s/%s MB",
                gcs(),
                gcPauseMillis(),
                mb(heapUsed),
                mb(heapCommitted)));
        parts.add("cpu process " + percent(processCpu()) + " machine " + percent(machineCpu()));
        parts.add(
                Double.isNaN(contextSwitchRate())
                        ? "machine ctxsw n/a"
                        : String.format(Locale.ROOT, "machine ctxsw %,.0f/s", contextSwitchRate()));
        if (events.cpu.spinSamples() > 0) {
            parts.add("spinning " + percent(spinShare()) + " of virtual threads' CPU samples");
        }
        if (workCalls() > 0) {
            parts.add(String.format(
                    Locale.ROOT,
                    "work %,.1f/s service time p50 %.2f ms p99 %.2f ms",
                    workCalls() / seconds,
                    workP50(),
                    workP99()));
        }
        return String.join(" | ", parts);
    }

    /**
     * The tick as one JSON object's fields, in the units their names say; a figure a file command shows too under the
     * name of its {@link Metric}'s column (as an export's), over the interval.
     */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "tick");
        m.put("time", at.toString());
        m.put("seconds", seconds);
        m.put("end_of_recording", last);
        m.put("parallelism", parallelism);
        m.put("pool_size", scheduler == null ? null : scheduler.poolSize());
        m.put("mounted", scheduler == null ? null : scheduler.mounted());
        m.put("queued", scheduler == null ? null : scheduler.queued());
        m.put(Metric.VIRTUAL_THREADS_STARTED.column(), started() < 0 ? null : started());
        m.put("virtual_threads_ended", ended() < 0 ? null : ended());
        m.put(Metric.PEAK_THREADS.column(), platformThreads());
        m.put(Metric.PINNED_COUNT.column(), pins());
        m.put(Metric.PINNED_TIME.column(), pinnedMillis());
        m.put("pinned_share", pinnedShare());
        List<Object> top = new ArrayList<>();
        for (Pin pin : topPins()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("frame", pin.frame());
            t.put("count", pin.count());
            t.put("ms", pin.millis());
            t.put("reasons", pin.reasons());
            top.add(t);
        }
        m.put("pins_by_frame", top);
        m.put("submit_failed", events.pins.submitFailed());
        m.put(Metric.GC_COUNT.column(), gcs());
        m.put(Metric.GC_PAUSE_TOTAL.column(), gcPauseMillis());
        m.put("heap_used_bytes", heapUsed < 0 ? null : heapUsed);
        m.put("heap_committed_bytes", heapCommitted < 0 ? null : heapCommitted);
        m.put(Metric.CPU_LOAD.column(), 100 * processCpu());
        m.put(Metric.MACHINE_CPU_LOAD.column(), 100 * machineCpu());
        m.put(Metric.MACHINE_CONTEXT_SWITCHES_PER_SECOND.column(), contextSwitchRate());
        m.put("cpu_samples", events.cpu.samples());
        m.put("virtual_thread_cpu_samples", events.cpu.virtualSamples());
        m.put("spin_samples", events.cpu.spinSamples());
        m.put("scheduler_cpu_samples", events.cpu.schedulerSamples());
        m.put("work_calls", workCalls() < 0 ? null : workCalls());
        m.put(Metric.SERVICE_TIME_P50.column(), workCalls() > 0 ? workP50() : null);
        m.put(Metric.SERVICE_TIME_P99.column(), workCalls() > 0 ? workP99() : null);
        return m;
    }

    static String percent(double share) {
        return Double.isNaN(share) || share < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    private static String mb(long bytes) {
        return bytes < 0 ? "n/a" : Long.toString(bytes >> 20);
    }
}
