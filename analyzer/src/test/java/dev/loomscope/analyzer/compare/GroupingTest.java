package dev.loomscope.analyzer.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loomscope.analyzer.reduce.RecordingFacts;
import dev.loomscope.options.UsageException;
import dev.loomscope.recording.RecordingSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GroupingTest {
    static RecordingFacts facts(String file, String kind, String label, String jvm) {
        Path p = Path.of(file).toAbsolutePath();
        RecordingFacts f = RecordingFacts.empty(new RecordingSource(p, List.of(p)), false);
        f.summary.threadKind = kind;
        f.summary.label = label;
        f.summary.jvm = jvm;
        return f;
    }

    static final String JDK25 =
            "OpenJDK 64-Bit Server VM (25.0.3+9-LTS) for linux-amd64 JRE (25.0.3+9-LTS), built on 2026-04-21T00:00:00Z"
                    + " with gcc 14.2.0";
    static final String JDK21 = "OpenJDK 64-Bit Server VM (21.0.9+10-LTS) for linux-amd64 JRE (21.0.9+10-LTS), built on"
            + " 2025-10-21T00:00:00Z with gcc 13.2.0";

    final List<RecordingFacts> fleet = List.of(
            facts("a.jfr", "virtual", "canary", JDK25),
            facts("b.jfr", "platform", "main", JDK21),
            facts("c.jfr", "unknown", "main", JDK25.replace("2026-04-21", "2026-05-02")),
            facts("d.jfr", "virtual", null, null));

    static Map<String, List<String>> names(Map<String, List<RecordingFacts>> groups) {
        return groups.entrySet().stream()
                .collect(Collectors.toMap(
                        Map.Entry::getKey,
                        e -> e.getValue().stream()
                                .map(f -> f.source.name().getFileName().toString())
                                .toList(),
                        (x, y) -> x,
                        TreeMap::new));
    }

    @Test
    void byThreadKindFallsBackToTheLabel() {
        assertThat(names(Grouping.of(fleet, List.of(), Grouping.By.threadKind)))
                .isEqualTo(Map.of(
                        "virtual", List.of("a.jfr", "d.jfr"), "platform", List.of("b.jfr"), "main", List.of("c.jfr")));
    }

    @Test
    void byLabelPutsTheUnlabelledTogether() {
        assertThat(names(Grouping.of(fleet, List.of(), Grouping.By.label)))
                .isEqualTo(Map.of(
                        "canary", List.of("a.jfr"), "main", List.of("b.jfr", "c.jfr"), "unlabelled", List.of("d.jfr")));
    }

    @Test
    void byJvmIgnoresTheBuildDate() {
        assertThat(names(Grouping.of(fleet, List.of(), Grouping.By.jvm)))
                .isEqualTo(Map.of(
                        "OpenJDK 64-Bit Server VM 25.0.3+9-LTS", List.of("a.jfr", "c.jfr"),
                        "OpenJDK 64-Bit Server VM 21.0.9+10-LTS", List.of("b.jfr"),
                        "unknown JVM", List.of("d.jfr")));
        assertThat(Grouping.jvmKey("25.0.3+9-LTS")).isEqualTo("25.0.3+9-LTS");
    }

    @Test
    void differentJdksAreComparedApartUnlessAskedOtherwise() {
        List<RecordingFacts> mixed = List.of(
                facts("p21.jfr", "platform", null, JDK21),
                facts("v21.jfr", "virtual", null, JDK21),
                facts("p25.jfr", "platform", null, JDK25),
                facts("v25.jfr", "virtual", null, JDK25));
        List<Grouping.Stratum> strata = Grouping.strata(mixed, List.of(), List.of());
        assertThat(strata).extracting(Grouping.Stratum::name).containsExactly("JDK 21", "JDK 25");
        assertThat(names(strata.get(1).groups()))
                .isEqualTo(Map.of("platform", List.of("p25.jfr"), "virtual", List.of("v25.jfr")));
        // asked to pool them by thread kind: one comparison
        assertThat(Grouping.strata(mixed, List.of(), List.of(Grouping.By.threadKind)))
                .extracting(Grouping.Stratum::name)
                .containsExactly((String) null);
        // one JDK: no split, no name
        assertThat(Grouping.strata(mixed.subList(0, 2), List.of(), List.of()))
                .extracting(Grouping.Stratum::name)
                .containsExactly((String) null);
        assertThat(Grouping.jdkOf(JDK25)).isEqualTo("JDK 25");
        assertThat(Grouping.jdkOf(null)).isEqualTo("unknown JDK");
    }

    @Test
    void explicitGroupsMatchPathsAndMustMatchSomething() {
        String dir = Path.of("").toAbsolutePath().toString();
        assertThat(names(Grouping.of(fleet, List.of("first=" + dir + "/a.jfr", "rest=" + dir + "/*.jfr"))))
                .isEqualTo(Map.of("first", List.of("a.jfr"), "rest", List.of("b.jfr", "c.jfr", "d.jfr")));
        assertThatThrownBy(() -> Grouping.of(fleet, List.of("none=" + dir + "/*.txt")))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("matches none of the recordings");
    }
}
