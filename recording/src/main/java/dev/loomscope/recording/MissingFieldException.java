package dev.loomscope.recording;

/**
 * An event lacks a field a reduction reads, or has it with another type: the recording's metadata describes the event
 * type otherwise than the JDK versions loomscope knows (a damaged recording, or a JDK that changed the event). Bad
 * input, named; not a bug of loomscope's.
 */
public final class MissingFieldException extends RuntimeException {
    private static final String WHY =
            " (the recording's metadata describes the event otherwise than the JDKs loomscope reads: a damaged"
                    + " recording, or a JDK that changed the event)";

    public MissingFieldException(String type, String field) {
        super(type + " has no field " + field + WHY);
    }

    private MissingFieldException(String message) {
        super(message);
    }

    /** The field is there, but not a number where a number is read. */
    public static MissingFieldException notANumber(String type, String field) {
        return new MissingFieldException(type + "." + field + " is not a number" + WHY);
    }
}
