package dev.loomscope.analyzer.scenarios;

import dev.loomscope.analyzer.study.AppPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A service a corpus runs ({@link Scenario}, {@link App}) and its known answer: the hazards a reading of its platform
 * recording should find, and what virtual threads do to it on JDK 21-23 and 24+ at the rate the corpus offers it.
 */
public interface Case {
    /**
     * What a case is known to do: what a request does, the requests a second the corpus offers it, what virtual threads
     * do to it there on JDK 21-23 and on 24+ (worse, same, or stuck on both kinds), and the hazards a reading of its
     * platform recording should find.
     */
    record Known(String what, int rate, String jdk21, String jdk25, Set<Scenario.Hazard> hazards) {
        static Known of(String what, int rate, String jdk21, String jdk25, Scenario.Hazard... hazards) {
            return new Known(
                    what,
                    rate,
                    jdk21,
                    jdk25,
                    hazards.length == 0
                            ? EnumSet.noneOf(Scenario.Hazard.class)
                            : EnumSet.copyOf(Arrays.asList(hazards)));
        }
    }

    /** The enum constant's name. */
    String name();

    Known known();

    /** The path its requests ask for. */
    String path();

    /**
     * Its command line as {@code loomscope study --app} takes it: {@code java} first; {@code {port}}, and
     * {@code {threads}} or {@code {virtual}}, for study to fill in.
     */
    String command();

    /** The name on the command line and in the tables: sync-sleep. */
    default String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    default String what() {
        return known().what();
    }

    default int rate() {
        return known().rate();
    }

    default String jdk21() {
        return known().jdk21();
    }

    default String jdk25() {
        return known().jdk25();
    }

    default Set<Scenario.Hazard> hazards() {
        return known().hazards();
    }

    /**
     * Whether advise is given the rate ({@code --rate}); else it is read as users read it, the requests the agent
     * counted telling it the rate. Either way the looks are taken over the span of the counted requests, a start-up
     * transient left out.
     */
    default boolean adviseAtRate() {
        return true;
    }

    /** A healthy control: nothing to find, and it serves on both kinds. */
    default boolean control() {
        return hazards().isEmpty() && !jdk21().equals("stuck");
    }

    /** The case of {@code kind} named {@code label} on the command line. */
    static <T extends Enum<T> & Case> T named(Class<T> kind, String label) {
        T[] all = kind.getEnumConstants();
        return Arrays.stream(all)
                .filter(c -> c.label().equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "no " + kind.getSimpleName().toLowerCase(Locale.ROOT)
                                + " " + label + " (one of "
                                + Arrays.stream(all).map(Case::label).collect(Collectors.joining(", ")) + ")"));
    }

    /** {@link #command} for one JVM: {@code java} at {@code java}, with the JVM options after it. */
    default List<String> words(Path java, List<String> jvmOptions, int port, boolean virtual) {
        List<String> given = AppPlan.words("command", command());
        List<String> words = new ArrayList<>(List.of(java.toString()));
        words.addAll(jvmOptions);
        words.addAll(AppPlan.filled(given.subList(1, given.size()), virtual ? "virtual" : "platform", port));
        return words;
    }
}
