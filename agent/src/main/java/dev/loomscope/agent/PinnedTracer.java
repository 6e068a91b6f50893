package dev.loomscope.agent;

import java.time.Duration;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

/**
 * Prints pinned virtual threads on stderr while the application runs, as -Djdk.tracePinnedThreads
 * did before JDK 24 removed it.
 */
final class PinnedTracer {
    private static final int SHORT_FRAMES = 6;
    private final RecordingStream stream;

    private PinnedTracer(RecordingStream stream) {
        this.stream = stream;
    }

    static PinnedTracer start(Duration threshold, boolean full) {
        RecordingStream rs = new RecordingStream();
        rs.setOrdered(false); // a pin is printed when it ends; sorting every flushed event by time costs CPU for nothing
        rs.enable("jdk.VirtualThreadPinned").withThreshold(threshold).withStackTrace();
        rs.onEvent("jdk.VirtualThreadPinned", e -> System.err.print(describe(e, full)));
        // A daemon thread of our own: startAsync()'s thread would keep the JVM from exiting. The
        // stream sees only what happens after its recording runs: wait for that (pins at the very
        // start of an app would otherwise go untraced), a second at most.
        java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
        jdk.jfr.FlightRecorderListener listener = new jdk.jfr.FlightRecorderListener() {
            @Override
            public void recordingStateChanged(jdk.jfr.Recording r) {
                if (r.getState() == jdk.jfr.RecordingState.RUNNING) {
                    running.countDown();
                }
            }
        };
        jdk.jfr.FlightRecorder.addListener(listener);
        Thread t = new Thread(rs::start, "loomscope-agent-pinned-trace");
        t.setDaemon(true);
        t.start();
        try {
            running.await(1, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            jdk.jfr.FlightRecorder.removeListener(listener);
        }
        return new PinnedTracer(rs);
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

    /** Prints the pins not printed yet (a short app ends before the stream's next flush), then closes; waits 1 s at most. */
    void stop() {
        Thread drain = new Thread(() -> {
            try {
                stream.stop();
            } catch (RuntimeException closed) {
                // JFR's own shutdown may have ended the stream already
            }
        }, "loomscope-agent-pinned-trace-drain");
        drain.setDaemon(true);
        drain.start();
        try {
            drain.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stream.close();
    }
}
