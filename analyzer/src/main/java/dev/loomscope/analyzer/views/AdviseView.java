package dev.loomscope.analyzer.views;

import static dev.loomscope.analyzer.views.AdvisePrediction.PIN_21;
import static dev.loomscope.analyzer.views.AdvisePrediction.PIN_24;
import static dev.loomscope.analyzer.views.AdvisePrediction.cpuBound;
import static dev.loomscope.analyzer.views.AdvisePrediction.finding;
import static dev.loomscope.analyzer.views.AdvisePrediction.looksToRuleOut;
import static dev.loomscope.analyzer.views.AdvisePrediction.predict;

import dev.loomscope.analyzer.compare.Metric;
import dev.loomscope.analyzer.reduce.HeldMonitorReducer;
import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.Samples;
import dev.loomscope.analyzer.reduce.SummaryReducer;
import dev.loomscope.analyzer.render.Table;
import dev.loomscope.analyzer.views.AdvisePrediction.CpuBound;
import dev.loomscope.analyzer.views.AdvisePrediction.Finding;
import dev.loomscope.analyzer.views.AdvisePrediction.Load;
import dev.loomscope.analyzer.views.AdvisePrediction.Prediction;
import dev.loomscope.events.HeldMonitorEvent;
import dev.loomscope.events.HeldMonitorSampleEvent;
import dev.loomscope.options.Numbers;
import dev.loomscope.recording.JdkEvents;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code advise}: what virtual threads would do to an application recorded on platform threads. The agent looked at the
 * platform threads every {@code held-monitors=} period; a thread found blocking where a virtual thread would hold its
 * carrier (holding a monitor, entering one, under a class initializer, in the application's native code) stands for
 * that period of carrier time. The mean number found per look is the carriers such threads would hold at the
 * recording's load; with the load's requests a second, the carrier time a request holds, and the ceiling it puts on the
 * scheduler's carriers: carriers / (held time a request). JDK 21-23 pin in all those places; JDK 24+ (JEP 491) only
 * under class initializers and in native code.
 */
public final class AdviseView {
    /** Sites shown; the rest are counted in a note. */
    static final int SITES = 20;

    private AdviseView() {}

    /**
     * Whether {@code f} holds the agent's looks at its platform threads and says how many processors it had: what the
     * registry's advise view (the report's section) shows, without the options of the command.
     */
    public static boolean looked(RecordingFacts f) {
        return f.held.samples() > 0 && f.summary.carriers() != null;
    }

    /**
     * The tables of each recording, the carriers and the requests a second as given (0: the recording's own,
     * {@link AdvisePrediction#carriers} and {@link AdvisePrediction#load}), each table prefixed with its recording's
     * name when there are several.
     */
    public static List<Table> of(List<RecordingFacts> facts, int carriers, double rate, int stackDepth) {
        List<Table> tables = new ArrayList<>();
        for (RecordingFacts f : facts) {
            List<Table> one = of(f, AdvisePrediction.carriers(f, carriers), AdvisePrediction.load(f, rate), stackDepth);
            String prefix = facts.size() == 1 ? "" : f.source.shortName() + ": ";
            one.forEach(t -> tables.add(prefix.isEmpty() ? t : t.prefixed(prefix, false)));
        }
        return tables;
    }

    /**
     * The tables: where virtual threads would hold a carrier, by site; what that does to the carriers on each JDK; the
     * bottom line in a note.
     */
    public static List<Table> of(RecordingFacts f, SummaryReducer.Carriers carriers, Load load, int stackDepth) {
        HeldMonitorReducer h = f.held;
        List<Table> tables = new ArrayList<>();
        if (h.samples() == 0) {
            tables.add(jdkEvents(f, h));
        } else {
            tables.add(sites(h, carriers, load, stackDepth));
            tables.add(ceilings(f, h, carriers, load));
        }
        List<LibraryHazard.Found> hazards = LibraryHazard.of(f.summary.libraries);
        if (!hazards.isEmpty()) {
            tables.add(libraries(hazards));
        }
        tables.add(savings(f, load));
        return tables;
    }

    /**
     * The known hazards of the libraries the application loaded ({@link LibraryHazard}): said whatever the recorded
     * load showed.
     */
    private static Table libraries(List<LibraryHazard.Found> hazards) {
        Table t = new Table(
                "advise-libraries",
                "Libraries loaded with a known hazard for virtual threads (the agent saw them load; the load recorded"
                        + " need not show it)",
                List.of(
                        Table.text("library"),
                        Table.text("version"),
                        Table.text("hazard"),
                        Table.text("on JDK"),
                        Table.text("fixed in"),
                        Table.text("source")));
        for (LibraryHazard.Found found : hazards) {
            LibraryHazard h = found.hazard();
            t.row(
                    h.library.title,
                    found.versionTold() ? found.version() : "not told (a shaded or unpacked jar)",
                    h.what,
                    h.endsOnJdk24 ? "21-23" : "every JDK",
                    h.fixedIn,
                    h.source);
        }
        return t;
    }

    /**
     * A recording without the agent's looks ({@code -XX:StartFlightRecording}, JMC, the agent with
     * {@code held-monitors=off}): what the JDK's own monitor events show, and what it lacks.
     */
    private static Table jdkEvents(RecordingFacts f, HeldMonitorReducer h) {
        Table t = new Table(
                "advise-jdk-events",
                "What the JDK's own monitor events show (this recording has no loomscope looks)",
                List.of(
                        Table.text("what"),
                        Table.text("site"),
                        Table.number("events", "", 0),
                        Table.number("time", "ms", 1),
                        Table.number("threads", "mean over the recording", 3),
                        Table.text("pins on JDK")));
        double seconds = f.summary.spanSeconds();
        List<Map.Entry<HeldMonitorReducer.JdkSite, HeldMonitorReducer.JdkFound>> all =
                new ArrayList<>(h.jdkSites().entrySet());
        all.sort(Comparator.comparingLong((Map.Entry<HeldMonitorReducer.JdkSite, HeldMonitorReducer.JdkFound> e) ->
                        e.getValue().nanos())
                .reversed());
        for (var e : all.subList(0, Math.min(SITES, all.size()))) {
            boolean enter = e.getKey().event().equals(JdkEvents.JAVA_MONITOR_ENTER);
            t.row(
                    enter ? HeldMonitorEvent.ENTERING : HeldMonitorEvent.OBJECT_WAIT,
                    e.getKey().site(),
                    e.getValue().events(),
                    e.getValue().nanos() / 1e6,
                    seconds > 0 ? e.getValue().nanos() / 1e9 / seconds : null,
                    jdks(enter ? HeldMonitorEvent.ENTERING : HeldMonitorEvent.OBJECT_WAIT));
        }
        if (all.isEmpty()) {
            t.note("no jdk.JavaMonitorEnter or jdk.JavaMonitorWait event at an application frame: no contended monitor"
                    + " or Object.wait over the JDK's thresholds (20 ms in its default settings)");
        }
        HeldMonitorReducer.JdkFound own = h.jdkOwn();
        if (own.events() > 0) {
            t.note(String.format(
                    Locale.ROOT,
                    "left out: %,d events (%,.1f ms) whose stack is the JDK's code alone (its own threads, such as"
                            + " Common-Cleaner, or idle pool threads): no request runs there, so no virtual thread"
                            + " would",
                    own.events(),
                    own.nanos() / 1e6));
        }
        t.note("what this recording lacks: the loomscope agent's looks at the platform threads"
                + " (loomscope.HeldMonitorSample): a thread that blocks while holding a monitor, under a class"
                + " initializer or in native code leaves no JDK event, so no carrier ceiling is predicted; record the"
                + " application on platform threads with the agent (-javaagent:loomscope-agent.jar, held-monitors=100ms"
                + " by default)");
        t.note("the JDK records these events from a threshold (20 ms in its default settings, 10 ms in its profile"
                + " settings): shorter waits are not here, so the time is a lower bound");
        return t;
    }

    private static boolean matters(
            HeldMonitorReducer h, Set<String> kinds, SummaryReducer.Carriers carriers, Load load) {
        return finding(load.mean(h, kinds), load.looks(h), carriers) == Finding.MATTERS;
    }

    /** What the matters column says of a site outside every request ({@link Load#counts}). */
    static final String OUTSIDE = "no: outside every request";

    private static Table sites(HeldMonitorReducer h, SummaryReducer.Carriers carriers, Load load, int stackDepth) {
        Table t = new Table(
                "advise-sites",
                "Where a virtual thread would hold its carrier (platform threads found so, " + h.samples()
                        + " looks, about every " + h.intervalMillis() + " ms)",
                List.of(
                        Table.text("what"),
                        Table.text("site"),
                        Table.text("held at"),
                        Table.text("monitor"),
                        Table.text("blocked in"),
                        Table.text("pool"),
                        Table.text("work"),
                        Table.number("threads", "mean a look", 2),
                        Table.number("held", "ms a request", 2),
                        Table.text("pins on JDK"),
                        Table.text("matters"),
                        Table.text("stack")));
        List<Map.Entry<HeldMonitorReducer.Site, HeldMonitorReducer.Found>> all =
                new ArrayList<>(h.sites().entrySet());
        all.sort(Comparator.comparingLong((Map.Entry<HeldMonitorReducer.Site, HeldMonitorReducer.Found> e) ->
                        e.getValue().threads())
                .reversed());
        for (var e : all.subList(0, Math.min(SITES, all.size()))) {
            HeldMonitorReducer.Site s = e.getKey();
            HeldMonitorReducer.Mean found = load.spanMean(h, s::equals);
            double mean = found.mean();
            String stack = String.join(
                    " <- ", e.getValue().stack().lines().limit(stackDepth).toList());
            t.row(
                    s.what(),
                    s.site(),
                    blank(s.heldAt()),
                    blank(s.monitorClass()),
                    s.blockedIn(),
                    s.group(),
                    blank(s.work()),
                    mean,
                    Double.isNaN(load.rate()) ? null : load.msPerRequest(mean),
                    jdks(s.what()),
                    !load.counts(s)
                            ? OUTSIDE
                            : switch (finding(found, load.looks(h), carriers)) {
                                case MATTERS -> "yes";
                                case CLEAR -> "no";
                                case UNSURE -> "too few looks to tell";
                            },
                    stack);
        }
        if (all.size() > SITES) {
            t.note((all.size() - SITES) + " more sites, each found less often than those shown");
        }
        long outside = all.stream().filter(e -> !load.counts(e.getKey())).count();
        if (outside > 0) {
            t.note(outside + " site" + (outside == 1 ? "" : "s")
                    + " found outside every request the servers' entries counted (" + OUTSIDE + "): a server's own"
                    + " threads (a poller, an acceptor) and the start-up's, which a switch to virtual threads for"
                    + " requests leaves as platform threads; left out of the carriers held");
        }
        if (all.isEmpty()) {
            t.note("no platform thread was found where a virtual thread would hold its carrier in " + h.samples()
                    + " looks");
        }
        t.note("matters: found at a tenth of the " + carriers.count()
                + " carriers or more on average, at enough looks that the 95% interval of that mean stays above none (a"
                + " site found now and then, a class initialized once at start-up, does not decide a migration)");
        t.note("threads: the mean found at a look, which is the carriers they would hold at the recording's load; held:"
                + " that time over the requests"
                + (Double.isNaN(load.rate())
                        ? load.from() != null
                                ? " (no ceiling: " + load.from() + ")"
                                : " (give the recording's requests a second, --rate N, or record with work=)"
                        : " at " + Numbers.plain(load.rate()) + "/s (" + load.from() + ")"));
        return t;
    }

    private static String blank(String s) {
        return s.isEmpty() ? null : s;
    }

    /** The JDKs on which a virtual thread pins in that kind of place. */
    static String jdks(String what) {
        return switch (what) {
            case HeldMonitorEvent.CLASS_INIT, HeldMonitorEvent.NATIVE -> "21 and later";
            case HeldMonitorEvent.OBJECT_WAIT -> "21-23 (the scheduler adds a carrier while it waits)";
            case HeldMonitorEvent.SPINS ->
                "none, a risk on every JDK: it keeps a carrier busy while others may wait for one";
            case HeldMonitorEvent.BURST ->
                "none, a risk on every JDK: a virtual thread holds its carrier for the whole burst";
            case HeldMonitorEvent.POOL -> "none: the next ceiling on every JDK, the pool's";
            default -> "21-23 (not 24+, JEP 491)";
        };
    }

    private static Table ceilings(RecordingFacts f, HeldMonitorReducer h, SummaryReducer.Carriers carriers, Load load) {
        Table t = new Table(
                "advise-carriers",
                "What the carriers could serve (" + carriers.count() + " carriers: " + carriers.from() + ")",
                List.of(
                        Table.text("JDK"),
                        Table.number("carriers held", "mean", 2),
                        Table.number("carriers held low", "95% CI", 2),
                        Table.number("carriers held high", "95% CI", 2),
                        Table.number("held", "ms a request", 2),
                        Table.number("ceiling", "requests/s", 0),
                        Table.number("ceiling low", "requests/s", 0),
                        Table.number("ceiling high", "requests/s", 0),
                        Table.text("at the recorded load")));
        CpuBound cpu = cpuBound(f, load);
        Judged jdk21 = row(t, "21-23", predict(f, PIN_21, carriers, load), carriers, load, cpu);
        Judged jdk24 = row(t, "24 and later", predict(f, PIN_24, carriers, load), carriers, load, cpu);
        if (cpu != null) {
            t.note(String.format(
                    Locale.ROOT,
                    "the CPU: the JVM used %s of its %d hardware threads over the same requests (jdk.CPULoad, %d"
                            + " readings): %s ms of CPU a request%s, so they serve at most %s/s at this CPU a request,"
                            + " whatever the carriers (on platform threads; virtual threads may spend less a request on"
                            + " thread switches and starts)",
                    Numbers.plain(cpu.cores()),
                    cpu.processors(),
                    cpu.readings(),
                    Numbers.plain(cpu.msPerRequest()),
                    cpu.compilerMs() > 0
                            ? ", of which the JIT compilers took up to " + Numbers.plain(cpu.compilerMs())
                                    + " ms (jdk.CompilerStatistics: their time, left out as a warm JVM does not spend"
                                    + " it)"
                            : "",
                    Numbers.plain(cpu.ceiling())));
        }
        double waits = load.mean(h, Set.of(HeldMonitorEvent.OBJECT_WAIT)).mean();
        if (waits > 0) {
            t.note(String.format(
                    Locale.ROOT,
                    "on 21-23 %s threads on average wait in Object.wait: the scheduler adds a carrier for each while it"
                            + " waits (up to 256), so they hold carriers without capping them",
                    Numbers.plain(waits)));
        }
        double spins = load.mean(h, Set.of(HeldMonitorEvent.SPINS)).mean();
        if (spins > 0) {
            t.note(String.format(
                    Locale.ROOT,
                    "%s threads on average spin in Thread.yield or onSpinWait: on virtual threads each keeps a carrier"
                            + " busy while it spins, and with the carriers all spinning the threads they wait for"
                            + " cannot run (loomscope watch and threads tell carrier starvation)",
                    Numbers.plain(spins)));
        }
        double bursts = load.mean(h, Set.of(HeldMonitorEvent.BURST)).mean();
        if (bursts > 0) {
            t.note(String.format(
                    Locale.ROOT,
                    "%s threads on average ran the application's code from one look to the next (%d ms or more) without"
                            + " blocking: on virtual threads each holds a carrier that long, and requests behind it"
                            + " wait (the scheduler does not preempt)",
                    Numbers.plain(bursts),
                    h.intervalMillis() / 2));
        }
        double pools = load.mean(h, Set.of(HeldMonitorEvent.POOL)).mean();
        if (pools > 0) {
            t.note(String.format(
                    Locale.ROOT,
                    "%s threads on average wait for a pool or semaphore%s: not a pin, the next ceiling: with the"
                            + " server's thread cap gone, every request waits there at once, so size the pool or bound"
                            + " the requests before switching",
                    Numbers.plain(pools),
                    Double.isNaN(load.rate())
                            ? ""
                            : " (" + Numbers.plain(1000 * pools / load.rate()) + " ms a request)"));
        }
        Samples looks = h.lookMillis();
        Samples walks = h.walkMillis();
        if (looks.count() > 1 && h.lookSpanSeconds() > 0 && walks.count() == looks.count()) {
            t.note(String.format(
                    Locale.ROOT,
                    "the looks' own cost: no thread stopped but the one whose stack was walked, for the walk alone (the"
                            + " longest call, which bounds it, p50 %s ms, p99 %s ms a look; up to %d platform threads);"
                            + " the looks' thread ran %.2f%% of the time from the first look to the last",
                    Numbers.plain(walks.quantile(0.5)),
                    Numbers.plain(walks.quantile(0.99)),
                    h.platformThreads(),
                    looks.sum() / 10 / h.lookSpanSeconds()));
        } else if (looks.count() > 1 && h.lookSpanSeconds() > 0) {
            t.note(String.format(
                    Locale.ROOT,
                    "the looks' own cost: p50 %s ms, p99 %s ms each, every thread stopped (a thread dump with monitors;"
                            + " up to %d platform threads), %.2f%% of the time from the first look to the last",
                    Numbers.plain(looks.quantile(0.5)),
                    Numbers.plain(looks.quantile(0.99)),
                    h.platformThreads(),
                    looks.sum() / 10 / h.lookSpanSeconds()));
        }
        t.note("carriers held: the threads found at a look, mean of " + load.looks(h) + " looks"
                + (load.span() == null ? "" : " over the steady requests")
                + " each weighted by the time since the one before, with its 95% interval; ceiling: carriers / held"
                + " time a request, on the carriers held alone (a request's own CPU time is on a carrier too)"
                + (load.span() == null
                        ? ""
                        : "; held: the thread-seconds the looks found"
                                + " over the requests served, " + load.span().windowSeconds()
                                + " s window by window, the ceiling's interval the wider of the looks' and the windows'"
                                + " own"));
        t.note("bottom line: " + bottomLine(jdk21, jdk24, load.looks(h), carriers)
                + (cpu == null
                        ? ""
                        : String.format(
                                Locale.ROOT, "; the CPU serves at most about %s/s", Numbers.plain(cpu.ceiling())))
                + risks(f, h, carriers, load));
        if ("virtual".equals(f.summary.threadKind)) {
            t.note("this recording ran virtual threads, which the looks do not see: loomscope pinning shows their pins"
                    + " as they happened");
        }
        return t;
    }

    /**
     * One JDK's prediction: the words of the bottom line, and what the looks tell of what it found
     * ({@link AdvisePrediction#MATTERS}).
     */
    record Judged(String words, Finding finding, String held) {
        boolean matters() {
            return finding == Finding.MATTERS;
        }
    }

    /**
     * What the recording shows virtual threads could take away: the platform threads started (a thread a request is
     * what virtual threads make cheap), the peak of live threads (each a stack the OS keeps), the process's context
     * switches; over the recording, and a request where the load is known. What they would be on virtual threads is not
     * predicted: study --app measures it.
     */
    private static Table savings(RecordingFacts f, Load load) {
        Table t = new Table(
                "advise-savings",
                "What virtual threads could take away (this recording's own figures, platform threads)",
                List.of(
                        Table.text("figure"),
                        Table.number("a second", "", 1),
                        Table.number("a request", "", 3),
                        Table.text("on virtual threads")));
        double seconds = f.summary.spanSeconds();
        boolean rate = !Double.isNaN(load.rate());
        Double started = Metric.PLATFORM_THREADS_STARTED.valueOfRecording(f);
        if (started != null && seconds > 0) {
            t.row(
                    Metric.PLATFORM_THREADS_STARTED.name(),
                    started / seconds,
                    rate ? started / seconds / load.rate() : null,
                    "a virtual thread a request costs a small object, not an OS thread");
        }
        Double peak = Metric.PEAK_THREADS.valueOfRecording(f);
        if (peak != null && peak > 0) {
            long threads = peak.longValue();
            t.row(
                    Metric.PEAK_THREADS.name() + " (live at once: not a rate)",
                    null,
                    null,
                    threads + " at once: each an OS thread and its stack; requests on virtual threads leave the"
                            + " carriers and the server's own threads");
            if (f.summary.threadStackBytes > 0) {
                t.row(
                        "their stacks' reservation at the peak (MB, not a rate)",
                        null,
                        null,
                        String.format(
                                Locale.ROOT,
                                "%s MB: %d threads x %d KB (ThreadStackSize), of which the OS commits what each stack"
                                        + " touched; a parked virtual thread keeps only its frames, on the heap",
                                Numbers.plain(threads * f.summary.threadStackBytes / 1048576.0),
                                threads,
                                f.summary.threadStackBytes / 1024));
            }
        }
        Double switches = Metric.CONTEXT_SWITCHES_PER_SECOND.valueOfRecording(f);
        if (switches != null) {
            t.row(
                    Metric.CONTEXT_SWITCHES_PER_SECOND.name() + " (the process's)",
                    switches,
                    rate ? switches / load.rate() : null,
                    "a virtual thread that blocks unmounts without one; the carriers switch only when they run out of"
                            + " work");
        }
        if (t.rows().isEmpty()) {
            t.note("the recording has none of these figures (the agent records them)");
        }
        t.note("over the recording's " + Numbers.plain(seconds) + " s"
                + (rate ? "; a request: at " + Numbers.plain(load.rate()) + "/s" : ""));
        return t;
    }

    /** One JDK's row. */
    private static Judged row(
            Table t, String jdk, Prediction p, SummaryReducer.Carriers carriers, Load load, CpuBound cpu) {
        double mean = p.carriersHeld();
        boolean rate = !Double.isNaN(load.rate());
        String carriersHeld =
                String.format(Locale.ROOT, "%s: %s of %d carriers held", jdk, Numbers.plain(mean), carriers.count());
        if (mean == 0) {
            String said = "nothing found that holds a carrier";
            t.row(jdk, 0.0, 0.0, 0.0, rate ? 0.0 : null, null, null, null, said);
            return new Judged(jdk + ": " + said, p.finding(), carriersHeld);
        }
        if (!rate) {
            String said = String.format(
                    Locale.ROOT,
                    "%s of %d carriers held%s",
                    Numbers.plain(mean),
                    carriers.count(),
                    mean >= carriers.count() ? ": all of them, virtual threads would stall at this load" : "");
            t.row(jdk, mean, p.heldLow(), p.heldHigh(), null, null, null, null, said);
            return new Judged(jdk + ": " + said, p.finding(), carriersHeld);
        }
        double ceiling = p.ceiling();
        String said = ceiling < load.rate()
                ? String.format(
                        Locale.ROOT,
                        "caps virtual threads below it: at most %s/s of %s/s",
                        Numbers.plain(ceiling),
                        Numbers.plain(load.rate()))
                : String.format(
                                Locale.ROOT,
                                "room for %sx it (at most %s/s)",
                                Numbers.plain(ceiling / load.rate()),
                                Numbers.plain(ceiling))
                        + (cpu != null && cpu.ceiling() < ceiling
                                ? String.format(
                                        Locale.ROOT,
                                        "; the CPU binds first, at about %s/s",
                                        Numbers.plain(cpu.ceiling()))
                                : "");
        t.row(
                jdk,
                mean,
                p.heldLow(),
                p.heldHigh(),
                p.msPerRequest(),
                ceiling,
                Double.isNaN(p.ceilingLow()) ? null : p.ceilingLow(),
                Double.isNaN(p.ceilingHigh()) ? null : p.ceilingHigh(),
                said);
        return new Judged(
                jdk + ": "
                        + String.format(
                                Locale.ROOT,
                                "%s ms held a request, %d carriers serve at most %s/s",
                                Numbers.plain(p.msPerRequest()),
                                carriers.count(),
                                Numbers.plain(ceiling))
                        + (cpu != null && cpu.ceiling() < ceiling
                                ? String.format(
                                        Locale.ROOT,
                                        ", though the CPU binds first, at about %s/s (%s ms of CPU a request)",
                                        Numbers.plain(cpu.ceiling()),
                                        Numbers.plain(cpu.requestMs()))
                                : ""),
                p.finding(),
                carriersHeld);
    }

    /**
     * The risks besides the pins that matter ({@link #matters}) and the loaded libraries' known hazards, as the bottom
     * line's last words; empty when none.
     */
    private static String risks(RecordingFacts f, HeldMonitorReducer h, SummaryReducer.Carriers carriers, Load load) {
        List<String> risks = new ArrayList<>(LibraryHazard.of(f.summary.libraries).stream()
                .map(LibraryHazard.Found::line)
                .toList());
        if (matters(h, Set.of(HeldMonitorEvent.POOL), carriers, load)) {
            risks.add("a pool or semaphore the requests wait for caps them next");
        }
        if (matters(h, Set.of(HeldMonitorEvent.SPINS), carriers, load)) {
            risks.add("threads spinning in Thread.yield or onSpinWait would keep carriers busy");
        }
        if (matters(h, Set.of(HeldMonitorEvent.BURST), carriers, load)) {
            risks.add("long runs on the CPU would hold carriers from other requests");
        }
        return risks.isEmpty() ? "" : "; and mind: " + String.join("; ", risks);
    }

    private static String bottomLine(Judged jdk21, Judged jdk24, long looks, SummaryReducer.Carriers carriers) {
        if (!jdk21.matters()
                && !jdk24.matters()
                && (jdk21.finding() == Finding.UNSURE || jdk24.finding() == Finding.UNSURE)) {
            String why = looks < looksToRuleOut(carriers)
                    ? String.format(
                            Locale.ROOT,
                            "too few looks to tell: %d looks, where telling a tenth of the %d carriers held from none"
                                    + " takes at least %d (the looks keep to %s%% of a CPU, so a JVM with many busy"
                                    + " threads or a busy machine is looked at less often)",
                            looks,
                            carriers.count(),
                            looksToRuleOut(carriers),
                            Numbers.plain(100 * HeldMonitorSampleEvent.BUDGET))
                    : String.format(
                            Locale.ROOT,
                            "not told yet: in %d looks the threads held came in too few of them for the 95%% interval"
                                    + " of their mean to stay above none (held in bursts, not throughout)",
                            looks);
            return why + ": record longer under steady load; so far (no ceiling from so few) " + jdk21.held();
        }
        if (!jdk21.matters() && !jdk24.matters()) {
            return "switch: nothing the looks found would hold the carriers to speak of on any JDK (" + jdk21.words()
                    + ")";
        }
        if (!jdk24.matters()) {
            return "switch on JDK 24 or later, where none of these sites holds a carrier to speak of; on 21-23 fix them"
                    + " first ("
                    + jdk21.words() + ")";
        }
        return "fix these sites first: they hold carriers on every JDK (" + jdk24.words() + "; " + jdk21.words() + ")";
    }
}
