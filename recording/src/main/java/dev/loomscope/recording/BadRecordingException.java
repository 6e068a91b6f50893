package dev.loomscope.recording;

/** A recording that cannot be read; the message is one line naming the absolute path. */
public class BadRecordingException extends Exception {
    public BadRecordingException(String message) {
        super(message);
    }

    public BadRecordingException(String message, Throwable cause) {
        super(message, cause);
    }
}
