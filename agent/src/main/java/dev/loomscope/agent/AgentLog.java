package dev.loomscope.agent;

/** The agent's only voice: one line on stderr, prefixed, never an exception into the host. */
final class AgentLog {
    static final String PREFIX = "loomscope-agent: ";

    private AgentLog() {}

    static void warn(String message) {
        System.err.println(PREFIX + message);
    }

    static void failure(String what, Throwable t) {
        String why = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        warn(what + ": " + why.strip().replace('\n', ' '));
    }
}
