package dev.loomscope.agent.log;

import dev.loomscope.recording.InertText;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;

/**
 * The agent's only voice: one line on stderr, prefixed, never an exception into the host. While a {@code loomscope
 * attach} command runs, its lines are also kept for the reply.
 */
public final class AgentLog {
    public static final String PREFIX = "loomscope-agent: ";
    private static StringBuilder capture;
    /** The process's stderr itself: where the agent speaks when the app has set System.err to null. */
    private static final PrintStream PROCESS_ERR = new PrintStream(new FileOutputStream(FileDescriptor.err), true);

    private AgentLog() {}

    public static synchronized void warn(String message) {
        print(PREFIX + message + System.lineSeparator());
        if (capture != null) {
            capture.append(message).append('\n');
        }
    }

    /**
     * Text as it is (a pin's stack, the help) on stderr: the app's System.err, or the process's when the app set it to
     * null.
     */
    public static synchronized void print(String text) {
        PrintStream err = System.err != null ? System.err : PROCESS_ERR;
        try {
            err.print(InertText.of(text)); // names from the application: never a control or bidi character raw
            err.flush();
        } catch (RuntimeException unwritable) {
            // the app's replacement stream throws: the agent stays silent rather than raise into the host
        }
    }

    public static void failure(String what, Throwable t) {
        String why = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        warn(what + ": " + why.strip().replace('\n', ' '));
    }

    /** Starts keeping the lines for an attach reply. */
    public static synchronized void startCapture() {
        capture = new StringBuilder();
    }

    /** Stops keeping lines; returns what was said since {@link #startCapture()}. */
    public static synchronized String endCapture() {
        String s = capture == null ? "" : capture.toString();
        capture = null;
        return s;
    }
}
