package dev.loomscope.analyzer.reduce;

import java.nio.file.Path;

/**
 * A reduction threw while it read a recording the parser had read fine: loomscope's bug, not the user's file. The CLI
 * reports it as an internal error (exit 3) naming the reducer and the file.
 */
public final class ReductionFailedException extends RuntimeException {
    public final String reducer;
    public final Path file;

    public ReductionFailedException(String reducer, Path file, Throwable cause) {
        super(
                "internal error in " + reducer + " on " + file.toAbsolutePath() + ": "
                        + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()),
                cause);
        this.reducer = reducer;
        this.file = file;
    }
}
