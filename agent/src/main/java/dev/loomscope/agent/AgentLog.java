package dev.loomscope.agent;

/**
 * The agent's only voice: one line on stderr, prefixed, never an exception into the host. While
 * a {@code loomscope attach} command runs, its lines are also kept for the reply.
 */
public final class AgentLog {
    static final String PREFIX = "loomscope-agent: ";
    private static StringBuilder capture;
    /** The process's stderr itself: where the agent speaks when the app has set System.err to null. */
    private static final java.io.PrintStream PROCESS_ERR = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err), true);

    private AgentLog() {}

    public static synchronized void warn(String message) {
        print(PREFIX + message + System.lineSeparator());
        if (capture != null) {
            capture.append(message).append('\n');
        }
    }

    /** Text as it is (a pin's stack, the help) on stderr: the app's System.err, or the process's when the app set it to null. */
    static synchronized void print(String text) {
        java.io.PrintStream err = System.err != null ? System.err : PROCESS_ERR;
        try {
            err.print(inert(text));
            err.flush();
        } catch (RuntimeException unwritable) {
            // the app's replacement stream throws: the agent stays silent rather than raise into the host
        }
    }

    static void failure(String what, Throwable t) {
        String why = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        warn(what + ": " + why.strip().replace('\n', ' '));
    }

    /** Starts keeping the lines for an attach reply. */
    static synchronized void startCapture() {
        capture = new StringBuilder();
    }

    /** Stops keeping lines; returns what was said since {@link #startCapture()}. */
    static synchronized String endCapture() {
        String s = capture == null ? "" : capture.toString();
        capture = null;
        return s;
    }

    /**
     * The text with every control, bidi and separator character but the line break as \\uXXXX:
     * thread names, frames and paths from the application can neither move the terminal's cursor,
     * colour it, ring it nor turn the line around.
     */
    static String inert(String text) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean escape = c < 0x20 && c != '\n' || c >= 0x7f && c < 0xa0 || c == '\u061c' || c == '\u200e' || c == '\u200f'
                    || c >= '\u2028' && c <= '\u202e' || c >= '\u2066' && c <= '\u2069';
            if (escape && b == null) {
                b = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (escape) {
                b.append(String.format("\\u%04x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? text : b.toString();
    }
}
