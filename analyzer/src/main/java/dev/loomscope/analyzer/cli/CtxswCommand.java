package dev.loomscope.analyzer.cli;

import picocli.CommandLine.Command;

/** {@code loomscope ctxsw}: prints its view ({@link dev.loomscope.analyzer.views.Views}, which describes it). */
@Command(name = "ctxsw", mixinStandardHelpOptions = true)
public final class CtxswCommand extends ViewCommand {}
