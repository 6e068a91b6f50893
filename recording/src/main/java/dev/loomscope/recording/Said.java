package dev.loomscope.recording;

import java.io.EOFException;
import java.util.Locale;

/**
 * What a parser or a library said, on one line and of a length a line can show: the one wording every error message
 * quotes it in.
 */
public final class Said {
    /** The most of a parser's message a line shows. */
    static final int MOST = 300;

    private Said() {}

    /** A message on one line: a parser's multi-line text joined at its line breaks. */
    public static String oneLine(String message) {
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /**
     * What {@code e} said, on one line: its message, or for an error without one its name in words
     * ({@code InvalidJfrFileException}: "invalid jfr file"; an {@code EOFException}: "it ends early"), never a class
     * name the user must decode; of a wrapper whose message is only its cause's name, what the cause said.
     */
    public static String by(Throwable e) {
        if (e.getCause() != null && e.getCause() != e && e.getCause().toString().equals(e.getMessage())) {
            return by(e.getCause()); // a wrapper that says nothing of its own: its message is its cause's class name
        }
        if (e instanceof EOFException
                && (e.getMessage() == null || e.getMessage().isBlank())) {
            return "it ends early";
        }
        if (e.getMessage() != null && !e.getMessage().isBlank()) {
            String line = oneLine(e.getMessage());
            return line.length() <= MOST
                    ? line
                    : line.substring(0, MOST) + "..."; // a parser may put a whole schema in its message
        }
        String name = e.getClass().getSimpleName().replaceFirst("(Exception|Error)$", "");
        return name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }
}
