package dev.loomscope.agent;

import dev.loomscope.agent.log.AgentLog;
import dev.loomscope.recording.Chunks;
import dev.loomscope.recording.Frame;
import dev.loomscope.recording.JdkEvents;
import dev.loomscope.recording.JdkFields;
import dev.loomscope.recording.JdkFrames;
import dev.loomscope.recording.PinFrames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;

/**
 * Prints pinned virtual threads on stderr while the application runs, as -Djdk.tracePinnedThreads did before JDK 24
 * removed it.
 *
 * <p>It reads the pins from the JFR repository as JFR flushes it, once a second; it starts no recording of its own
 * (starting one while the JVM exits can hang it). Parsing every flush costs a server starting thousands of platform
 * threads a second 1% of its CPU when measured, and a virtual thread cannot pin before the scheduler has started a
 * carrier thread: so the stream opens only once one has been (looked for with every context-switch sample, each second
 * by default), reading from a moment when none had. The pins the stream had not reached when the app ended,
 * {@link #printRest} reads from the last chunks of the written recording.
 *
 * <p>A place that pins once pins again: each pinning stack and reason is printed the first time it pins (and again when
 * a pin there lasts far longer than the one printed), and its later pins are counted and summarised at most every
 * {@link #REPORT_EVERY}, a few lines, the busiest places first ({@code trace-pinned=full} prints each pin whole, as
 * before). What it prints is bounded: at most {@link #MAX_PLACES} places are told apart and at most
 * {@link #NEW_PER_REPORT} new stacks are printed between two summaries; the rest are counted in the summary (all are in
 * the recording).
 */
final class PinnedTracer {
    /** Repeated pins are summarised at most this often, in at most {@link #REPORT_LINES} lines. */
    static final Duration REPORT_EVERY = Duration.ofSeconds(10);

    static final int REPORT_LINES = 5;
    /** Places (stack and reason) told apart; pins at others are counted together. */
    static final int MAX_PLACES = 1_000;
    /** New places printed with their stack between two summaries; the others are counted. */
    static final int NEW_PER_REPORT = 20;
    /** A pin this many times longer than the one printed at its place (and 10 ms longer) is printed too. */
    private static final int LONGER = 10;
    /** Frames of a stack that make it one place. */
    private static final int SIGNATURE_FRAMES = 64;

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
    /** Each pinning stack seen (its top frames), with the pins there not reported yet. */
    private final Map<List<String>, Place> places = new HashMap<>();

    private long reportedAt = System.nanoTime();
    /**
     * New places printed since the last summary; pins at places not told apart, and new places not printed, since then.
     */
    private int newPrinted;

    private long beyondPlaces;
    private long notPrinted;

    /** A place that pins: where (the frame that pinned), and its pins since they were last reported. */
    private static final class Place {
        final String where;
        long count;
        long nanos;
        long maxNanos;
        long printedNanos; // the pin printed with its stack here

        Place(String where, long printedNanos) {
            this.where = where;
            this.printedNanos = printedNanos;
        }

        /** The pins here not reported yet, and none after. */
        Repeats take() {
            Repeats r = new Repeats(where, count, nanos, maxNanos);
            count = 0;
            nanos = 0;
            maxNanos = 0;
            return r;
        }
    }

    /** A place's pins between two reports. */
    private record Repeats(String where, long count, long nanos, long maxNanos) {}

    private record Pin(Instant start, Duration duration, long threadId) {
        static Pin of(RecordedEvent e) {
            return new Pin(
                    e.getStartTime(),
                    e.getDuration(),
                    e.getThread() == null ? -1 : e.getThread().getJavaThreadId());
        }
    }

    /** @param since a moment before the loomscope recording started (it holds the pins to print) */
    PinnedTracer(boolean full, Instant since) {
        this.full = full;
        this.quietSince = since;
    }

