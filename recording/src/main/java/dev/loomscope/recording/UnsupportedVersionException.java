package dev.loomscope.recording;

/** A recording in a JFR format version the JDK's parser does not read (another parser may). */
public class UnsupportedVersionException extends BadRecordingException {
    public UnsupportedVersionException(String message) {
        super(message);
    }
}
