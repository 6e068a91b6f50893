package dev.loomscope.agent;

import dev.loomscope.agent.log.AgentLog;
import dev.loomscope.agent.work.WorkFilter;
import dev.loomscope.agent.work.WorkTiming;
import dev.loomscope.events.ChunkEndEvent;
import dev.loomscope.events.ContextSwitchesEvent;
import dev.loomscope.events.RunInfoEvent;
import dev.loomscope.events.SchedulerSampleEvent;
import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.flamegraphs.profiler.ProfilerCommandException;
import dev.loomscope.flamegraphs.profiler.ProfilerLibrary;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.recording.Chunks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Locale;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * One recording of this JVM: started by the agent, finished once at exit (normal, System.exit, SIGTERM, an
 * OutOfMemoryError that ends the app), after {@code duration}, or on request.
 *
 * <p>JDK and loomscope events go to a JFR recording that the JVM's own shutdown hook writes at exit (dump on exit);
 * ours waits for it rather than racing it: stopping the recording from two hooks at once has JFR write the file twice
 * and lose it. async-profiler writes its samples to a file of its own. The two are joined into one .jfr (a recording is
 * a sequence of self-describing chunks). async-profiler's jfrsync, which would put both in one file directly, loses the
 * JDK events when the JVM's own shutdown hook closes its recording before ours stops the profiler: seen here in about
 * one run in three under load.
 */
final class Session {
    private final AgentOptions options;
    private final OutputFiles files;
    private final Path tmpJfr;
    private final Path tmpProfile; // async-profiler's samples, or null
    private final String mode;
    private final Recording recording;
    private final PinnedTracer tracer;
    private final Runnable ctxswHook;
    private final Runnable chunkEndHook;
    private final Runnable schedulerHook;
    private final Runnable windowsHook;
    private final HeldMonitors held;
    private final Path repository;
    private final DiskGuard guard;
    private boolean finished;
    private Path written;
    private Path writtenProfile; // async-profiler's samples beside it, or null

    private Session(
            AgentOptions options,
            OutputFiles files,
            Path tmpJfr,
            Path tmpProfile,
            String mode,
            Recording recording,
            PinnedTracer tracer,
            Runnable ctxswHook,
            Runnable chunkEndHook,
            Runnable schedulerHook,
            Runnable windowsHook,
            HeldMonitors held,
            Path repository,
            DiskGuard guard) {
        this.options = options;
        this.files = files;
        this.tmpJfr = tmpJfr;
        this.tmpProfile = tmpProfile;
        this.mode = mode;
        this.recording = recording;
        this.tracer = tracer;
        this.ctxswHook = ctxswHook;
        this.chunkEndHook = chunkEndHook;
        this.schedulerHook = schedulerHook;
        this.windowsHook = windowsHook;
        this.held = held;
        this.repository = repository;
        this.guard = guard;
    }

    /**
     * Less free than this where out= is: nothing is recorded (JFR shuts the JVM down when its repository's disk fills).
     */
    static final long MIN_FREE_BYTES = 64L << 20;
    /** Less free than this: JFR's disk repository is bounded by a third of the free space even without max-size. */
    static final long UNBOUNDED_FREE_BYTES = 16L << 30;

    static Session start(AgentOptions o) throws Exception {
        OutputFiles files;
        try {
            files = OutputFiles.create(o.out(), labelOf(o));
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot write to " + o.out().toAbsolutePath() + " (" + e.getMessage()
                            + "); nothing will be recorded: choose another directory with out=...",
                    e);
        }
        long free = Files.getFileStore(files.dir()).getUsableSpace();
        if (free < MIN_FREE_BYTES) {
            throw new IllegalStateException("only " + free / 1024 + " KB free where out= is ("
                    + files.dir().toAbsolutePath() + "); nothing will be recorded, so that JFR cannot fill the disk and"
                    + " stop the application: free at least "
                    + MIN_FREE_BYTES / (1 << 20)
                    + " MB or choose another directory with out=...");
        }
        Path repository = null;
        try {
            repository = PrivateRepository.use(files.dir());
        } catch (Exception e) {
            AgentLog.warn("JFR's disk repository stays in " + System.getProperty("java.io.tmpdir")
                    + ", readable by other users: " + e);
        }
        // JFR's repository is under out= unless it was left where it was (the temp directory): both disks watched from
        // before JFR starts
        DiskGuard guard;
        try {
            guard = repository != null
                    ? DiskGuard.hold(repository, files.dir())
                    : DiskGuard.hold(files.dir(), files.dir(), Path.of(System.getProperty("java.io.tmpdir")));
        } catch (IllegalStateException e) {
            PrivateRepository.removeIfEmpty(repository);
            throw e;
        }
        try {
            return start(o, files, repository, guard);
        } catch (Exception | Error e) {
            guard.close(); // no reserve left behind by a start that failed
            PrivateRepository.removeIfEmpty(repository);
            throw e;
        }
    }

