package dev.loomscope.analyzer.cli;

/**
 * A problem with what the user gave us: printed as one line
 * {@code loomscope <command>: <message>} and exits with {@link #exitCode()}.
 */
public class UserException extends RuntimeException {
    private final int exitCode;

    public UserException(String message) {
        this(message, Errors.USAGE);
    }

    public UserException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
