package dev.loomscope.analyzer.study;

import dev.loomscope.analyzer.compare.Noise;
import dev.loomscope.analyzer.reduce.Analysis;
import dev.loomscope.analyzer.reduce.RunsReducer;
import dev.loomscope.load.stats.Quantiles;
import dev.loomscope.probes.MachineCpu;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What a study does with a measured JVM that ran while other processes took more than {@link MachineCpu#DISTURBED} of
 * the CPU in its median measured run: runs it again, at most {@code reruns} times, then leaves it out with the reason,
 * or keeps it flagged when {@code keepDisturbed} (a machine that is always busy). A verdict then rests on undisturbed
 * JVMs, or says it cannot.
 */
public record Reruns(int reruns, boolean keepDisturbed) {
    public static final Reruns DEFAULT = new Reruns(2, false);

    /** What follows a JVM's {@code attempt}-th run (0 the first). */
    public enum Action {
        ACCEPT,
        AGAIN,
        KEEP_FLAGGED,
        LEAVE_OUT
    }

    /**
     * JVMs left out one after another after which no disturbed JVM runs again: the machine has shown that it stays
     * busy, and rerunning would only make the study longer before it says it cannot judge (on a busy 2-core machine,
     * three times as long).
     */
    public static final int BUSY_STREAK = 2;

    /** The action after a run whose other processes took {@code busyElsewhere} (NaN: not known, accepted). */
    public Action after(double busyElsewhere, int attempt) {
        return after(busyElsewhere, attempt, 0);
    }

    /** As {@link #after(double, int)}, the JVMs before it having been left out {@code leftOutInARow} times in a row. */
    public Action after(double busyElsewhere, int attempt, int leftOutInARow) {
        if (!(busyElsewhere > MachineCpu.DISTURBED)) {
            return Action.ACCEPT;
        }
        if (attempt < reruns && leftOutInARow < BUSY_STREAK) {
            return Action.AGAIN;
        }
        return keepDisturbed ? Action.KEEP_FLAGGED : Action.LEAVE_OUT;
    }

    /** The left-out streak after {@code action}: one more for a JVM left out, none after one accepted. */
    public static int streak(Action action, int leftOutInARow) {
        return action == Action.LEAVE_OUT ? leftOutInARow + 1 : action == Action.ACCEPT ? 0 : leftOutInARow;
    }

    /** {@code other processes took 45% of the CPU in its median measured run}. */
    public static String busy(double busyElsewhere) {
        return String.format(
                Locale.ROOT, "other processes took %.0f%% of the CPU in its median measured run", 100 * busyElsewhere);
    }

    /** Why a JVM was left out after {@code runs} runs. */
    public String leftOut(double busyElsewhere, int runs) {
        return String.format(
                Locale.ROOT,
                "left out: other processes took over %.0f%% of the CPU in %s (%.0f%% in the last one's median measured"
                        + " run; --reruns %d, --keep-disturbed keeps such JVMs, flagged)%s",
                100 * MachineCpu.DISTURBED,
                runs > 1 ? "each of its " + runs + " runs" : "its run",
                100 * busyElsewhere,
                reruns,
                runs <= reruns
                        ? "; not run again: the " + BUSY_STREAK + " JVMs before it were left out too, so the machine"
                                + " stays busy"
                        : "");
    }

    /**
     * Other processes' share of the CPU in a JVM's median measured run: from its runs' results file ({@code results}, a
     * control JVM's or the load client's windows) when there is one, else from its recording; NaN when neither tells.
     */
    static double busyElsewhere(Path results, Path recording) {
        if (results != null) {
            double[] v = ControlRuns.read(results).stream()
                    .filter(r -> !r.warmup())
                    .mapToDouble(RunsReducer.WorkloadRun::busyElsewhere)
                    .filter(x -> !Double.isNaN(x))
                    .toArray();
            return v.length == 0 ? Double.NaN : Quantiles.of(v, 0.5);
        }
        return recording == null
                ? Double.NaN
                : Noise.busyElsewhere(
                        Analysis.of(List.of(RecordingSource.file(recording))).get(0));
    }
}
