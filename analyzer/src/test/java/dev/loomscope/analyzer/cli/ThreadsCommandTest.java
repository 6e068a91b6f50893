package dev.loomscope.analyzer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loomscope threads} on the JSON thread dumps of real stuck JVMs (src/test/resources/threads/README.md says how
 * each was taken).
 */
class ThreadsCommandTest {
    static final Path DIR = Path.of("src/test/resources/threads");

    static JsonNode table(MainTest.Result r, String name) throws Exception {
        for (JsonNode t : new ObjectMapper().readTree(r.out()).get("tables")) {
            if (t.get("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no table " + name + " in " + r.out());
    }

    static List<String> column(JsonNode table, String column) {
        List<String> out = new ArrayList<>();
        table.get("rows").forEach(row -> out.add(row.get(column).asText()));
        return out;
    }

    /**
     * threads on {@code dump} (StuckService's monitor deadlock) as JSON: exit 1 and its two virtual threads named, each
     * holding what the other waits for, at their own frames.
     */
    private static MainTest.Result monitorDeadlock(String dump) throws Exception {
        MainTest.Result r = MainTest.run("threads", DIR.resolve(dump).toString(), "--format", "json");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode cycle = table(r, "thread-deadlocks");
        assertThat(column(cycle, "thread")).containsExactlyInAnyOrder("\"left\" #22", "\"right\" #24");
        assertThat(column(cycle, "held by")).containsExactlyInAnyOrder("\"left\" #22", "\"right\" #24");
        assertThat(column(cycle, "kind")).containsOnly("virtual");
        assertThat(column(cycle, "state")).containsOnly("BLOCKED");
        assertThat(column(cycle, "waits for")).doesNotHaveDuplicates().allMatch(l -> l.startsWith("java.lang.Object@"));
        assertThat(column(cycle, "at")).allMatch(f -> f.startsWith("StuckService.nested (StuckService.java:"));
        return r;
    }

    @Test
    void aMonitorDeadlockBetweenVirtualThreadsIsNamedThreadByThreadAndLockByLock() throws Exception {
        MainTest.Result r = monitorDeadlock("monitor-25.json");
        // the ten waiters for LEFT are one group, waiting on the lock "left" holds
        JsonNode locks = table(r, "thread-locks");
        JsonNode busiest = locks.get("rows").get(0);
        assertThat(busiest.get("waiters").asLong()).isEqualTo(11); // ten waiters and "right"
        assertThat(busiest.get("held by").asText()).isEqualTo("\"left\" #22 (virtual)");
        MainTest.Result text =
                MainTest.run("threads", DIR.resolve("monitor-25.json").toString());
        assertThat(text.out())
                .contains("deadlock: \"left\" #22 (virtual, at StuckService.nested (StuckService.java:")
                .contains(") waits for java.lang.Object@");
    }

    @Test
    void carrierStarvationThroughAPinnedClassInitializerNamesCarriersWhatPinsAndWhatWaits() throws Exception {
        MainTest.Result r =
                MainTest.run("threads", DIR.resolve("clinit-25.json").toString(), "--format", "json");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        JsonNode held = table(r, "thread-carriers");
        assertThat(column(held, "carrier"))
                .containsExactlyInAnyOrder("\"ForkJoinPool-1-worker-1\" #23", "\"ForkJoinPool-1-worker-2\" #27");
        assertThat(column(held, "virtual thread")).containsExactlyInAnyOrder("\"pinned-0\" #25", "\"pinned-1\" #26");
        assertThat(column(held, "why it cannot go on"))
                .anyMatch(w -> w.startsWith("pinned in the class initializer StuckService$Registry.<clinit>")
                        && w.contains("parked on its carrier in ReentrantLock.lock"))
                .anyMatch(w -> w.startsWith("waiting inside the VM with no Java frame"));
        assertThat(held.get("notes").get(0).asText())
                .contains("2 of 2 carriers run a virtual thread; 10 virtual thread(s) wait to run")
                .endsWith(": carrier starvation");
        JsonNode overview = table(r, "threads");
        assertThat(overview.get("rows").get(0).get("found").asText()).isEqualTo("0 deadlock(s), carrier starvation");
        // the lock the pinned thread waits for: JDK 25 does not record its owner, and that is said
        assertThat(overview.get("notes").toString())
                .contains("JDK 25 dumps do not record who owns such a lock (JDK 26 does)");
    }

    /**
     * One of two carriers held for good (a virtual thread sleeping in a class initializer) while busy virtual threads
     * wait to run on the other: not starvation (exit 0), but never "nothing stuck" above the thread that holds it.
     */
    @Test
    void oneCarrierHeldWhileOthersWaitIsSaidNotNothingStuck() throws Exception {
        MainTest.Result r = MainTest.run("threads", DIR.resolve("held-25.json").toString(), "--format", "json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode overview = table(r, "threads");
        assertThat(overview.get("rows").get(0).get("found").asText()).isEqualTo("0 deadlock(s), 1 of 2 carriers held");
        assertThat(overview.get("notes").get(0).asText())
                .startsWith("held-25.json: carriers held: 1 of 2 carriers held by a virtual thread that cannot go on or"
                        + " did not move (\"pinned\" #22 pinned in the class initializer StuckService$Sleeper.<clinit>")
                .contains("virtual thread(s) wait to run: not every carrier, so not starvation");
    }

    @Test
    void theNetflixPatternOnJdk21IsFoundFromOneDumpAndWhatJdk21CannotTellIsSaid() throws Exception {
        MainTest.Result r = MainTest.run("threads", DIR.resolve("sync-21.json").toString());
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.out())
                .contains("carrier starvation: every carrier (2 of 2) is held by a virtual thread that cannot go on"
                        + " (\"pinned-0\"")
                .contains("parked on its carrier in ReentrantLock.lock via StuckService.lambda$starvation$")
                .contains("JDK 21 thread dumps record no thread states, locks or carriers")
                .contains("JDK 21 dumps record no states (n/a)");
    }

    /**
     * The same dump without the virtual threads that wait to run (as a service's dump is, whose other virtual threads
     * all started): a JDK 21 dump cannot show those queued for a carrier, so starvation is not claimed, and what cannot
     * be told is said.
     */
    @Test
    void onJdk21WithNoWaitingThreadInSightStarvationCannotBeTold(@TempDir Path dir) throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode dump = json.readTree(DIR.resolve("sync-21.json").toFile());
        for (JsonNode container : dump.get("threadDump").get("threadContainers")) {
            var threads = (ArrayNode) container.get("threads");
            for (int i = threads.size() - 1; i >= 0; i--) {
                if (threads.get(i).get("name").asText().startsWith("waiter-")) {
                    threads.remove(i);
                }
            }
        }
        Path none = dir.resolve("sync-21-no-waiters.json");
        json.writeValue(none.toFile(), dump);
        MainTest.Result r = MainTest.run("threads", none.toString());
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out())
                .doesNotContain("carrier starvation:")
                .contains("2 of 2 carriers run a virtual thread; 0 virtual thread(s) wait to run")
                .contains(
                        "whether virtual threads wait for a carrier a JDK 21 dump cannot show (JDK 25's does): carrier"
                                + " starvation cannot be told from it");
    }

