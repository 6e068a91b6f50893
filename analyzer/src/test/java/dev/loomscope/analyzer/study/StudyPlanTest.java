package dev.loomscope.analyzer.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomscope.analyzer.stats.Verdict;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class StudyPlanTest {
    private static StudyPlan plan(int forks, String agentOptions) {
        return new StudyPlan(
                List.of("echo", "sleep"),
                5,
                1,
                forks,
                StudyPlan.controlsFor(forks, Verdict.Rule.DEFAULT),
                10_000,
                100,
                10_000,
                List.of(),
                agentOptions,
                300,
                7);
    }

    @Test
    void timedAndControlJvmsRunInAnOrderTheSeedShufflesAndOneProfiledJvmPerWorkloadAndKindComesLast() {
        List<String> labels =
                plan(2, null).jobs().stream().map(StudyPlan.Job::label).toList();
        assertThat(labels.subList(0, 16))
                .containsExactlyInAnyOrder(
                        "echo-platform-f1",
                        "echo-platform-c1",
                        "echo-virtual-f1",
                        "echo-virtual-c1",
                        "sleep-platform-f1",
                        "sleep-platform-c1",
                        "sleep-virtual-f1",
                        "sleep-virtual-c1",
                        "echo-virtual-c2",
                        "echo-virtual-f2",
                        "echo-platform-c2",
                        "echo-platform-f2",
                        "sleep-virtual-c2",
                        "sleep-virtual-f2",
                        "sleep-platform-c2",
                        "sleep-platform-f2");
        assertThat(labels.subList(16, 20))
                .containsExactly(
                        "echo-platform-profile",
                        "echo-virtual-profile",
                        "sleep-platform-profile",
                        "sleep-virtual-profile");
        // the same seed, the same order; another seed, another order
        assertThat(plan(2, null).jobs().stream().map(StudyPlan.Job::label).toList())
                .isEqualTo(labels);
        StudyPlan other = new StudyPlan(
                List.of("echo", "sleep"),
                5,
                1,
                2,
                StudyPlan.controlsFor(2, Verdict.Rule.DEFAULT),
                10_000,
                100,
                10_000,
                List.of(),
                null,
                300,
                8);
        assertThat(other.jobs().stream().map(StudyPlan.Job::label).toList()).isNotEqualTo(labels);
        // the profiled JVMs are not timed: a few runs make their flame graphs
        StudyPlan defaults = new StudyPlan(
                List.of("echo", "sleep"),
                null,
                1,
                2,
                StudyPlan.controlsFor(2, Verdict.Rule.DEFAULT),
                10_000,
                100,
                10_000,
                List.of(),
                null,
                300,
                7);
        assertThat(defaults.jobs())
                .filteredOn(StudyPlan.Job::profile)
                .isNotEmpty()
                .allSatisfy(j -> assertThat(String.join(" ", j.workloadArgs()))
                        .contains("--runs " + StudyPlan.PROFILE_RUNS + " "));
        // as many as every JVM runs when --runs (or --quick) says
        assertThat(plan(2, null).jobs())
                .filteredOn(StudyPlan.Job::profile)
                .isNotEmpty()
                .allSatisfy(j -> assertThat(String.join(" ", j.workloadArgs())).contains("--runs 5 "));
    }

    @Test
    void controlJvmsRunTheSameWorkloadWithoutAgentOrJfrAndWriteTheirRunsToAResultsFile() {
        StudyPlan plan = plan(1, null);
        StudyRunner runner = new StudyRunner(
                plan, Path.of("java"), Path.of("agent.jar"), Path.of("w.jar"), Path.of("rec"), null, Reruns.DEFAULT);
        StudyPlan.Job control = plan.jobs().stream()
                .filter(j -> j.label().equals("echo-platform-c1"))
                .findFirst()
                .orElseThrow();
        StudyPlan.Job timed = plan.jobs().stream()
                .filter(j -> j.label().equals("echo-platform-f1"))
                .findFirst()
                .orElseThrow();
        assertThat(control.role()).isEqualTo(StudyPlan.Role.CONTROL);
        assertThat(control.workloadArgs()).isEqualTo(timed.workloadArgs());
        List<String> command = runner.command(control, Path.of("d"));
        assertThat(command).noneMatch(a -> a.startsWith("-javaagent") || a.contains("FlightRecord"));
        assertThat(command).endsWith("--results", Path.of("d", "results.csv").toString());
    }

    @Test
    void withoutAWarmupAskedForEachWorkloadAndKindWarmsUpAsLongAsItNeeded() {
        StudyPlan defaults = new StudyPlan(
                List.of("echo", "sleep"),
                5,
                null,
                1,
                StudyPlan.controlsFor(1, Verdict.Rule.DEFAULT),
                5000,
                100,
                10_000,
                List.of(),
                null,
                300,
                7);
        assertThat(defaults.jobs())
                .allSatisfy(j -> assertThat(String.join(" ", j.workloadArgs()))
                        .contains("--warmup "
                                + (j.kind().equals("virtual") ? 3 : j.workload().equals("echo") ? 2 : 1)));
        assertThat(defaults.warmupText())
                .isEqualTo("echo 2 (platform) / 3 (virtual), sleep 1 (platform) / 3 (virtual) warm-up");
        assertThat(plan(1, null).jobs())
                .allSatisfy(j -> assertThat(String.join(" ", j.workloadArgs())).contains("--warmup 1"));
    }

    @Test
    void profileOffInTheAgentOptionsMeansNoProfiledJvms() {
        assertThat(plan(1, "profile=off").jobs()).hasSize(8).noneMatch(StudyPlan.Job::profile);
        assertThat(plan(1, "interval=5ms, profile=cpu,wall,profile=off").profiled())
                .isFalse();
        assertThat(plan(1, "profile=off,profile=cpu+wall").profiled()).isTrue();
        assertThat(plan(1, "engine=jfr").profiled()).isTrue();
    }

    @Test
    void timedJvmsRecordWithProfileOffAfterTheUsersOptionsAndProfiledOnesAsGiven() {
        StudyPlan plan = plan(1, "profile=cpu+wall");
        StudyRunner runner = new StudyRunner(
                plan, Path.of("java"), Path.of("agent.jar"), Path.of("w.jar"), Path.of("rec"), null, Reruns.DEFAULT);
        List<StudyPlan.Job> jobs = plan.jobs();
        String timed = agentArg(runner.command(jobs.get(0), Path.of("d")));
        String profiled = agentArg(runner.command(jobs.get(jobs.size() - 1), Path.of("d")));
        assertThat(timed).endsWith(",profile=cpu+wall,profile=off").contains("label=echo-platform-f1");
        assertThat(profiled).endsWith(",profile=cpu+wall").contains("label=sleep-virtual-profile");
    }

    private static String agentArg(List<String> command) {
        return command.stream()
                .filter(a -> a.startsWith("-javaagent:"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void withoutRunsAskedForEachWorkloadAndKindRunsWhatTheKaliberaJonesLineAdvised() {
        StudyPlan defaults = new StudyPlan(
                List.of("echo", "sleep"),
                null,
                null,
                1,
                StudyPlan.controlsFor(1, Verdict.Rule.DEFAULT),
                5000,
                100,
                10_000,
                List.of(),
                null,
                300,
                7);
        assertThat(defaults.runs("sleep", "platform")).isEqualTo(2);
        assertThat(defaults.runs("sleep", "virtual")).isEqualTo(5);
        assertThat(defaults.runs("rendezvous", "virtual")).isEqualTo(3);
        assertThat(defaults.runsText())
                .isEqualTo("echo 3 (platform) / 4 (virtual), sleep 2 (platform) / 5 (virtual) runs");
        assertThat(defaults.jobs())
                .filteredOn(j -> j.label().equals("sleep-virtual-f1"))
                .allSatisfy(j -> assertThat(String.join(" ", j.workloadArgs())).contains("--runs 5 "));
        StudyPlan asked = new StudyPlan(
                List.of("echo"),
                4,
                null,
                1,
                StudyPlan.controlsFor(1, Verdict.Rule.DEFAULT),
                5000,
                100,
                10_000,
                List.of(),
                null,
                300,
                7);
        assertThat(asked.runs("echo", "platform")).isEqualTo(4);
        assertThat(asked.runsText()).isEqualTo("4 runs");
    }

    /**
     * The controls are the fewest with which the recording's cost can reach the rule's alpha, 3 at the least and no
     * more than the timed JVMs.
     */
    @Test
    void controlsAreTheFewestThatCanReachAlpha() {
        assertThat(StudyPlan.controlsFor(5, Verdict.Rule.DEFAULT)).isEqualTo(3); // 2 / C(8, 3) = 0.036
        assertThat(StudyPlan.controlsFor(4, Verdict.Rule.DEFAULT)).isEqualTo(4); // 3 against 4: 2 / C(7, 3) = 0.057
        assertThat(StudyPlan.controlsFor(2, Verdict.Rule.DEFAULT)).isEqualTo(2);
        assertThat(StudyPlan.controlsFor(10, Verdict.Rule.DEFAULT)).isEqualTo(3);
        assertThat(StudyPlan.controlsFor(5, new Verdict.Rule(0.01, 0.05)))
                .isEqualTo(5); // 4 against 5: 2 / C(9, 4) = 0.016
        assertThat(plan(4, null).jobs())
                .filteredOn(j -> j.role() == StudyPlan.Role.CONTROL)
                .hasSize(2 * 2 * 4);
    }
}
