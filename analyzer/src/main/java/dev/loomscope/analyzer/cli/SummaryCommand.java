package dev.loomscope.analyzer.cli;

import picocli.CommandLine.Command;

/** {@code loomscope summary}: prints its view ({@link dev.loomscope.analyzer.views.Views}, which describes it). */
@Command(name = "summary", mixinStandardHelpOptions = true)
public final class SummaryCommand extends ViewCommand {}
