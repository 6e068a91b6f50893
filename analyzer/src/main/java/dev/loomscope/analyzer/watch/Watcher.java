package dev.loomscope.analyzer.watch;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.loomscope.analyzer.threads.ThreadDump;
import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JfrSettings;
import dev.loomscope.recording.Said;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.Attribute;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import jdk.jfr.consumer.EventStream;
import jdk.management.jfr.FlightRecorderMXBean;
import jdk.management.jfr.RecordingInfo;
import jdk.management.jfr.RemoteRecordingStream;

/**
 * A running JVM watched: a JFR stream over JMX ({@link RemoteRecordingStream}: the JVM records into its own repository,
 * the events are copied here) with the settings below, or the loomscope agent's recording read from its repository on
 * disk ({@link AgentRecording}); its MXBeans polled at every refresh. Closing it closes the JVM's recording (its
 * repository's chunks go with it, as JFR removes them); a watcher killed before it closes leaves a recording bounded to
 * the last {@link #MAX_AGE}, which the next {@code watch} of that JVM closes ({@link #closeOrphans}). The agent's
 * recording is only read: it runs on as it did.
 */
public final class Watcher implements AutoCloseable {
    /** A recording's name: its watcher's process id follows. */
    static final String NAME = "loomscope-watch-";
    /** What the JVM's recording keeps when nothing is to be kept (no --record): bounded if its watcher dies. */
    static final Duration MAX_AGE = Duration.ofSeconds(30);

    private static final Pattern ORPHAN = Pattern.compile(Pattern.quote(NAME) + "(\\d+)");

    /**
     * What to stream: pins from {@code pinnedThreshold}, CPU samples every {@code sampleInterval}; {@code record} keeps
     * it all. With {@code agent}, the loomscope agent's recording is read instead, with the agent's settings.
     */
    public record Settings(
            Duration interval,
            Duration pinnedThreshold,
            Duration sampleInterval,
            boolean threadEvents,
            Path record,
            boolean agent) {}

    /** The JFR events a refresh counts ({@link Interval#add}); a stream with handlers by name parses no others. */
    static final List<String> EVENTS = List.of(
            JdkEvents.VIRTUAL_THREAD_PINNED,
            JdkEvents.VIRTUAL_THREAD_SUBMIT_FAILED,
            JdkEvents.VIRTUAL_THREAD_START,
            JdkEvents.VIRTUAL_THREAD_END,
            JdkEvents.GARBAGE_COLLECTION,
            JdkEvents.THREAD_CONTEXT_SWITCH_RATE,
            JdkEvents.CPU_LOAD,
            JdkEvents.JAVA_THREAD_STATISTICS,
            JdkEvents.THREAD_CPU_LOAD,
            JdkEvents.EXECUTION_SAMPLE,
            JdkEvents.CPU_TIME_SAMPLE,
            WorkWindowEvent.NAME);

    /**
     * How long a stream may bring nothing (no flush) before the intervals that ended that long ago are shown without
     * it: a JVM stalled or gone, whose line then says so by its counts. JFR flushes about once a second, and its
     * periodic events (the context switch rate, the CPU load: every second in both recordings) carry the stream's time
     * past each interval's end.
     */
    static final Duration LATEST = Duration.ofMillis(2500);

    private final RunningJvm target;
    private final Settings settings;
    private final EventStream stream;
    /** The stream over JMX, which --record dumps; null when the agent's recording is read. */
    private final RemoteRecordingStream remote;
    /** What is streamed, as the header says it. */
    private final String streamed;

    private final Object lock = new Object();
    /** The intervals by index from {@link #origin}, by the events' end times; those before {@link #shown} are gone. */
    private final TreeMap<Long, Interval> intervals = new TreeMap<>();

    private long shown;
    /**
     * The latest end time of an event the stream delivered, and that time once the stream's flush delivering it
     * completed.
     */
    private Instant seen = Instant.MIN;

