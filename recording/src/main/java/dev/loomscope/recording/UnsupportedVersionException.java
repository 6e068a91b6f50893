package dev.loomscope.recording;

/** A recording in a JFR format version loomscope's reader does not read (JMC's parser may). */
public class UnsupportedVersionException extends BadRecordingException {
    public UnsupportedVersionException(String message) {
        super(message);
    }
}
