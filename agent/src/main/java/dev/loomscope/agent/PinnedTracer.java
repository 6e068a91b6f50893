package dev.loomscope.agent;

import dev.loomscope.recording.Chunks;
import dev.loomscope.recording.JdkFrames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;

/**
 * Prints pinned virtual threads on stderr while the application runs, as -Djdk.tracePinnedThreads
 * did before JDK 24 removed it.
 *
 * <p>It reads the pins from the JFR repository as JFR flushes it, once a second; it starts no
 * recording of its own (starting one while the JVM exits can hang it). Parsing every flush costs
 * a server starting thousands of platform threads a second 1% of its CPU (docs/benchmarks.md),
 * and a virtual thread cannot pin before the scheduler has started a carrier thread: so the stream
 * opens only once one has been (looked for with every context-switch sample, each second by
 * default), reading from a moment when none had.
 * The pins the stream had not reached when the app ended, {@link #printRest} reads from the last
 * chunks of the written recording.
 */
final class PinnedTracer {
    private static final int SHORT_FRAMES = 6;
    private static final String CARRIER_GROUP = "CarrierThreads";
    /** Instant.now() against JFR's event times, events committed across a flush: read this much earlier. */
    private static final Duration SLACK = Duration.ofSeconds(2);

    private final boolean full;
    private final Object lock = new Object();
    private Instant quietSince; // no carrier thread had been started then: no pin can end earlier
    private boolean streaming;
    private EventStream stream;
    private boolean stopped;
    private volatile Instant streamedTo; // the live stream had dispatched every flush before this
    /** The pins printed lately, so that printRest prints none twice; and the latest end among them. */
    private final Set<Pin> printed = new HashSet<>();
    private Instant printedUntil;
    private int pruneAt = 1000;

    private record Pin(Instant start, Duration duration, long threadId) {
        static Pin of(RecordedEvent e) {
            return new Pin(e.getStartTime(), e.getDuration(), e.getThread() == null ? -1 : e.getThread().getJavaThreadId());
        }
    }

    /** @param since a moment before the loomscope recording started (it holds the pins to print) */
    PinnedTracer(boolean full, Instant since) {
        this.full = full;
        this.quietSince = since;
    }

    /**
     * Called with every loomscope.ContextSwitches sample, on JFR's periodic task thread (whose
     * waits JFR does not record, unlike a thread of ours sleeping between looks): opens the stream
     * in a thread of its own once virtual threads have run.
     */
    void look() {
        Instant checked = Instant.now();
        synchronized (lock) {
            if (stopped || streaming) {
                return;
            }
            if (!virtualThreadsRan()) {
                quietSince = checked;
                return;
            }
            streaming = true;
        }
        Thread t = new Thread(this::stream, "loomscope-agent-pinned-trace");
        t.setDaemon(true); // never keeps the app alive
        t.start();
    }

    private void stream() {
        EventStream s;
        Instant from;
        synchronized (lock) {
            if (stopped) {
                return;
            }
            try {
                s = stream = EventStream.openRepository();
            } catch (IOException | RuntimeException e) {
                AgentLog.failure("no live trace of pinned virtual threads (they are still recorded)", e);
                return;
            }
            from = quietSince.minus(SLACK);
        }
        try {
            s.setOrdered(false); // a pin is printed when it ends; sorting every flushed event by time costs CPU for nothing
            s.setStartTime(from);
            s.onEvent("jdk.VirtualThreadPinned", this::print);
            s.onFlush(() -> streamedTo = Instant.now());
            s.start(); // until closed
        } catch (RuntimeException closed) {
            // closed by stop(), or the repository went away with JFR's own shutdown
        }
    }

