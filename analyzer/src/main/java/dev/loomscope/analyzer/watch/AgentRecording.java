package dev.loomscope.analyzer.watch;

import dev.loomscope.events.WorkWindowEvent;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.options.BadDataException;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JfrSettings;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import jdk.jfr.consumer.EventStream;
import jdk.management.jfr.FlightRecorderMXBean;
import jdk.management.jfr.RecordingInfo;

/**
 * {@code watch --agent}: the loomscope agent's own recording in a local JVM, read as JFR writes it to the JVM's disk
 * repository ({@link EventStream#openRepository}) instead of a second recording streamed over JMX. The JVM records
 * nothing it did not record already; what the lines can show is what the agent's settings record (its pinned-threshold,
 * its CPU sampler: JFR's events stream, async-profiler's samples are written only when it ends).
 */
record AgentRecording(Path repository, Map<String, String> settings) {
    /** The JDK's system property naming the repository JFR writes its chunks to now. */
    static final String REPOSITORY_PROPERTY = "jdk.jfr.repository";
    /** How long a JVM whose agent says it is starting its recording is waited for. */
    static final Duration STARTING = Duration.ofSeconds(30);

    /**
     * The agent's running recording in {@code target} and where its chunks are; a one-line error when there is none to
     * read.
     */
    static AgentRecording find(RunningJvm target, FlightRecorderMXBean jfr) throws IOException {
        if (!target.local()) {
            throw new UsageException("--agent reads the agent's recording from the JVM's disk: watch " + target.name()
                    + " by its process id on its machine, or without --agent");
        }
        RuntimeMXBean runtime = ManagementFactory.newPlatformMXBeanProxy(
                target.mbeans(), ManagementFactory.RUNTIME_MXBEAN_NAME, RuntimeMXBean.class);
        // fetched afresh, not RunningJvm.properties(): the agent's state changes while it starts, and JFR names its
        // repository then
        Optional<RecordingInfo> agent = running(jfr);
        long deadline = System.nanoTime() + STARTING.toNanos();
        while (agent.isEmpty()
                && AgentOptions.STARTING.equals(runtime.getSystemProperties().get(AgentOptions.STATE_PROPERTY))
                && System.nanoTime() < deadline) {
            sleep(); // an application just started: the agent's recording starts beside it (startup=background)
            agent = running(jfr);
        }
        if (agent.isEmpty()) {
            throw new BadDataException(target.name() + ": no loomscope agent records in it (start the application with"
                    + " -javaagent:loomscope-agent.jar or 'loomscope attach " + target.pid()
                    + " start', or watch it without --agent)");
        }
        String where = runtime.getSystemProperties().get(REPOSITORY_PROPERTY);
        if (where == null || where.isBlank()) {
            throw new BadDataException(target.name() + ": its JFR repository is not named (" + REPOSITORY_PROPERTY
                    + " is unset), so the agent's recording cannot be read (watch it without --agent)");
        }
        Path repository = target.here(where);
        if (!Files.isDirectory(repository) || !Files.isReadable(repository) || !Files.isExecutable(repository)) {
            throw new BadDataException(repository + ": the agent's JFR repository cannot be read by this user (watch "
                    + target.name() + " as the user that runs it, or without --agent)");
        }
        return new AgentRecording(
                repository, jfr.getRecordingSettings(agent.get().getId()));
    }

    private static void sleep() throws IOException {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the agent's recording started");
        }
    }

    /** The agent's recording, when one runs. */
    static Optional<RecordingInfo> running(FlightRecorderMXBean jfr) {
        return jfr.getRecordings().stream()
                .filter(r -> r.getName().equals(AgentOptions.RECORDING_NAME)
                        && r.getState().equals("RUNNING"))
                .findFirst();
    }

    EventStream open() throws IOException {
        return EventStream.openRepository(repository);
    }

    /** The CPU sampler JFR streams in the agent's recording, or null: async-profiler samples (or nothing does). */
    String sampler() {
        for (String event : new String[] {JdkEvents.EXECUTION_SAMPLE, JdkEvents.CPU_TIME_SAMPLE}) {
            if (JfrSettings.enabled(settings, event)) {
                return event;
            }
        }
        return null;
    }

    /** What the lines read, as the header says it. */
    String describe() {
        String pinned = Objects.requireNonNullElse(
                JfrSettings.value(settings, JdkEvents.VIRTUAL_THREAD_PINNED, "threshold"), "?");
        String sampler = sampler();
        String samples = sampler == null
                ? "no CPU samples streamed (the agent samples with async-profiler, whose samples are written when it"
                        + " ends; engine=jfr streams them): no spinning figures and no yield-spin alarm"
                : "CPU samples by " + sampler
                        + (sampler.equals(JdkEvents.EXECUTION_SAMPLE)
                                ? " every "
                                        + Objects.requireNonNullElse(
                                                JfrSettings.value(settings, sampler, "period"), "?")
                                : "");
        return "the loomscope agent's recording, read from " + repository + ": pins from " + pinned + ", " + samples
                + (windows(settings) ? ", work= windows" : "");
    }

    /** Whether a recording with these settings records the agent's work= windows. */
    static boolean windows(Map<String, String> settings) {
        return JfrSettings.enabled(settings, WorkWindowEvent.NAME);
    }
}
