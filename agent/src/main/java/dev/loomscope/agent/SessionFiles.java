package dev.loomscope.agent;

import dev.loomscope.agent.log.AgentLog;
import dev.loomscope.flamegraphs.render.FlameOptions;
import dev.loomscope.flamegraphs.render.FlameRenderer;
import dev.loomscope.flamegraphs.render.NoSamplesException;
import dev.loomscope.flamegraphs.render.SampleKind;
import dev.loomscope.options.AgentOptions;
import dev.loomscope.recording.ProfileFile;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * What a {@link Session} does with its files as it stops: waits for JFR's own dump at exit, publishes async-profiler's
 * samples beside the recording, draws the flame graph, removes the temporary files nothing was written to, and says
 * when the recording began late.
 */
final class SessionFiles {
    private SessionFiles() {}

    static Path flameOf(Path jfr) {
        if (jfr == null) {
            return null;
        }
        Path html = OutputFiles.sibling(jfr, ".html");
        return Files.isRegularFile(html) ? html : null;
    }

    /**
     * A recording that began this long after the JVM started says so at exit: what the application did before is not in
     * it.
     */
    static final Duration LATE = Duration.ofMillis(500);

    /**
     * One line when the recording began late (startup=background, a busy machine, an attach): a short app's pins may
     * all lie before.
     */
    static void reportLateStart(Recording recording, AgentOptions options) {
        Instant began = recording.getStartTime();
        if (began == null || Session.mainWaited) {
            return; // startup=before-main: the application's main ran only once the recording did
        }
        Duration late = Duration.between(
                Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime()), began);
        if (late.compareTo(LATE) >= 0) {
            AgentLog.warn(String.format(
                    Locale.ROOT,
                    "the recording began %.2f s after the JVM started: what the application did before (pins at class"
                            + " loading and start-up, GCs) is not in it%s",
                    late.toMillis() / 1e3,
                    options.string(AgentOptions.STARTUP).equals("background")
                            ? "; startup=before-main records from the start"
                            : ""));
        }
    }

    /** A temporary file nothing was written to: never left behind. */
    static void deleteIfEmpty(Path f) {
        try {
            if (f != null && Files.isRegularFile(f) && Files.size(f) == 0) {
                Files.delete(f);
            }
        } catch (IOException ignored) {
            // gone already
        }
    }

    /** At exit JFR's shutdown hook stops the recording and writes it; give it time to finish. */
    static void awaitJfrDump(Recording recording) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long graceForNoHook = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < deadline) {
            RecordingState state = recording.getState();
            if (state == RecordingState.CLOSED) {
                return;
            }
            if (state == RecordingState.RUNNING && System.nanoTime() > graceForNoHook) {
                return; // no JFR hook took it: we stop it ourselves
            }
            Thread.sleep(20);
        }
    }

    /**
     * async-profiler's samples as a file of their own beside the recording ({@link ProfileFile}): appended to it, their
     * chunk would mislead the JDK's {@code jfr} tool. Returns the file, or null when the profiler wrote nothing.
     */
    static Path publishProfile(AgentOptions options, OutputFiles files, Path profile, Path jfr) throws IOException {
        try {
            if (!Files.isRegularFile(profile) || Files.size(profile) == 0) {
                AgentLog.warn("async-profiler wrote no samples");
                return null;
            }
            if (!options.on(AgentOptions.RECORD_ENV)) {
                SystemPropertyMask.mask(profile);
            }
            Path target = ProfileFile.of(jfr);
            files.publishAs(profile, target);
            return target;
        } finally {
            Files.deleteIfExists(profile);
        }
    }

    static void writeFlame(String mode, AgentOptions options, OutputFiles files, Path jfr) {
        SampleKind kind = mode.equals("async-profiler")
                ? SampleKind.valueOf(options.profile().get(0).toUpperCase(Locale.ROOT))
                : SampleKind.CPU;
        Path tmp = null;
        try {
            tmp = files.temporary(".html");
            Path profile = ProfileFile.beside(jfr);
            try (OutputStream out = Files.newOutputStream(tmp)) {
                FlameRenderer.render(
                        profile == null ? List.of(jfr) : List.of(jfr, profile),
                        FlameOptions.of(kind)
                                .withSplitKind(true)
                                .withTitle(jfr.getFileName() + " (" + kind.label() + ")"),
                        false,
                        out);
            }
            files.publishAs(tmp, OutputFiles.sibling(jfr, ".html"));
            tmp = null;
        } catch (NoSamplesException e) {
            // nothing was sampled (profile=off): no graph to draw
        } catch (Throwable t) {
            AgentLog.failure("no flame graph", t);
        } finally {
            if (tmp != null) {
                tmp.toFile().delete(); // ours only: other JVMs may be writing beside us
            }
        }
    }
}
