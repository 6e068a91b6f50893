package dev.loomscope.analyzer.cli;

import picocli.CommandLine.Command;

/** {@code loomscope heap}: prints its view ({@link dev.loomscope.analyzer.views.Views}, which describes it). */
@Command(name = "heap", mixinStandardHelpOptions = true)
public final class HeapCommand extends ViewCommand {}