    /**
     * The recording started, its disks watched by {@code guard}; {@link #start(AgentOptions)} cleans up when this
     * throws.
     */
    private static Session start(AgentOptions o, OutputFiles files, Path repository, DiskGuard guard) throws Exception {
        PinnedTracer tracer = o.string(AgentOptions.TRACE_PINNED).equals("off")
                ? null
                : new PinnedTracer(o.string(AgentOptions.TRACE_PINNED).equals("full"), Instant.now());
        Runnable counts = PeriodicEvents.contextSwitches();
        Runnable ctxsw = tracer == null
                ? counts
                : () -> {
                    counts.run();
                    tracer.look();
                };
        FlightRecorder.addPeriodicEvent(ContextSwitchesEvent.class, ctxsw);
        Runnable windows = WorkTiming.windows(o.work());
        if (windows != null) {
            FlightRecorder.addPeriodicEvent(WorkWindowEvent.class, windows);
        }
        // the counts since the last period, as the chunk ends: in the file even when JFR's shutdown hook stops the
        // recording before ours runs
        Runnable chunkEnd = () -> {
            counts.run();
            if (windows != null) {
                windows.run(); // the calls since the last window, in the chunk that ends
            }
        };
        FlightRecorder.addPeriodicEvent(ChunkEndEvent.class, chunkEnd);
        Libraries.hook();
        Runnable scheduler = PeriodicEvents.scheduler();
        if (scheduler != null) {
            FlightRecorder.addPeriodicEvent(SchedulerSampleEvent.class, scheduler);
        }
        // the looks see platform threads only: on a run labelled virtual they would cost and show nothing advise reads
        HeldMonitors held = o.duration(AgentOptions.HELD_MONITORS).isZero()
                        || o.string(AgentOptions.THREADS).equals("virtual")
                ? null
                : new HeldMonitors(
                        o.duration(AgentOptions.HELD_MONITORS).toMillis(),
                        WorkFilter.parse(o.work(), new ArrayList<>()));
        Path tmp = files.temporary(".jfr");
        Samplers samplers = Samplers.start(o, files);
        String mode = samplers.mode();
        String cpuSampler = samplers.cpuSampler();
        Path tmpProfile = samplers.tmpProfile();
        Recording recording = new Recording(RecordingSettings.build(o, cpuSampler));
        recording.setName(AgentOptions.RECORDING_NAME);
        recording.setToDisk(true);
        if (!o.duration(AgentOptions.MAX_AGE).isZero()) {
            recording.setMaxAge(o.duration(AgentOptions.MAX_AGE));
        }
        // the repository's chunks and the recording written from them at exit share the disk: each kept to a third of
        // what is free
        long free = Files.getFileStore(files.dir()).getUsableSpace(); // after the reserve
        long bound = free / 3;
        if (o.maxSizeBytes() > 0 || free < UNBOUNDED_FREE_BYTES) {
            recording.setMaxSize(o.maxSizeBytes() > 0 ? Math.min(o.maxSizeBytes(), bound) : bound);
        }
        recording.setDestination(tmp); // written at exit by whichever shutdown hook runs first: JFR's or ours
        recording.setDumpOnExit(true);
        Session s = new Session(
                o,
                files,
                tmp,
                tmpProfile,
                mode,
                recording,
                tracer,
                ctxsw,
                chunkEnd,
                scheduler,
                windows,
                held,
                repository,
                guard);
        guard.watch(s::lowDisk);
        synchronized (s) { // a disk that runs low while JFR starts stops the recording once it runs
            recording.start();
        }
        if (held != null) {
            held.start(); // after the recording's start, which its first look's events need
        }
        s.runInfo();
        StallWatch.start(s, o.duration(AgentOptions.STALL), files);
        return s;
    }

    private void runInfo() {
        RunInfoEvent e = new RunInfoEvent();
        e.label = label();
        e.threadKind = options.string(AgentOptions.THREADS);
        e.command = System.getProperty("sun.java.command", "");
        e.jdk = Runtime.version() + " (" + System.getProperty("java.vendor", "?") + ")";
        e.agentOptions = options.given();
        e.cpus = Runtime.getRuntime().availableProcessors();
        e.carriers = carriers(e.cpus);
        e.profilingMode = mode;
        String v = Session.class.getPackage().getImplementationVersion();
        e.agentVersion = v == null ? "dev" : v;
        e.commit();
    }

    String mode() {
        return mode;
    }

