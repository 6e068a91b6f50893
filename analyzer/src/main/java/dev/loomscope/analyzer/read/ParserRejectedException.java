package dev.loomscope.analyzer.read;

import dev.loomscope.analyzer.errors.BadDataException;

/**
 * loomscope's reader cannot read a recording whose chunk structure is sound: an older format
 * version, or content it does not understand. JMC's parser gets a try before this reaches the user.
 */
public final class ParserRejectedException extends BadDataException {
    public ParserRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
