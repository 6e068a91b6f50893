package dev.loomscope.flamegraphs.profiler;

/** async-profiler refused a command; the message is its own. */
public class ProfilerCommandException extends Exception {
    public ProfilerCommandException(String message, Throwable cause) {
        super(message, cause);
    }
}
