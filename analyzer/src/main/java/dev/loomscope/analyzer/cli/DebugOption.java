package dev.loomscope.analyzer.cli;

import picocli.CommandLine.Option;

/** {@code --debug}: errors show their stack trace (read by {@link Errors}); every command has it. */
public final class DebugOption {
    @Option(names = "--debug", description = "show stack traces of errors")
    boolean debug;
}