    /**
     * Whether the group of the scheduler's carrier threads exists: the JDK (21 to 25 at least)
     * makes it with the first carrier thread. Looking at the thread groups costs next to nothing;
     * listing every thread ten times a second to look for a carrier cost platform echo 0.1-0.2%
     * of its CPU (docs/benchmarks.md).
     */
    private static boolean virtualThreadsRan() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        ThreadGroup[] groups = new ThreadGroup[root.activeGroupCount() + 8];
        int n = root.enumerate(groups, false);
        for (int i = 0; i < n; i++) {
            if (CARRIER_GROUP.equals(groups[i].getName())) {
                return true;
            }
        }
        return false;
    }

    private void print(RecordedEvent e) {
        Pin pin = Pin.of(e);
        Instant end = e.getEndTime();
        synchronized (printed) {
            if (!printed.add(pin)) {
                return;
            }
            if (printedUntil == null || end.isAfter(printedUntil)) {
                printedUntil = end;
            }
            if (printed.size() > pruneAt) { // an app pinning all the time: keep the last seconds' only
                Instant forget = printedUntil.minus(SLACK);
                printed.removeIf(p -> p.start().plus(p.duration()).isBefore(forget));
                pruneAt = Math.max(1000, 2 * printed.size());
            }
        }
        AgentLog.print(describe(e, full));
    }

    static String describe(RecordedEvent e, boolean full) {
        StringBuilder sb = new StringBuilder(AgentLog.PREFIX).append("virtual thread pinned for ")
                .append(String.format("%.1f ms", e.getDuration().toNanos() / 1e6));
        if (e.getThread() != null) {
            String name = e.getThread().getJavaName();
            sb.append(" (").append(name == null || name.isEmpty() ? "#" + e.getThread().getJavaThreadId() : name).append(")");
        }
        if (e.hasField("pinnedReason") && e.getString("pinnedReason") != null) {
            sb.append(", reason: ").append(e.getString("pinnedReason"));
        }
        if (e.hasField("blockingOperation") && e.getString("blockingOperation") != null) {
            sb.append(", blocked in: ").append(e.getString("blockingOperation"));
        }
        if (e.hasField("carrierThread") && e.getThread("carrierThread") != null) {
            sb.append(", carrier: ").append(e.getThread("carrierThread").getJavaName());
        }
        sb.append('\n');
        if (e.getStackTrace() != null) {
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            // short: from the JDK call above the first application frame, a few frames
            int first = full ? 0 : shortTraceStart(frames);
            int n = full ? frames.size() : Math.min(first + SHORT_FRAMES, frames.size());
            for (int i = first; i < n; i++) {
                RecordedFrame f = frames.get(i);
                sb.append("    at ").append(f.getMethod().getType().getName()).append('.').append(f.getMethod().getName());
                if (f.getLineNumber() > 0) {
                    sb.append(':').append(f.getLineNumber());
                }
                sb.append('\n');
            }
            if (n < frames.size() || e.getStackTrace().isTruncated()) {
                sb.append("    ...\n");
            }
        }
        return sb.toString();
    }

    /**
     * Where the short trace starts: one frame above the topmost application frame (the JDK call it
     * blocked in, as context), or the top when every frame is the JDK's.
     */
    static int shortTraceStart(List<RecordedFrame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (!JdkFrames.isJdk(frames.get(i).getMethod().getType().getName())) {
                return Math.max(0, i - 1);
            }
        }
        return 0;
    }

    /** Closes the live stream: the app is ending. */
    void stop() {
        EventStream s;
        synchronized (lock) {
            stopped = true;
            s = stream;
        }
        if (s != null) {
            s.close();
        }
    }

    /**
     * Prints the pins in the written recording that the live stream did not reach (a short app
     * ends before the next flush, or before the agent saw its first virtual thread). Reads only
     * the chunks that end after the stream's last flush, copied to a scratch file of {@code files}
     * when there are chunks before them.
     */
    void printRest(Path recording, OutputFiles files) throws IOException {
        Instant from;
        synchronized (lock) {
            if (!virtualThreadsRan()) {
                return; // no virtual thread ever ran: nothing can have pinned
            }
            from = (streamedTo != null ? streamedTo : quietSince).minus(SLACK);
        }
        long fromNanos = from.getEpochSecond() * 1_000_000_000L + from.getNano();
        Chunks.Walk walk = Chunks.walk(recording);
        long offset = walk.firstEndingAfter(fromNanos);
        long size = walk.at();
        if (offset >= size) {
            return;
        }
        if (offset == 0) {
            printPins(recording, from);
            return;
        }
        Path scratch = files.temporary(".pins.jfr");
        try {
            OutputFiles.copyRange(recording, offset, size, scratch);
            printPins(scratch, from);
        } finally {
            Files.deleteIfExists(scratch);
        }
    }

    private void printPins(Path read, Instant from) throws IOException {
        try (EventStream file = EventStream.openFile(read)) {
            file.setOrdered(false);
            file.setStartTime(from);
            file.onEvent("jdk.VirtualThreadPinned", this::print);
            file.start();
        }
    }
}