    /**
     * Called with every loomscope.ContextSwitches sample, on JFR's periodic task thread (whose waits JFR does not
     * record, unlike a thread of ours sleeping between looks): opens the stream in a thread of its own once virtual
     * threads have run.
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
        Thread.ofPlatform()
                .name("loomscope-agent-pinned-trace")
                .daemon()
                .start(this::stream); // daemon: never keeps the app alive
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
            // a pin is printed when it ends; sorting every flushed event by time costs CPU for nothing
            s.setOrdered(false);
            s.setStartTime(from);
            s.onEvent(JdkEvents.VIRTUAL_THREAD_PINNED, this::print);
            s.onFlush(() -> streamedTo = Instant.now());
            s.start(); // until closed
        } catch (RuntimeException closed) {
            // closed by stop(), or the repository went away with JFR's own shutdown
        }
    }

    /**
     * Whether the group of the scheduler's carrier threads exists: the JDK (21 to 25 at least) makes it with the first
     * carrier thread. Looking at the thread groups costs next to nothing; listing every thread ten times a second to
     * look for a carrier cost platform echo 0.1-0.2% of its CPU when measured.
     */
    static boolean virtualThreadsRan() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        ThreadGroup[] groups = new ThreadGroup[root.activeGroupCount() + 8];
        int n = root.enumerate(groups, false);
        for (int i = 0; i < n; i++) {
            if (JdkFrames.CARRIER_THREAD_GROUP.equals(groups[i].getName())) {
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
        if (full) {
            AgentLog.print(describe(e, true));
            return;
        }
        boolean show;
        long d = e.getDuration().toNanos();
        synchronized (places) {
            List<String> key = signature(e);
            Place place = places.get(key);
            if (place == null && places.size() >= MAX_PLACES) {
                beyondPlaces++;
                show = false;
            } else if (place == null) {
                show = newPrinted < NEW_PER_REPORT;
                if (show) {
                    newPrinted++;
                } else {
                    notPrinted++;
                }
                places.put(key, new Place(culprit(e), show ? d : 0));
            } else {
                place.count++;
                place.nanos += d;
                place.maxNanos = Math.max(place.maxNanos, d);
                show = d >= LONGER * place.printedNanos
                        && d - place.printedNanos >= 10_000_000L
                        && newPrinted < NEW_PER_REPORT;
                if (show) { // far longer than the pin printed here: this one is the one to see
                    place.printedNanos = d;
                    newPrinted++;
                }
            }
        }
        if (show) {
            AgentLog.print(describe(e, false));
        }
        if (System.nanoTime() - reportedAt >= REPORT_EVERY.toNanos()) {
            report();
        }
    }

    /**
     * A stack and reason as a place: its application frames, by method and line (the JDK's frames between them vary
     * with linkage: a method handle's invokeStatic or invokeStaticInit), and why it pinned (JDK 24+): a class
     * initializer's long wait is not folded into a short native pin.
     */
    private static List<String> signature(RecordedEvent e) {
        String reason = e.hasField(JdkFields.PINNED_REASON) && e.getString(JdkFields.PINNED_REASON) != null
                ? e.getString(JdkFields.PINNED_REASON)
                : "";
        if (e.getStackTrace() == null) {
            return List.of(reason);
        }
        List<RecordedFrame> frames = e.getStackTrace().getFrames();
        List<String> key = new ArrayList<>(frames.subList(0, Math.min(SIGNATURE_FRAMES, frames.size())).stream()
                .filter(f -> !JdkFrames.isJdk(f.getMethod().getType().getName()))
                .map(f ->
                        f.getMethod().getType().getName() + "." + f.getMethod().getName() + ":" + f.getLineNumber())
                .toList());
        key.add(reason);
        return key;
    }

    /** The frame a place is named by: the one that pinned ({@link PinFrames#culprit}), with its line. */
    private static String culprit(RecordedEvent e) {
        String reason = e.hasField(JdkFields.PINNED_REASON) && e.getString(JdkFields.PINNED_REASON) != null
                ? " (" + e.getString(JdkFields.PINNED_REASON) + ")"
                : "";
        if (e.getStackTrace() == null || e.getStackTrace().getFrames().isEmpty()) {
            return "(no stack trace)" + reason;
        }
        List<Frame> frames = frames(e.getStackTrace().getFrames());
        return frames.get(PinFrames.culprit(frames)).text() + reason;
    }

    /**
     * The pins not reported yet, a line a place, the most pinned time first, at most {@link #REPORT_LINES} lines and
     * one for the rest; nothing when there are none.
     */
    void report() {
        List<Repeats> due;
        long beyond;
        long unprinted;
        synchronized (places) {
            reportedAt = System.nanoTime();
            due = places.values().stream()
                    .filter(p -> p.count > 0)
                    .map(Place::take)
                    .sorted((a, b) -> Long.compare(b.nanos(), a.nanos()))
                    .toList();
            beyond = beyondPlaces;
            unprinted = notPrinted;
            beyondPlaces = 0;
            notPrinted = 0;
            newPrinted = 0;
        }
        if (unprinted > 0) {
            AgentLog.print(String.format(
                    Locale.ROOT,
                    "%s%,d more places pinned for the first time, not printed (at most %d a summary; loomscope pinning"
                            + " shows them all from the recording)%n",
                    AgentLog.PREFIX,
                    unprinted,
                    NEW_PER_REPORT));
        }
        if (beyond > 0) {
            AgentLog.print(String.format(
                    Locale.ROOT,
                    "%s%,d pins at places beyond the first %,d, counted here only (the recording has them all)%n",
                    AgentLog.PREFIX,
                    beyond,
                    MAX_PLACES));
        }
        for (Repeats p : due.subList(0, Math.min(REPORT_LINES, due.size()))) {
            AgentLog.print(String.format(
                    Locale.ROOT,
                    "%spinned again %,d time%s at %s: %.1f ms in all, at most %.1f ms (printed once above)%n",
                    AgentLog.PREFIX,
                    p.count(),
                    p.count() == 1 ? "" : "s",
                    p.where(),
                    p.nanos() / 1e6,
                    p.maxNanos() / 1e6));
        }
        if (due.size() > REPORT_LINES) {
            List<Repeats> rest = due.subList(REPORT_LINES, due.size());
            AgentLog.print(String.format(
                    Locale.ROOT,
                    "%sand %,d pins at %d other places: %.1f ms in all%n",
                    AgentLog.PREFIX,
                    rest.stream().mapToLong(Repeats::count).sum(),
                    rest.size(),
                    rest.stream().mapToLong(Repeats::nanos).sum() / 1e6));
        }
    }

    static String describe(RecordedEvent e, boolean full) {
        StringBuilder sb = new StringBuilder(AgentLog.PREFIX)
                .append("virtual thread pinned for ")
                .append(String.format("%.1f ms", e.getDuration().toNanos() / 1e6));
        if (e.getThread() != null) {
            String name = e.getThread().getJavaName();
            sb.append(" (")
                    .append(name == null || name.isEmpty() ? "#" + e.getThread().getJavaThreadId() : name)
                    .append(")");
        }
        if (e.hasField(JdkFields.PINNED_REASON) && e.getString(JdkFields.PINNED_REASON) != null) {
            sb.append(", reason: ").append(e.getString(JdkFields.PINNED_REASON));
        }
        if (e.hasField(JdkFields.BLOCKING_OPERATION) && e.getString(JdkFields.BLOCKING_OPERATION) != null) {
            sb.append(", blocked in: ").append(e.getString(JdkFields.BLOCKING_OPERATION));
        }
        if (e.hasField(JdkFields.CARRIER_THREAD) && e.getThread(JdkFields.CARRIER_THREAD) != null) {
            sb.append(", carrier: ")
                    .append(e.getThread(JdkFields.CARRIER_THREAD).getJavaName());
        }
        sb.append('\n');
        if (e.getStackTrace() != null) {
            // short: from the JDK call above the first application frame, a few frames, and below them every frame that
            // explains a pin (a class initializer, a native frame, the call that went native) with the frames around
            // it; a gap is "..."
            List<Frame> frames = frames(e.getStackTrace().getFrames());
            Collection<Integer> shown =
                    full ? IntStream.range(0, frames.size()).boxed().toList() : PinFrames.shortTrace(frames);
            for (String line : PinFrames.lines(frames, shown, e.getStackTrace().isTruncated())) {
                sb.append(line.equals(PinFrames.GAP) ? "    " : "    at ")
                        .append(line)
                        .append('\n');
            }
        }
        return sb.toString();
    }

    /** The recorded frames as loomscope's reader gives them (what {@link PinFrames} reads). */
    static List<Frame> frames(List<RecordedFrame> recorded) {
        return recorded.stream()
                .map(f -> new Frame(
                        f.getMethod().getType().getName(),
                        f.getMethod().getName(),
                        f.getLineNumber(),
                        Frame.type(f.getType())))
                .toList();
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
     * Prints the pins in the written recording that the live stream did not reach (a short app ends before the next
     * flush, or before the agent saw its first virtual thread). Reads only the chunks that end after the stream's last
     * flush, copied to a scratch file of {@code files} when there are chunks before them.
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
            file.onEvent(JdkEvents.VIRTUAL_THREAD_PINNED, this::print);
            file.start();
        }
    }
}
