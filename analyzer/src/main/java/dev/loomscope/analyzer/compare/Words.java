package dev.loomscope.analyzer.compare;

/**
 * The nouns a comparison's lines speak in: a workload's unit of work and its runs, or a service's requests and the load
 * client's windows, and the option that lengthens the warm-up.
 *
 * @param unit what a per-unit figure is per ({@code cpu time per request})
 * @param run one measured stretch ({@code n=5/5 JVMs x 3 windows}, {@code +6.1% per window})
 * @param warmupOption the option that gives a group still warming up more warm-up
 */
public record Words(String unit, String run, String warmupOption) {
    /** A workload's: units of work, runs, {@code --warmup}. */
    public static final Words WORKLOAD = new Words("unit", "run", "--warmup");

    /** A service's under {@code study --app}: requests, the load client's windows, {@code --min-warmup}. */
    public static final Words SERVICE = new Words("request", "window", "--min-warmup");

    /** The plural of {@link #run}. */
    public String runs() {
        return run + "s";
    }

    /** A metric's name in these words: a figure per unit of work is per {@link #unit}. */
    public String name(Metric m) {
        return m.perUnit() ? m.stem() + " per " + unit : m.name();
    }

    /** A metric's unit in these words ({@code ms/request}). */
    public String unit(Metric m) {
        return m.perUnit() ? m.unitStem() + "/" + unit : m.unit();
    }
}
