package dev.loomscope.analyzer.study;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What held the carriers at a virtual JVM's stalls, from the two dumps the agent's stall watch took at the first stall
 * of Spring PetClinic on JDK 21 (src/test/resources/threads/README.md), as they lie beside its recording; the same
 * dumps {@code loomscope threads} reads as carrier starvation.
 */
class StallHoldsTest {
    private static final Path DUMPS = Path.of("src/test/resources/threads");

    @TempDir
    Path dir;

    @Test
    void theFrameTheStalledCarriersWereHeldAtIsReadFromTheAgentsDumps() throws Exception {
        Path jvm = Files.createDirectories(dir.resolve("app-virtual-1"));
        for (String which : List.of("a", "b")) {
            Files.copy(
                    DUMPS.resolve("petclinic-21-stall-1" + which + ".threads.json"),
                    jvm.resolve("app-virtual-1-13497-stall-1" + which + ".threads.json"));
        }
        // a stall whose second dump the JVM never finished, and one whose first is not JSON: not counted, the others
        // tell
        Files.writeString(jvm.resolve("app-virtual-1-13497-stall-2a.threads.json"), "{\"threadDump\": {\"threadCont");
        Files.writeString(jvm.resolve("app-virtual-1-13497-stall-2b.threads.json"), "{\"threadDump\": {\"threadCont");
        Files.writeString(jvm.resolve("app-virtual-1-13497-stall-3a.threads.json"), "{}");
        StallHolds holds = StallHolds.of(List.of(jvm, dir.resolve("app-virtual-2")));
        assertThat(holds.stalls()).isEqualTo(1);
        assertThat(holds.starved()).isEqualTo(1);
        assertThat(holds.frame()).isEqualTo("Thread.yield via ConcurrentBag.requite (ConcurrentBag.java:199)");
        // the second dump shows 14 virtual threads at the spin that did not move since the first (what 'loomscope
        // threads' lists)
        assertThat(holds.atFrame()).isEqualTo(14);
        assertThat(holds.brief())
                .isEqualTo(
                        "the carriers held at Thread.yield via ConcurrentBag.requite (ConcurrentBag.java:199) (14 of "
                                + holds.held() + " virtual threads holding one, in 1 of 1 stalls the agent dumped)");
        // no dumps, no figure
        assertThat(StallHolds.of(List.of(Files.createDirectories(dir.resolve("quiet")))))
                .isNull();
    }
}
