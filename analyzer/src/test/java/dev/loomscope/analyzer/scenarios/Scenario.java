package dev.loomscope.analyzer.scenarios;

import dev.loomscope.events.KnownLibrary;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * The scenario corpus: small services ({@link ScenarioService}) each with a known virtual-thread pathology, or none (a
 * healthy control), and its known answer: the hazards a reading of its platform-thread recording should find
 * ({@link Hazard}), and what virtual threads then do to it on JDK 21 and on JDK 25 at the rate the corpus offers it.
 */
public enum Scenario implements Case {
    SYNC_SLEEP(
            "holds one of 64 monitors around a 10 ms wait (a legacy client's synchronized call)",
            300,
            "worse",
            "same",
            Hazard.MONITOR),
    SYNC_SOCKET(
            "a synchronized client method reads its answer from a socket: a downstream that answers in 5 ms",
            500,
            "worse",
            "same",
            Hazard.MONITOR),
    H2_LEGACY(
            "an H2 1.4.200 query whose function waits 5 ms inside H2's session monitor (a pool of 64 connections)",
            500,
            "worse",
            "same",
            Hazard.MONITOR),
    OBJECT_WAIT(
            "hands its work to 8 legacy worker threads and waits for the 5 ms answer in Object.wait",
            300,
            "same",
            "same",
            Hazard.OBJECT_WAIT),
    CLASS_INIT(
            "loads a plugin class a request in a fresh class loader; its static initializer waits 5 ms",
            500,
            "worse",
            "worse",
            Hazard.CLASS_INIT),
    JNA_NATIVE("calls usleep(5 ms) through JNA: native code that blocks", 500, "worse", "worse", Hazard.NATIVE),
    COMMONS_POOL(
            "borrows one of 8 objects from a commons-pool2 pool for 10 ms (800/s at most)",
            760,
            "same",
            "same",
            Hazard.POOL),
    SEMAPHORE(
            "a Semaphore of 8 permits around a downstream call of 0-20 ms, 10 on average (a bulkhead: 800/s at most)",
            760,
            "same",
            "same",
            Hazard.POOL),
    YIELD_SPIN("waits 5 ms for a helper thread's answer in a Thread.yield loop", 150, "same", "same", Hazard.SPINS),
    CPU_BURST(
            "one request in 100 computes for a second of CPU without blocking (a report), the others answer at once",
            100,
            "worse",
            "worse",
            Hazard.BURST),
    THREAD_LOCAL(
            "uses a 4 MB buffer cached in a ThreadLocal, a thread's own (a pooled thread's for good, a virtual thread's"
                    + " once)",
            300,
            "worse",
            "worse",
            Hazard.THREAD_LOCAL),
    JUC_DEADLOCK(
            "takes two ReentrantLocks in a random order around a 20 ms wait (two requests always overlap at its rate):"
                    + " deadlocks on either kind of thread",
            100,
            "stuck",
            "stuck"),
    IO_SLEEP("waits 20 ms as a call to a remote service would (healthy)", 300, "same", "same"),
    CPU_HASH(
            "hashes 64 KB with SHA-256 a few times, about 1 ms of CPU (healthy: gains nothing, loses nothing)",
            300,
            "same",
            "same"),
    REENTRANT_LOCK("holds one of 64 ReentrantLocks around a 10 ms wait (sync-sleep fixed)", 300, "same", "same"),
    HTTP_DOWNSTREAM(
            "calls a downstream HTTP service that answers in 10 ms with the JDK's HttpClient (healthy)",
            300,
            "same",
            "same");

    /**
     * What a reading of the platform recording should find; the kinds of loomscope.HeldMonitor that tell each, none
     * where no look can.
     */
    public enum Hazard {
        MONITOR("blocks holding a monitor", "waits to enter a monitor"),
        OBJECT_WAIT("waits in Object.wait"),
        CLASS_INIT("blocks in a class initializer"),
        NATIVE("runs application native code"),
        POOL("waits for a pool or semaphore"),
        SPINS("spins in Thread.yield or onSpinWait"),
        BURST("runs on the CPU across looks"),
        THREAD_LOCAL;

        private final Set<String> kinds;

        Hazard(String... kinds) {
            this.kinds = Set.of(kinds);
        }

        /** The hazard a loomscope.HeldMonitor kind tells, or null. */
        public static Hazard of(String kind) {
            return Arrays.stream(values())
                    .filter(h -> h.kinds.contains(kind))
                    .findFirst()
                    .orElse(null);
        }

        /** The hazard a library's known hazard is ({@code views.LibraryHazard}), or null. */
        public static Hazard ofLibrary(KnownLibrary library) {
            return library == null
                    ? null
                    : switch (library) {
                        case HIKARICP -> SPINS;
                        case CONNECTOR_J -> MONITOR;
                    };
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final Known known;

    Scenario(String what, int rate, String jdk21, String jdk25, Hazard... hazards) {
        this.known = Known.of(what, rate, jdk21, jdk25, hazards);
    }

    public static Scenario named(String label) {
        return Case.named(Scenario.class, label);
    }

    /** Its known answer; its rate past the carriers' ceiling its pathology sets, within the platform threads'. */
    @Override
    public Known known() {
        return known;
    }

    @Override
    public String path() {
        return "/";
    }

    /** {@link ScenarioService} on this JVM's class path. */
    @Override
    public String command() {
        return "java -cp " + System.getProperty("java.class.path") + " " + ScenarioService.class.getName()
                + " --scenario " + label() + " --port {port} --threads {threads}";
    }
}