    private Instant passed = Instant.MIN;
    /**
     * When the last flush was handed on, and when this watcher was last found to have been stopped, on
     * {@link System#nanoTime}'s clock.
     */
    private long flushedNanos;

    private long resumedNanos;
    /**
     * The last interval due by the clock when this watcher was last found to have been stopped: shown with the ones
     * before it, as one.
     */
    private long behindTo = -1;

    private Instant origin;
    private long originNanos;
    private final int parallelism;
    private final int processors;
    private boolean closed;
    private final ObjectName scheduler;
    private boolean hasScheduler = true;
    /**
     * The thread dumps' lock owners: of a local JVM, the loomscope agent, where it runs in it, asked around each dump.
     */
    private final LockOwnerLooks owners;
    /**
     * Whether the loomscope agent's work= windows are streamed: the agent records them in the JVM (its recording's
     * settings say so), and every recording in a JVM, the watcher's own too, holds the events any one enables; or, an
     * agent attached after the watcher began, once its first window came. Read and set by the watcher's thread.
     */
    private boolean work;

    public Watcher(RunningJvm target, Settings settings) {
        this.target = target;
        this.settings = settings;
        MBeanServerConnection mbeans = target.mbeans();
        try {
            FlightRecorderMXBean jfr = ManagementFactory.newPlatformMXBeanProxy(
                    mbeans, "jdk.management.jfr:type=FlightRecorder", FlightRecorderMXBean.class);
            scheduler = new ObjectName("jdk.management:type=VirtualThreadScheduler");
            processors = ManagementFactory.newPlatformMXBeanProxy(
                            mbeans, ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME, OperatingSystemMXBean.class)
                    .getAvailableProcessors();
            parallelism = parallelism(target, processors);
            // a remote JVM's dumps are written on its machine: nothing to add to
            owners = new LockOwnerLooks(target, null, target.local());
            work = AgentRecording.running(jfr)
                    .map(r -> AgentRecording.windows(jfr.getRecordingSettings(r.getId())))
                    .orElse(false);
            if (settings.agent()) {
                AgentRecording a = AgentRecording.find(target, jfr);
                remote = null;
                stream = a.open();
                streamed = a.describe();
            } else {
                if (target.local()) {
                    closeOrphans(jfr);
                }
                remote = remote(mbeans, jfr, settings);
                stream = remote;
                streamed = "a recording of its own: pins from " + Watch.text(settings.pinnedThreshold())
                        + ", CPU samples every "
                        + Watch.text(settings.sampleInterval())
                        + (settings.threadEvents() ? ", virtual threads started and ended" : "")
                        + (AgentRecording.running(jfr).isPresent()
                                ? " (the loomscope agent records in it: --agent reads its recording instead)"
                                : "");
            }
        } catch (IOException | JMException | RuntimeException e) {
            if (e instanceof BadDataException || e instanceof UsageException) {
                throw (RuntimeException) e; // already said: no agent to read, a remote JVM
            }
            throw new BadDataException(target.name() + ": cannot start a JFR stream over JMX: " + Said.by(e)
                    + " (the JVM must have JFR, JDK 17 or later, and let its FlightRecorder MXBean be used)");
        }
        for (String name : EVENTS) {
            stream.onEvent(name, e -> {
                synchronized (lock) {
                    if (e.getEndTime().isAfter(seen)) {
                        seen = e.getEndTime();
                    }
                    long at = Duration.between(origin, e.getEndTime()).toNanos();
                    long index = Math.max(
                            shown,
                            // one that came late counts in the next shown
                            Math.floorDiv(at, settings.interval().toNanos()));
                    intervals.computeIfAbsent(index, i -> new Interval()).add(e);
                }
            });
        }
        stream.onFlush(() -> {
            synchronized (lock) {
                passed = seen; // a flush hands on every thread's events to its point: all that ended before it came
                flushedNanos = System.nanoTime();
            }
        });
        synchronized (lock) {
            origin = Instant.now();
            originNanos = System.nanoTime();
            flushedNanos = originNanos;
            resumedNanos = originNanos;
        }
        if (remote == null) {
            stream.setStartTime(origin); // a repository's stream would begin with its chunk's earlier events
        } // the watcher's own recording: every event in it is streamed, so that the lines add up to what --record keeps
        stream.startAsync();
    }

