package dev.loomscope.recording;

import java.nio.file.Path;

/** A recording that cannot be read; the message is one line naming the absolute path. */
public class BadRecordingException extends Exception {
    public BadRecordingException(String message) {
        super(message);
    }

    public BadRecordingException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * The one wording of a recording a reader stopped on: damage located by the chunk walk (chunk, byte offset) is said
     * as damage; anything else as what the reader said, with what to check.
     */
    public static String said(Path file, Exception e) {
        String at = file.toAbsolutePath() + ": ";
        if (e instanceof DamagedRecordingException) {
            return at + e.getMessage() + " (the recording is damaged)";
        }
        return at + "cannot read the recording: "
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                + " (is it complete? a truncated or corrupted file cannot be read)";
    }
}
