package dev.loomscope.analyzer.scenarios;

import dev.loomscope.analyzer.study.AppPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A service a corpus runs ({@link Scenario}, {@link App}) and its known answer: the hazards a reading of its platform
 * recording should find, and what virtual threads do to it on JDK 21-23 and 24+ at the rate the corpus offers it.
 */
public interface Case {
    /** The name on the command line and in the tables. */
    String label();

    /** What a request does. */
    String what();

    /** The requests a second the corpus offers it. */
    int rate();

    /** The path its requests ask for. */
    String path();

    /**
     * Its command line as {@code loomscope study --app} takes it: {@code java} first; {@code {port}}, and
     * {@code {threads}} or {@code {virtual}}, for study to fill in.
     */
    String command();

    /** What virtual threads do to it on JDK 21-23 at {@link #rate}: worse, same, or stuck (on both kinds). */
    String jdk21();

    /** The same on JDK 24+. */
    String jdk25();

    Set<Scenario.Hazard> hazards();

    /** A healthy control: nothing to find, and it serves on both kinds. */
    default boolean control() {
        return hazards().isEmpty() && !jdk21().equals("stuck");
    }

    /** {@link #command} for one JVM: {@code java} at {@code java}, with the JVM options after it. */
    default List<String> words(Path java, List<String> jvmOptions, int port, boolean virtual) {
        List<String> given = AppPlan.words("command", command());
        List<String> words = new ArrayList<>(List.of(java.toString()));
        words.addAll(jvmOptions);
        for (String w : given.subList(1, given.size())) {
            words.add(w.replace("{port}", Integer.toString(port))
                    .replace("{threads}", virtual ? "virtual" : "platform")
                    .replace("{virtual}", Boolean.toString(virtual)));
        }
        return words;
    }
}
