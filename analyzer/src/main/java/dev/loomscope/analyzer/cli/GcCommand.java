package dev.loomscope.analyzer.cli;

import picocli.CommandLine.Command;

/** {@code loomscope gc}: prints its view ({@link dev.loomscope.analyzer.views.Views}, which describes it). */
@Command(name = "gc", mixinStandardHelpOptions = true)
public final class GcCommand extends ViewCommand {}
