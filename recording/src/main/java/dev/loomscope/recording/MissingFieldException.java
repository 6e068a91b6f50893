package dev.loomscope.recording;

/**
 * An event lacks a field a reduction reads: the recording's metadata describes the event type
 * otherwise than the JDK versions loomscope knows (a damaged recording, or a JDK that changed the
 * event). Bad input, named; not a bug of loomscope's.
 */
public final class MissingFieldException extends RuntimeException {
    public MissingFieldException(String type, String field) {
        super(type + " has no field " + field + " (the recording's metadata describes the event otherwise than the JDKs loomscope reads:"
                + " a damaged recording, or a JDK that changed the event)");
    }
}