    /**
     * The scheduler's parallelism as the JDK sets it: the system property when it is a positive number, else the CPUs.
     * Parsed without throwing: an exception the agent throws is an event in the application's recording.
     */
    static int carriers(int cpus) {
        String p =
                System.getProperty("jdk.virtualThreadScheduler.parallelism", "").strip();
        if (p.isEmpty() || p.length() > 9 || !p.chars().allMatch(Character::isDigit)) {
            return cpus;
        }
        int n = Integer.parseInt(p);
        return n > 0 ? n : cpus;
    }

    AgentOptions options() {
        return options;
    }

    String label() {
        return labelOf(options);
    }

    /** The run's name: label= as given, else the main class or jar. */
    private static String labelOf(AgentOptions o) {
        return o.isSet(AgentOptions.LABEL) ? o.string(AgentOptions.LABEL) : mainName();
    }

    Path directory() {
        return files.dir();
    }

    /** JFR's owner-only disk repository of this recording, or null where it could not be made. */
    Path repository() {
        return repository;
    }

    synchronized boolean isFinished() {
        return finished;
    }

    /** What a stop or a snapshot wrote: the .jfr, and the flame graph beside it when drawn. */
    record Written(Path jfr, Path html) {
        @Override
        public String toString() {
            return jfr + (html == null ? "" : " and " + html);
        }
    }

    /** {@link #finish(boolean)}, also naming the flame graph. */
    synchronized Written finishAndReport(boolean atExit) {
        Path jfr = finish(atExit);
        return new Written(jfr, SessionFiles.flameOf(jfr));
    }

    /**
     * Writes what was recorded so far to a new file beside the final one ({@code -snapshot-HHmmss}) and records on: the
     * JDK events so far, and async-profiler's samples so far.
     */
    synchronized Written snapshot() throws Exception {
        if (finished) {
            throw new IllegalStateException("the recording has finished");
        }
        ctxswHook.run();
        Path tmp = files.temporary(".snapshot.jfr");
        Path profile = null;
        try {
            recording.dump(tmp);
            if (tmpProfile != null) {
                // async-profiler's dump finishes a chunk in its own file and starts the next: copy the whole chunks
                profile = files.temporary(".snapshot.profile.jfr");
                try {
                    ProfilerLibrary.load(null).execute("dump,jfr");
                    OutputFiles.copyRange(tmpProfile, 0, Chunks.wholeLength(tmpProfile), profile);
                } catch (ProfilerCommandException e) {
                    Files.deleteIfExists(profile);
                    profile = null;
                    AgentLog.warn("async-profiler: no samples in the snapshot: " + e.getMessage());
                }
            }
            String stamp = LocalTime.now().format(DateTimeFormatter.ofPattern("HHmmss"));
            Path jfr = files.publish(tmp, "-snapshot-" + stamp + ".jfr");
            tmp = null;
            if (profile != null) {
                SessionFiles.publishProfile(options, files, profile, jfr);
            }
            if (options.on(AgentOptions.FLAME)) {
                SessionFiles.writeFlame(mode, options, files, jfr);
            }
            return new Written(jfr, SessionFiles.flameOf(jfr));
        } finally {
            if (tmp != null) {
                Files.deleteIfExists(tmp);
                if (profile != null) {
                    Files.deleteIfExists(profile);
                }
            }
        }
    }

    /**
     * Stops and writes the files; runs once, whoever asks first. Returns the .jfr written, or null.
     *
     * @param atExit called from the shutdown hook: JFR's own hook is writing the recording
     */
    synchronized Path finish(boolean atExit) {
        return finish(atExit, false);
    }

    /**
     * A watched disk has less than {@link DiskGuard#STOP_FREE_BYTES} free (the reserve already given back): the
     * recording stops, and its chunks are moved out of JFR's repository rather than copied.
     */
    synchronized void lowDisk(long free) {
        if (finished) {
            return;
        }
        AgentLog.warn("only " + free / 1024 + " KB left where the recording goes (" + files.dir()
                + "): recording stopped so that JFR cannot fill the disk and stop the application; what it recorded"
                + " until now is kept");
        finish(false, true);
    }

