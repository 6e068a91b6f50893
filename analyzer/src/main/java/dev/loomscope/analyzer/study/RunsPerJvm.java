package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.analyzer.stats.Replicates;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How many measured runs per JVM this study's own data asks for (Kalibera and Jones): from each thread kind's run
 * times, the variance between its JVMs and within them, and what a JVM costs beyond its measured runs (start, warm-up,
 * exit) against what a run costs.
 */
public final class RunsPerJvm {
    /** More runs per JVM than this are never advised: the JVMs' variance is what a verdict needs. */
    static final int MAX = 30;

    private RunsPerJvm() {}

    /**
     * {@code runs per JVM for the most precision per second (Kalibera & Jones): platform 2, virtual 4 (...)}; null when
     * no kind has the runs to tell (fewer than 2 JVMs, or one run each).
     *
     * @param jvmSeconds each timed JVM's wall time, by its recording
     * @param ran what the study ran, for the line ("3 runs")
     */
    public static String line(Map<String, List<RecordingFacts>> groups, Map<Path, Double> jvmSeconds, String ran) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<RecordingFacts>> g : groups.entrySet()) {
            List<double[]> times = new ArrayList<>();
            double overhead = 0;
            double runSeconds = 0;
            int n = 0;
            for (RecordingFacts f : g.getValue()) {
                double[] t = f.runs.measured().stream()
                        .mapToDouble(WorkloadRun::millis)
                        .toArray();
                Double wall = jvmSeconds.get(f.source.name().toAbsolutePath().normalize());
                if (t.length == 0 || wall == null) {
                    continue;
                }
                times.add(t);
                double measured = Arrays.stream(t).sum() / 1e3;
                overhead += Math.max(0, wall - measured);
                runSeconds += measured / t.length;
                n++;
            }
            Replicates.Components c = Replicates.components(times);
            int advised = n == 0 ? -1 : Replicates.runsPerJvm(c, overhead / n, runSeconds / n, MAX);
            if (advised > 0 && c.between() == 0) {
                parts.add(String.format(
                        Locale.ROOT,
                        "%s more (no variance between its %d JVMs could be told from their runs' own; a JVM costs %.1f"
                                + " s beyond its runs, a run %.2f s)",
                        g.getKey(),
                        n,
                        overhead / n,
                        runSeconds / n));
            } else if (advised > 0) {
                parts.add(String.format(
                        Locale.ROOT,
                        "%s %d (run time's variance %.0f%% between JVMs; a JVM costs %.1f s beyond its runs, a run %.2f"
                                + " s)",
                        g.getKey(),
                        advised,
                        100 * c.betweenShare(),
                        overhead / n,
                        runSeconds / n));
            }
        }
        return parts.isEmpty()
                ? null
                : "runs per JVM for the most precision per second (Kalibera & Jones, from this study's run times): "
                        + String.join(", ", parts) + "; this study ran " + ran
                        + " (--runs; with a few JVMs the variance between them is a rough estimate, so the figure moves"
                        + " from study to study)";
    }
}