    /** A recording of the watcher's own in the JVM, streamed over JMX, with {@code settings}' events. */
    private static RemoteRecordingStream remote(
            MBeanServerConnection mbeans, FlightRecorderMXBean jfr, Settings settings) throws IOException {
        List<Long> before =
                jfr.getRecordings().stream().map(RecordingInfo::getId).toList();
        RemoteRecordingStream stream = new RemoteRecordingStream(mbeans);
        for (RecordingInfo r : jfr.getRecordings()) {
            if (!before.contains(r.getId())) {
                // bounded in the JVM too, should this watcher die before it closes it (the stream's own maximum age is
                // its copy's)
                jfr.setRecordingOptions(
                        r.getId(),
                        settings.record() == null
                                ? Map.of(
                                        "name",
                                        NAME + ProcessHandle.current().pid(),
                                        "maxAge",
                                        MAX_AGE.toSeconds() + " s")
                                : Map.of("name", NAME + ProcessHandle.current().pid()));
            }
        }
        // the agent's events alike (JfrSettings), a second apart where the agent's are
        JfrSettings s = JfrSettings.from(Map.of()).loom(settings.pinnedThreshold(), JfrSettings.EVERY_SECOND);
        if (settings.threadEvents()) {
            // an event a virtual thread: what a server that starts one a request pays most for (benchmarks.md)
            s.enable(JdkEvents.VIRTUAL_THREAD_START, false).enable(JdkEvents.VIRTUAL_THREAD_END, false);
        }
        // each platform thread's CPU a refresh: the carriers' tells blocked (native code) from computing
        s.period(
                JdkEvents.THREAD_CPU_LOAD,
                settings.interval().compareTo(JfrSettings.EVERY_SECOND) < 0
                        ? JfrSettings.EVERY_SECOND
                        : settings.interval());
        s.period(JdkEvents.EXECUTION_SAMPLE, settings.sampleInterval());
        s.period(WorkWindowEvent.NAME, JfrSettings.EVERY_SECOND); // the agent's work= windows, where the agent runs
        stream.setSettings(s.map());
        if (settings.record() == null) {
            stream.setMaxAge(MAX_AGE);
        }
        return stream;
    }

