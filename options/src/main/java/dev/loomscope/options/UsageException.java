package dev.loomscope.options;

/**
 * An option's value, or a combination of options, that cannot be used, as the JDK's jfr tool has its
 * UserSyntaxException: the message is one line that starts with the option ({@code --metric x: unknown metric (known:
 * ...)}); the CLI prints it after the command name with a pointer to the command's help, and exits 2. Bad data in a
 * file is {@link BadDataException}.
 */
public class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