    @Test
    void onJdk21OneDumpCannotTellADeadlockAndTwoDumpsShowWhatDidNotMove() throws Exception {
        MainTest.Result one =
                MainTest.run("threads", DIR.resolve("monitor-21-a.json").toString());
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out())
                .contains("nothing stuck")
                .contains("not told: the dump records no locks")
                .contains("take a second dump");
        MainTest.Result two = MainTest.run(
                "threads",
                DIR.resolve("monitor-21-b.json").toString(),
                DIR.resolve("monitor-21-a.json").toString(),
                "--format",
                "json");
        assertThat(two.code()).as(two.err()).isEqualTo(1);
        JsonNode unmoved = table(two, "thread-unmoved");
        assertThat(column(unmoved, "for example")).contains("\"left\" #18", "\"right\" #20");
        assertThat(column(unmoved, "since")).allMatch(s -> s.startsWith("monitor-21-a.json (1.0 s before)"));
        // the two deadlocked threads pin both carriers on JDK 21 (synchronized pins there): starvation, shown by the
        // two dumps
        assertThat(column(table(two, "thread-carriers"), "why it cannot go on"))
                .hasSize(2)
                .allMatch(w -> w.startsWith("did not move between the two dumps"));
    }

    @Test
    void aJucDeadlockOnJdk25IsNotGuessed() {
        MainTest.Result r = MainTest.run("threads", DIR.resolve("lock-25.json").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains(
                        "12 thread(s) parked on java.util.concurrent locks: JDK 25 dumps do not record who owns such a"
                                + " lock");
    }

    /**
     * The same deadlock in the dumps attach PID threads took, the owners the agent saw written into them: the cycle, on
     * JDK 25 and 21.
     */
    @Test
    void aJucDeadlockIsFoundWhereTheAgentWroteTheOwnersOnJdk25And21() throws Exception {
        for (String dump : List.of("lock-owners-25.json", "lock-owners-21.json")) {
            MainTest.Result r = MainTest.run("threads", DIR.resolve(dump).toString(), "--format", "json");
            assertThat(r.code()).as(dump + ": " + r.out()).isEqualTo(1);
            JsonNode cycle = table(r, "thread-deadlocks");
            assertThat(column(cycle, "thread"))
                    .hasSize(2)
                    .allMatch(t -> t.startsWith("\"left\" #") || t.startsWith("\"right\" #"));
            assertThat(column(cycle, "waits for"))
                    .doesNotHaveDuplicates()
                    .allMatch(l -> l.startsWith("java.util.concurrent.locks.ReentrantLock$NonfairSync@"));
            assertThat(column(cycle, "at"))
                    .allMatch(f -> f.matches(
                            "ReentrantLock\\.lock.* via StuckService\\.locked \\(StuckService\\.java:\\d+\\)"));
            // the ten waiters behind "right"'s lock, and who holds it
            JsonNode busiest = table(r, "thread-locks").get("rows").get(0);
            assertThat(busiest.get("waiters").asLong()).as(dump).isEqualTo(11);
            assertThat(busiest.get("held by").asText()).startsWith("\"left\" #");
        }
        MainTest.Result jdk21 =
                MainTest.run("threads", DIR.resolve("lock-owners-21.json").toString());
        assertThat(jdk21.out())
                .contains("deadlocks over monitors cannot be told from this dump (over java.util.concurrent locks they"
                        + " can, from the owners loomscope's agent added)");
    }

    @Test
    void identicalStacksAreGroupedWithTheJdkCallAndTheApplicationFrame() throws Exception {
        MainTest.Result r = MainTest.run("threads", DIR.resolve("lock-25.json").toString(), "--format", "json");
        JsonNode groups = table(r, "thread-stacks");
        JsonNode first = groups.get("rows").get(0);
        assertThat(first.get("threads").asLong()).isEqualTo(10);
        assertThat(first.get("kind").asText()).isEqualTo("virtual");
        assertThat(first.get("state").asText()).isEqualTo("WAITING");
        assertThat(first.get("where (the JDK call via the application's frame)").asText())
                .startsWith("ReentrantLock.lock (ReentrantLock.java:")
                .contains(" via StuckService.lambda$deadlock$");
    }

    @Test
    void aFileThatIsNoThreadDumpIsOneLineAndExit2(@TempDir Path dir) throws Exception {
        Path jmh = Path.of("src/test/resources/jmh/threads-ctxsw.json");
        Path text = Files.writeString(dir.resolve("dump.json"), "\"main\" #1 prio=5 os_prio=0 cpu=1ms\n");
        Path deep = Files.writeString(dir.resolve("deep.json"), "[".repeat(5000) + "]".repeat(5000));
        for (Path bad : List.of(jmh, text, deep, dir.resolve("missing.json"), dir)) {
            MainTest.Result r = MainTest.run("threads", bad.toString());
            assertThat(r.code()).as(bad + ": " + r.err()).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
            assertThat(r.err())
                    .startsWith("loomscope threads: " + bad)
                    .doesNotContain("internal error")
                    .doesNotContain("Exception");
        }
        assertThat(MainTest.run("threads", text.toString()).err())
                .contains("not JSON")
                .contains("jcmd PID Thread.dump_to_file -format=json FILE");
    }

    /**
     * The JDK's plain-text dump, what is written when JSON cannot be: the same deadlock as the JSON dump of the same
     * case.
     */
    @Test
    void aPlainTextDumpIsReadAsTheJsonOne() throws Exception {
        monitorDeadlock("monitor-25.txt");
    }

    /**
     * Names the JDK cannot write as JSON (control characters) are read from its plain-text dumps, JDK 25 and 21, and
     * printed escaped.
     */
    @Test
    void threadNamesWithControlCharactersAreReadAndEscaped() throws Exception {
        for (String dump : List.of("control-name-25.txt", "control-name-21.txt")) {
            MainTest.Result r = MainTest.run("threads", DIR.resolve(dump).toString(), "--format", "json");
            assertThat(r.code()).as(r.err()).isZero();
            List<String> examples = column(table(r, "thread-stacks"), "for example");
            assertThat(examples)
                    .as(dump)
                    .anyMatch(e -> e.contains("bad\u0001name\u001b[31m"))
                    .anyMatch(e -> e.contains("plat\u0007"));
            MainTest.Result text = MainTest.run("threads", DIR.resolve(dump).toString());
            assertThat(text.out())
                    .as(dump)
                    .contains("\"bad\\u0001name\\u001b[31m\" #")
                    .doesNotContain("\u001b")
                    .doesNotContain("\u0007");
        }
    }
}