    /**
     * Recordings an earlier watcher left when it was killed: named for a process of this machine that no longer runs.
     */
    private static void closeOrphans(FlightRecorderMXBean jfr) {
        for (RecordingInfo r : jfr.getRecordings()) {
            Matcher m = ORPHAN.matcher(r.getName());
            if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                try {
                    jfr.closeRecording(r.getId());
                } catch (IOException closedMeanwhile) {
                    // its JVM closed it (it reached its maximum age) or another watch did
                }
            }
        }
    }

    /** The scheduler's parallelism: its system property when set, else the JVM's processors (the JDK's default). */
    private static int parallelism(RunningJvm target, int processors) throws IOException {
        String set = target.properties().get("jdk.virtualThreadScheduler.parallelism");
        if (set != null && set.strip().matches("\\d+")) {
            return Integer.parseInt(set.strip());
        }
        return processors;
    }

    /** The JVM's available processors: JFR gives a thread's CPU as a share of them all. */
    int processors() {
        return processors;
    }

    /** What is streamed: the watcher's own recording and its settings, or the agent's. */
    String streamed() {
        return streamed;
    }

    /** Whether the loomscope agent's work= windows are streamed: requests a second and service time on the lines. */
    boolean work() {
        return work;
    }

    /** When the first interval began, on {@link System#nanoTime}'s clock. */
    long originNanos() {
        return originNanos;
    }

    /** How many intervals have been shown. */
    long shown() {
        synchronized (lock) {
            return shown;
        }
    }

    /**
     * The last interval, up to index {@code last}, whose events have all come: the stream has passed its end, or it has
     * been silent for {@link #LATEST} (not counting while this watcher was stopped: the stream catches up then) and the
     * interval ended that long ago; below {@link #shown} when none is, or while the stream catches up on the intervals
     * that came due while this watcher was stopped (shown together once it has passed the last of them).
     */
    long ready(long last) {
        long every = settings.interval().toNanos();
        long now = System.nanoTime();
        synchronized (lock) {
            long byStream = passed.isBefore(origin)
                    ? -1
                    : Math.floorDiv(Duration.between(origin, passed).toNanos(), every) - 1;
            boolean silent = now - Math.max(flushedNanos, resumedNanos) > LATEST.toNanos();
            long byClock = silent ? Math.floorDiv(now - originNanos - LATEST.toNanos(), every) - 1 : -1;
            long ready = Math.min(last, Math.max(byStream, byClock));
            // the stream catches up a flush at a time: the intervals missed wait for the last of them, not shown one by
            // one
            return ready < Math.min(last, behindTo) ? shown - 1 : ready;
        }
    }

    /** This watcher was found to have been stopped (or starved of CPU) until now: its stream gets time to catch up. */
    void resumed() {
        synchronized (lock) {
            resumedNanos = System.nanoTime();
            behindTo = Math.floorDiv(
                            resumedNanos - originNanos, settings.interval().toNanos())
                    - 1;
        }
    }

    /**
     * The intervals from the next not shown to {@code upTo} (normally one; more after the watcher fell behind: stopped,
     * or starved of CPU) as one, its rates over their time, with the MXBeans' figures now; its events are {@code in}'s.
     * Throws {@link IOException} when the JVM is gone.
     */
    Tick tick(Interval[] in, long upTo) throws IOException {
        Instant now;
        long count;
        synchronized (lock) {
            long due = Math.max(shown, upTo);
            in[0] = take(due);
            count = due - shown + 1;
            now = origin.plus(settings.interval().multipliedBy(due + 1));
            shown = due + 1;
        }
        return tick(in[0], now, count * settings.interval().toNanos() / 1e9, false);
    }

    /** The intervals from the next not shown to {@code due} as one; under the lock. */
    private Interval take(long due) {
        Interval done = new Interval();
        for (long i = shown; i <= due; i++) {
            Interval part = intervals.remove(i);
            if (part != null) {
                done.absorb(part);
            }
        }
        return done;
    }

    /**
     * Stops the watcher's recording in the JVM and waits (at most {@code within}) until the stream has handed on every
     * event in it, so that {@link #rest} and the lines before it hold all that {@code --record} keeps; false when that
     * cannot be (the agent's recording, the JVM gone, too slow).
     */
    boolean drain(Duration within) {
        if (remote == null) {
            return false;
        }
        CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(() -> {
            try {
                return remote.stop();
            } catch (RuntimeException gone) {
                return false;
            }
        });
        try {
            return stopped.get(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * After {@link #drain}: every interval not yet shown, as one tick from the last shown interval's end to the last
     * event's.
     */
    Tick rest(Interval[] in) throws IOException {
        Instant from;
        Instant to;
        synchronized (lock) {
            from = origin.plus(settings.interval().multipliedBy(shown));
            to = seen.isAfter(from) ? seen : from;
            long due = intervals.isEmpty() ? shown : Math.max(shown, intervals.lastKey());
            in[0] = take(due);
            shown = due + 1;
        }
        return tick(
                in[0],
                to,
                Math.max(1e-3, Duration.between(from, to).toNanos() / 1e9),
                true); // never 0 s: its rates divide by it
    }

    /** The tick of {@code done}'s events over {@code seconds} ending {@code now}, with the MXBeans' figures now. */
    private Tick tick(Interval done, Instant now, double seconds, boolean last) throws IOException {
        work |= done.work.count() > 0 || done.work.undecodable() > 0; // the stream asks for the windows from the start
        MBeanServerConnection m = target.mbeans();
        Tick.Scheduler s = scheduler(m);
        long used = -1;
        long committed = -1;
        try {
            CompositeData heap = (CompositeData)
                    m.getAttribute(new ObjectName(ManagementFactory.MEMORY_MXBEAN_NAME), "HeapMemoryUsage");
            used = (Long) heap.get("used");
            committed = (Long) heap.get("committed");
        } catch (IOException gone) {
            throw gone;
        } catch (JMException | RuntimeException e) {
            // a figure this JVM does not give stays n/a
        }
        return new Tick(
                now,
                seconds,
                s,
                s != null ? s.parallelism() : parallelism,
                used,
                committed,
                done,
                new Tick.Streamed(settings.threadEvents(), work),
                last);
    }

    private Tick.Scheduler scheduler(MBeanServerConnection m) throws IOException {
        if (!hasScheduler) {
            return null;
        }
        try {
            // one call: each costs the JVM's connector a round trip
            List<Attribute> a = m.getAttributes(scheduler, new String[] {
                        "Parallelism", "PoolSize", "MountedVirtualThreadCount", "QueuedVirtualThreadCount"
                    })
                    .asList();
            if (a.size() < 4) {
                hasScheduler = false;
                return null;
            }
            return new Tick.Scheduler(
                    ((Number) a.get(0).getValue()).intValue(),
                    ((Number) a.get(1).getValue()).intValue(),
                    ((Number) a.get(2).getValue()).intValue(),
                    ((Number) a.get(3).getValue()).longValue());
        } catch (InstanceNotFoundException before24) {
            hasScheduler = false;
            return null;
        } catch (JMException | RuntimeException e) {
            hasScheduler = false;
            return null;
        }
    }

    /** Has the JVM write a JSON thread dump to {@code file} (a local JVM: it writes it); false when it cannot. */
    boolean writeDump(Path file) throws IOException {
        try {
            owners.dump(file, f -> target.dumpThreads(f, HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON));
            return true;
        } catch (RuntimeException e) {
            Files.deleteIfExists(file);
            return false; // a thread name JSON cannot hold (JDK 21-25), a JVM going away: no dump this time
        }
    }

    /** Who owns the java.util.concurrent locks in the thread dumps, as one phrase. */
    String lockOwners() {
        return target.feature() >= 26
                ? "recorded by the JVM's dumps"
                : "asked of the loomscope agent where it runs in the JVM, over JMX (JDK " + target.feature()
                        + " dumps do not record them)";
    }

    /** A JSON thread dump of the JVM, read and deleted; null when it cannot be taken or read. */
    ThreadDump dump(Path dir) throws IOException {
        Path f = dir.resolve("threads-" + target.pid() + "-" + System.nanoTime() + ".json");
        try {
            return writeDump(f) ? ThreadDump.read(f) : null;
        } catch (RuntimeException unreadable) {
            return null;
        } finally {
            Files.deleteIfExists(f);
        }
    }

    /** Closes the JVM's recording, first writing what it kept to the --record file when one was asked for. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (settings.record() != null) {
                remote.dump(settings.record());
            }
        } catch (IOException | RuntimeException e) {
            throw new BadDataException(settings.record().toAbsolutePath() + ": cannot write the recording: "
                    + Said.by(e) + " (check the directory and its space)");
        } finally {
            try {
                stream.close();
            } catch (RuntimeException gone) {
                // the JVM ended: its recording ended with it
            }
        }
    }
}
