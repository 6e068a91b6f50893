package dev.loomscope.flamegraphs.profiler;

/** async-profiler cannot be loaded or started here; the message says why in one line. */
public class ProfilerUnavailableException extends Exception {
    public ProfilerUnavailableException(String message) {
        super(message);
    }

    public ProfilerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
