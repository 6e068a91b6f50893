package dev.loomscope.agent;

import dev.loomscope.flamegraphs.jfr.JfrFileCheck;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * opens only once a carrier exists (looked for every 100 ms), reading from a moment when none did.
 * The pins the stream had not reached when the app ended, {@link #printRest} reads from the last
 * chunks of the written recording.
 */
final class PinnedTracer {
    private static final int SHORT_FRAMES = 6;
    private static final Duration POLL = Duration.ofMillis(100);
    /** Instant.now() against JFR's event times, events committed across a flush: read this much earlier. */
    private static final Duration SLACK = Duration.ofSeconds(2);

    private final boolean full;
    private final Class<?> carrierClass;
    private final Object lock = new Object();
    private Instant quietSince; // no carrier thread existed then: no pin can end earlier
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

    private PinnedTracer(boolean full, Instant recordingStart) {
        this.full = full;
        this.carrierClass = carrierClass();
        this.quietSince = recordingStart;
    }

    /**
     * Starts watching for virtual threads.
     *
     * @param recordingStart when the loomscope recording started: it holds jdk.VirtualThreadPinned
     *     with stacks at the threshold to print
     */
    static PinnedTracer start(boolean full, Instant recordingStart) {
        PinnedTracer t = new PinnedTracer(full, recordingStart);
        Thread watcher = new Thread(t::watch, "loomscope-agent-pinned-watch"); // -trace once it streams
        watcher.setDaemon(true); // never keeps the app alive
        watcher.start();
        return t;
    }

    private void watch() {
        EventStream s;
        while (true) {
            Instant checked = Instant.now();
            synchronized (lock) {
                if (stopped) {
                    return;
                }
                if (virtualThreadsRan()) {
                    try {
                        s = stream = EventStream.openRepository();
                    } catch (IOException | RuntimeException e) {
                        AgentLog.failure("no live trace of pinned virtual threads (they are still recorded)", e);
                        return;
                    }
                    break;
                }
                quietSince = checked;
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                return;
            }
        }
        Thread.currentThread().setName("loomscope-agent-pinned-trace");
        try {
            s.setOrdered(false); // a pin is printed when it ends; sorting every flushed event by time costs CPU for nothing
            s.setStartTime(quietSince.minus(SLACK));
            s.onEvent("jdk.VirtualThreadPinned", this::print);
            s.onFlush(() -> streamedTo = Instant.now());
            s.start(); // until closed
        } catch (RuntimeException closed) {
            // closed by stop(), or the repository went away with JFR's own shutdown
        }
    }

    private boolean virtualThreadsRan() {
        if (carrierClass == null) {
            return true; // a JDK without the class: cannot tell, so trace from the start
        }
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 16];
        int n = root.enumerate(threads, true);
        for (int i = 0; i < n; i++) {
            if (carrierClass.isInstance(threads[i])) {
                return true;
            }
        }
        return false;
    }

    private static Class<?> carrierClass() {
        try {
            return Class.forName("jdk.internal.misc.CarrierThread", false, null);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
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
        System.err.print(describe(e, full));
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
            // short: from the first frame outside the JDK's parking machinery, a few frames
            int first = full ? 0 : firstApplicationFrame(frames);
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

    static int firstApplicationFrame(List<RecordedFrame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            String type = frames.get(i).getMethod().getType().getName();
            if (!(type.startsWith("java.lang.VirtualThread") || type.equals("java.lang.Thread")
                    || type.startsWith("jdk.internal.") || type.startsWith("java.util.concurrent.locks."))) {
                return i;
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
     * ends before the next flush, or before the watcher saw its first virtual thread). Reads only
     * the chunks that end after the stream's last flush, copied to {@code scratch} (the caller's to
     * delete) when there are chunks before them.
     */
    void printRest(Path recording, Path scratch) throws IOException {
        Instant from;
        synchronized (lock) {
            if (stream == null && !virtualThreadsRan()) {
                return; // no virtual thread ever ran: nothing can have pinned
            }
            from = (streamedTo != null ? streamedTo : quietSince).minus(SLACK);
        }
        long fromNanos = from.getEpochSecond() * 1_000_000_000L + from.getNano();
        long offset = JfrFileCheck.firstChunkEndingAfter(recording, fromNanos);
        long size = JfrFileCheck.completeChunksLength(recording);
        if (offset >= size) {
            return;
        }
        Path read = recording;
        if (offset > 0) {
            try (FileChannel in = FileChannel.open(recording, StandardOpenOption.READ);
                    FileChannel copy = FileChannel.open(scratch, StandardOpenOption.WRITE, StandardOpenOption.CREATE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                for (long done = 0; done < size - offset;) {
                    done += in.transferTo(offset + done, size - offset - done, copy);
                }
            }
            read = scratch;
        }
        try (EventStream file = EventStream.openFile(read)) {
            file.setOrdered(false);
            file.setStartTime(from);
            file.onEvent("jdk.VirtualThreadPinned", this::print);
            file.start();
        }
    }
}