    private Path finish(boolean atExit, boolean lowDisk) {
        if (finished) {
            return written;
        }
        finished = true;
        if (!lowDisk) {
            // the reserve's space, for what JFR writes as it stops (while the disk runs low, given back as it fills)
            guard.close();
        }
        if (tracer != null) {
            try {
                tracer.stop();
            } catch (RuntimeException ignored) {
                // the stream may already be closed by JFR's own shutdown
            }
        }
        // the counts since its last period come with the chunk's end (chunkEndHook)
        FlightRecorder.removePeriodicEvent(ctxswHook);
        if (schedulerHook != null) {
            FlightRecorder.removePeriodicEvent(schedulerHook);
        }
        if (windowsHook != null) {
            // the last window comes with the chunk's end (chunkEndHook)
            FlightRecorder.removePeriodicEvent(windowsHook);
        }
        if (held != null) {
            held.stop();
        }
        try {
            return write(atExit, lowDisk);
        } finally {
            guard.close();
            if (atExit) {
                PrivateRepository.removeIfEmpty(repository);
            } else {
                // attach's stop, duration=, a full disk: nothing of ours left under out= but recordings
                PrivateRepository.release(repository);
            }
        }
    }

    /** Stops what records and writes the files; returns the .jfr written, or null (said why). */
    private Path write(boolean atExit, boolean lowDisk) {
        try {
            if (tmpProfile != null) {
                try {
                    ProfilerLibrary.load(null).execute("stop"); // writes tmpProfile
                } catch (ProfilerCommandException notRunning) {
                    AgentLog.warn("async-profiler: " + notRunning.getMessage());
                }
            }
            if (atExit) {
                SessionFiles.awaitJfrDump(recording);
            }
            if (lowDisk && recording.getState() == RecordingState.RUNNING) {
                recording.setDestination(null); // no copy of the whole onto a full disk: the chunks are moved instead
                recording.stop();
                FlightRecorder.removePeriodicEvent(chunkEndHook);
                String lost = RepositoryChunks.moveInto(tmpJfr, recording);
                recording.close();
                guard.close();
                if (lost != null) {
                    AgentLog.warn(lost);
                }
            }
            if (recording.getState() == RecordingState.RUNNING) {
                recording.stop(); // writes tmpJfr
            }
            FlightRecorder.removePeriodicEvent(chunkEndHook);
            FlightRecorder.removePeriodicEvent(Libraries.EVENTS);
            if (!atExit && recording.getState() != RecordingState.CLOSED) {
                recording.close();
            }
            if (tracer != null) {
                printPinsLeft();
            }
            WorkTiming.reportMissing(options.work());
            SessionFiles.reportLateStart(recording, options);
            if (Files.size(tmpJfr) == 0) {
                Files.deleteIfExists(tmpJfr);
                if (tmpProfile != null) {
                    Files.deleteIfExists(tmpProfile);
                }
                AgentLog.warn("the recording is empty; nothing written");
                return null;
            }
            Chunks.Walk walk = Chunks.walk(tmpJfr);
            if (walk.end() != Chunks.End.WHOLE || walk.chunks().isEmpty()) {
                // never announced as written: kept under a name that says so, its whole chunks still readable
                Path kept = files.publish(tmpJfr, "-incomplete.jfr");
                if (tmpProfile != null) {
                    SessionFiles.publishProfile(options, files, tmpProfile, kept);
                }
                AgentLog.warn("the recording is not whole ("
                        + walk.end().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " at byte " + walk.at()
                        + ": was the disk full?); kept as " + kept + ", whose whole chunks the analyzer reads");
                return null;
            }
            written = files.publish(tmpJfr, ".jfr");
            writtenProfile =
                    tmpProfile == null ? null : SessionFiles.publishProfile(options, files, tmpProfile, written);
        } catch (Throwable t) {
            AgentLog.failure("could not write the recording " + tmpJfr, t);
            SessionFiles.deleteIfEmpty(tmpJfr);
            SessionFiles.deleteIfEmpty(tmpProfile);
            return null;
        }
        if (options.on(AgentOptions.FLAME) && !lowDisk) {
            SessionFiles.writeFlame(mode, options, files, written);
        }
        AgentLog.warn("recording written to " + written
                + (writtenProfile == null
                        ? ""
                        : " (async-profiler's samples beside it: " + writtenProfile.getFileName() + ")"));
        return written;
    }

    /** Set by premain with startup=before-main: the application's main waits for the recording. */
    static volatile boolean mainWaited;

    private void printPinsLeft() {
        try {
            tracer.printRest(tmpJfr, files);
            tracer.report(); // the repeats counted since the last summary
        } catch (Throwable t) {
            AgentLog.failure("the last pinned virtual threads were not traced (they are in the recording)", t);
        }
    }

    static String mainName() {
        String cmd = System.getProperty("sun.java.command", "").strip();
        if (cmd.isEmpty()) {
            return "java";
        }
        String first = cmd.split("\\s+")[0];
        if (first.endsWith(".jar")) {
            String name = Path.of(first).getFileName().toString();
            return name.substring(0, name.length() - 4);
        }
        int dot = first.lastIndexOf('.');
        return dot >= 0 && dot < first.length() - 1 ? first.substring(dot + 1) : first;
    }
}
