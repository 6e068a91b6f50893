package dev.loomscope.options;

/**
 * Data the user gave that cannot be used, as the JDK's jfr tool has its UserDataException: a file that is damaged,
 * missing, of another kind, or cannot be written. The message is one line, {@code <absolute path>: <what> (<hint>)};
 * the CLI prints it after the command name and exits 2.
 */
public class BadDataException extends RuntimeException {
    public BadDataException(String message) {
        super(message);
    }

    public BadDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
