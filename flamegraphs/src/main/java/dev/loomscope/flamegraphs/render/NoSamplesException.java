package dev.loomscope.flamegraphs.render;

/** The recordings hold no samples of the asked kind; the message lists what they do hold. */
public class NoSamplesException extends RuntimeException {
    public NoSamplesException(String message) {
        super(message);
    }
}
