package dev.loomscope.agent;

/**
 * The agent's only voice: one line on stderr, prefixed, never an exception into the host. While
 * a {@code loomscope attach} command runs, its lines are also kept for the reply.
 */
final class AgentLog {
    static final String PREFIX = "loomscope-agent: ";
    private static StringBuilder capture;

    private AgentLog() {}

    static synchronized void warn(String message) {
        System.err.println(PREFIX + message);
        if (capture != null) {
            capture.append(message).append('\n');
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
}
