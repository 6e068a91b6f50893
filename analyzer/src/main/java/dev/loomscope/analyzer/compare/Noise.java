package dev.loomscope.analyzer.compare;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.analyzer.reduce.RunsReducer.WorkloadRun;
import dev.loomscope.load.stats.Quantiles;
import dev.loomscope.probes.MachineCpu;
import java.util.List;
import java.util.Locale;

/**
 * How busy the machine was besides the JVMs of a group: per JVM, the median over its measured runs of the CPU share
 * other processes and steal took (the runs' own figures), or for a recording without them the machine's CPU load less
 * the JVM's over the recording. A JVM above {@link MachineCpu#DISTURBED} ran on a busy machine, and what it measured
 * may be the other processes'.
 *
 * @param known JVMs whose machine load is known
 * @param disturbed JVMs above {@link MachineCpu#DISTURBED}
 * @param worst the largest JVM figure, 0 to 1 (NaN when none is known)
 */
public record Noise(int jvms, int known, int disturbed, double worst) {
    public static Noise of(List<RecordingFacts> facts) {
        int known = 0;
        int disturbed = 0;
        double worst = Double.NaN;
        for (RecordingFacts f : facts) {
            double busy = busyElsewhere(f);
            if (Double.isNaN(busy)) {
                continue;
            }
            known++;
            disturbed += busy > MachineCpu.DISTURBED ? 1 : 0;
            worst = Double.isNaN(worst) ? busy : Math.max(worst, busy);
        }
        return new Noise(facts.size(), known, disturbed, worst);
    }

    /** One JVM's figure: the median of its measured runs', else the recording's CPU loads; NaN when unknown. */
    public static double busyElsewhere(RecordingFacts f) {
        double[] runs = f.runs.measured().stream()
                .mapToDouble(WorkloadRun::busyElsewhere)
                .filter(v -> !Double.isNaN(v))
                .toArray();
        if (runs.length > 0) {
            return Quantiles.of(runs, 0.5);
        }
        if (f.summary.machineCpu.count() == 0 || f.summary.jvmCpu.count() == 0) {
            return Double.NaN;
        }
        double machine = f.summary.machineCpu.mean();
        double jvm = f.summary.jvmCpu.mean();
        return Math.max(0, machine - jvm);
    }

    /**
     * {@code other processes took up to 38% of the CPU in 3 of 10 JVMs}: the groups' noise in words; null when no JVM
     * was disturbed.
     */
    public static String describe(List<Noise> groups) {
        int disturbed = groups.stream().mapToInt(Noise::disturbed).sum();
        if (disturbed == 0) {
            return null;
        }
        int jvms = groups.stream().mapToInt(Noise::jvms).sum();
        double worst = groups.stream()
                .mapToDouble(Noise::worst)
                .filter(v -> !Double.isNaN(v))
                .max()
                .orElse(Double.NaN);
        return String.format(
                Locale.ROOT,
                "busy machine: other processes took up to %.0f%% of the CPU in %d of %d JVMs, which may explain a"
                        + " difference",
                100 * worst,
                disturbed,
                jvms);
    }
}
