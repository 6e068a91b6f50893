package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.stats.Boxplot;
import dev.loomscope.analyzer.stats.Comparison;
import dev.loomscope.analyzer.stats.Regression;
import java.util.Map;

/**
 * The statistics of one metric: per group the values (x, y), boxplot and regression (null with fewer
 * than 3 values), and each non-baseline group's comparison with the baseline.
 */
public record MetricResult(Metric metric, String xLabel, Map<String, double[][]> points, Map<String, Boxplot> boxplots,
        Map<String, Regression> regressions, Map<String, Comparison> comparisons, String baseline) {}
