package dev.loomscope.analyzer.read;

/**
 * Input the user gave that cannot be used: the message is one line,
 * {@code <absolute path>: <what> (<hint>)}; the CLI prints it after the command name and exits 2.
 */
public class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
